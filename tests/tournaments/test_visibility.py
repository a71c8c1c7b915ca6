"""Who sees which events (``selectors.tournament_list`` and ``tournament_get_visible``):
private events and drafts stay hidden from outsiders, but not from superusers and the staff
who may act on every event (holding the adjudicate or entries permission)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.accounts.factories import make_superuser, make_user
from tests.tournaments.conftest import grant
from tournaments import errors, selectors

pytestmark = pytest.mark.django_db


def _staff(username: str, *codenames: str) -> User:
    user = make_user(username)
    user.is_staff = True
    user.save()
    return grant(user, *codenames)


@pytest.fixture
def events(make_tournament) -> dict[str, int]:
    return {
        "public": make_tournament(name="Public").pk,
        "private": make_tournament(name="Private", public=False).pk,
        "draft": make_tournament(name="Draft", open_registration=False).pk,
    }


def _seen(user: User | None) -> list[str]:
    return sorted(t.name for t in selectors.tournament_list(user=user))


def test_superusers_and_arbiters_see_private_events_and_drafts(events, organiser):
    everything = ["Draft", "Private", "Public"]

    assert _seen(make_superuser("root")) == everything
    assert _seen(_staff("arbiter", "adjudicate_tournament_game")) == everything
    assert _seen(_staff("clerk", "manage_tournament_entries")) == everything
    assert _seen(organiser) == everything  # their own events


def test_others_see_public_events_only(events):
    public = ["Public"]

    assert _seen(None) == public
    assert _seen(make_user("outsider")) == public
    assert _seen(_staff("viewer")) == public  # staff without a tournaments permission
    assert _seen(grant(make_user("lay"), "adjudicate_tournament_game")) == public  # not staff
    assert _seen(grant(make_user("rival"), "organise_tournament")) == public
    suspended = _staff("gone", "adjudicate_tournament_game")
    suspended.is_active = False
    assert _seen(suspended) == public


def test_an_arbiter_reaches_a_private_event_an_outsider_cannot(events):
    arbiter = _staff("arbiter", "adjudicate_tournament_game")

    found = selectors.tournament_get_visible(tournament_id=events["private"], user=arbiter)
    with pytest.raises(errors.TournamentNotFound):
        selectors.tournament_get_visible(tournament_id=events["private"], user=make_user("x"))

    assert found.name == "Private"
