"""Service and selector details the API and web tests do not reach."""

from __future__ import annotations

from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError

from accounts.models import Profile
from accounts.selectors import profile_get
from accounts.services import api_token_create, profile_update, user_create
from tests.accounts.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_profile_get_creates_a_missing_profile_once():
    user = User.objects.create_user("root")

    profile = profile_get(user=user)

    assert profile.time_zone == "UTC"
    assert profile.notify_turn is True
    assert profile.name == "root"
    assert profile_get(user=User.objects.get(pk=user.pk)) == profile
    assert Profile.objects.filter(user=user).count() == 1


def test_profile_name_prefers_the_display_name(alice):
    assert profile_get(user=alice).name == "Alice A."


def test_profile_update_rejects_unknown_fields(alice):
    with pytest.raises(TypeError, match="unexpected fields: is_staff, username"):
        profile_update(user=alice, username="mallory", is_staff=True)


def test_profile_update_collects_every_error(alice, bob):
    with pytest.raises(ValidationError) as excinfo:
        profile_update(user=alice, email="bob@example.org", country="ZZ", time_zone="Nowhere")

    assert set(excinfo.value.message_dict) == {"email", "country", "time_zone"}
    assert Profile.objects.get(user=alice).country == "IE"


def test_user_create_survives_losing_a_race_for_the_username(alice):
    with (
        mock.patch("accounts.services._validate_username"),
        pytest.raises(ValidationError) as excinfo,
    ):
        user_create(username="alice", email="other@example.org", password=PASSWORD)

    assert excinfo.value.message_dict == {"username": ["This username is taken."]}


def test_api_token_create_survives_losing_a_race_for_the_name(alice):
    api_token_create(user=alice, name="cli")

    with (
        mock.patch("accounts.services._validate_token_name"),
        pytest.raises(ValidationError) as excinfo,
    ):
        api_token_create(user=alice, name="cli")

    assert excinfo.value.message_dict == {
        "name": ["You already have an active token with this name; pick another."]
    }
    assert alice.api_tokens.count() == 1
