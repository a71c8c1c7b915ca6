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


# --- Sign-up ------------------------------------------------------------------------------


def _signals_sent(signal) -> list[dict]:
    sent: list[dict] = []
    signal.connect(lambda sender, **kwargs: sent.append(kwargs), weak=False, dispatch_uid="t")
    return sent


def test_signup_hashes_the_password_for_a_new_and_a_taken_address_alike(
    alice, django_capture_on_commit_callbacks
):
    """Hashing is what takes time: both ways do it once, so both answer as fast."""
    from accounts import services, signals

    pending = _signals_sent(signals.signup_pending)
    taken = _signals_sent(signals.signup_address_taken)
    try:
        with (
            mock.patch.object(services, "make_password", wraps=services.make_password) as hashing,
            django_capture_on_commit_callbacks(execute=True),
        ):
            services.signup_request(username="carol", email="carol@example.org", password=PASSWORD)
            services.signup_request(
                username="mallory", email="ALICE@example.org", password=PASSWORD
            )
    finally:
        signals.signup_pending.disconnect(dispatch_uid="t")
        signals.signup_address_taken.disconnect(dispatch_uid="t")

    assert hashing.call_count == 2
    carol = User.objects.get(username="carol")
    assert [sent["user"] for sent in pending] == [carol]
    assert [sent["user"] for sent in taken] == [alice]
    assert not User.objects.filter(username="mallory").exists()
    assert carol.profile.pending_password.startswith("md5$")  # the test hasher
    assert not carol.has_usable_password()


def test_signup_again_for_a_pending_address_sends_its_confirmation_again(
    django_capture_on_commit_callbacks,
):
    from accounts import services, signals

    services.signup_request(username="carol", email="carol@example.org", password=PASSWORD)
    pending = _signals_sent(signals.signup_pending)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.signup_request(
                username="carol2", email="Carol@example.org", password="other-secret-42"
            )
    finally:
        signals.signup_pending.disconnect(dispatch_uid="t")

    assert [sent["user"].username for sent in pending] == ["carol"]
    assert not User.objects.filter(username="carol2").exists()


def test_a_suspended_pending_account_cannot_confirm(django_capture_on_commit_callbacks):
    from django.contrib.auth.tokens import default_token_generator
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    from accounts import services
    from celticsite.errors import DomainError

    services.signup_request(username="carol", email="carol@example.org", password=PASSWORD)
    carol = User.objects.get(username="carol")
    token = default_token_generator.make_token(carol)
    uid = urlsafe_base64_encode(force_bytes(carol.pk))
    User.objects.filter(pk=carol.pk).update(is_active=False)

    with pytest.raises(DomainError) as refused:
        services.signup_confirm(uidb64=uid, token=token)

    assert refused.value.code == "invalid_signup_link"
    assert not User.objects.get(pk=carol.pk).has_usable_password()


def test_unconfirmed_signups_are_purged_after_a_week_freeing_the_username(alice):
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from accounts import services

    start = timezone.now()
    with time_machine.travel(start, tick=False) as traveller:
        services.signup_request(username="carol", email="carol@example.org", password=PASSWORD)
        traveller.shift(timedelta(days=6))
        services.signup_request(username="dave", email="dave@example.org", password=PASSWORD)
        assert services.pending_signups_purge() == 0

        traveller.shift(timedelta(days=1, seconds=1))
        purged = services.pending_signups_purge()

    assert purged == 1
    assert sorted(User.objects.values_list("username", flat=True)) == ["alice", "dave"]
    services.signup_request(username="carol", email="carol@example.org", password=PASSWORD)
    assert User.objects.filter(username="carol").exists()


def test_beat_purges_pending_signups_daily(settings):
    from celticsite.celery import app

    app.loader.import_default_modules()  # what a worker does at start: find the tasks
    entry = settings.CELERY_BEAT_SCHEDULE["accounts-purge-pending-signups"]

    assert entry["task"] == "accounts.tasks.purge_pending_signups"
    assert entry["task"] in app.tasks
    assert app.tasks[entry["task"]].delay().get() == 0  # eager in tests: nothing to purge
