"""Private leagues: the organiser invites a player (or adds one directly, or removes one
before the start); the invitee sees the league, accepts or declines, and is emailed."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from leagues import audit, invitations, selectors, services
from leagues.models import League, Membership, Season
from moderation.models import AuditEntry
from notifications.models import OutboxEmail
from tests.accounts.factories import make_user
from tests.games.conftest import token_client
from tests.leagues.conftest import DAY, T0, grant

pytestmark = pytest.mark.django_db

L = "/api/v1/leagues"


@pytest.fixture
def private(organiser, clock) -> Season:
    """A private league whose season 1 is open for registration."""
    league = services.league_create(
        organiser=organiser, name="Hidden League", first_registration_opens_at=T0, public=False
    )
    return league.seasons.get()


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_invited_player_sees_the_private_league_and_registers_by_accepting(private, organiser):
    gwen = make_user("gwen")
    assert not selectors.league_list(user=gwen).exists()

    invited = invitations.season_invite(season_id=private.pk, actor=organiser, user=gwen)

    assert invited.status == Membership.Status.INVITED
    assert list(selectors.league_list(user=gwen)) == [private.league]
    assert list(selectors.invitations_of(user=gwen)) == [invited]
    assert list(selectors.season_memberships(season=private)) == []  # not a player yet
    email = OutboxEmail.objects.get(event="league_invitation", recipient=gwen)
    assert email.subject == "Hidden League, season 1: you are invited"
    assert "leagueorg invites you to play season 1 of Hidden League" in email.body_text
    assert f"/leagues/seasons/{private.pk}/" in email.body_text
    entry = AuditEntry.objects.get(action=audit.LEAGUE_INVITE)
    assert (entry.actor, entry.data["season"]) == (organiser, private.pk)

    accepted = invitations.season_invitation_answer(season_id=private.pk, user=gwen, accept=True)

    assert accepted.status == Membership.Status.REGISTERED
    assert [m.player for m in selectors.season_memberships(season=private)] == [gwen]
    assert not selectors.invitations_of(user=gwen).exists()


def test_registering_accepts_an_invitation_and_declining_hides_the_league(private, organiser):
    gwen, hugh = make_user("gwen"), make_user("hugh")
    for user in (gwen, hugh):
        invitations.season_invite(season_id=private.pk, actor=organiser, user=user)

    assert services.season_register(season_id=private.pk, user=gwen).status == "registered"
    declined = invitations.season_invitation_answer(season_id=private.pk, user=hugh, accept=False)

    assert declined.status == Membership.Status.DECLINED
    assert not selectors.league_list(user=hugh).exists()
    with pytest.raises(Exception) as refused:
        invitations.season_invitation_answer(season_id=private.pk, user=hugh, accept=True)
    assert refused.value.code == "not_invited"  # type: ignore[attr-defined]
    again = invitations.season_invite(season_id=private.pk, actor=organiser, user=hugh)
    assert again.status == Membership.Status.INVITED  # the organiser may ask again


def test_the_organiser_adds_and_removes_players_before_the_start(private, organiser, clock):
    gwen, hugh = make_user("gwen"), make_user("hugh")
    invitations.season_invite(season_id=private.pk, actor=organiser, user=hugh)

    added = invitations.season_player_add(season_id=private.pk, actor=organiser, user=gwen)
    assert added.status == Membership.Status.REGISTERED
    email = OutboxEmail.objects.get(event="league_invitation", recipient=gwen)
    assert email.subject == "Hidden League, season 1: you are registered"
    assert "leagueorg registered you for season 1 of Hidden League" in email.body_text
    with pytest.raises(Exception) as refused:
        invitations.season_invite(season_id=private.pk, actor=organiser, user=gwen)
    assert refused.value.detail == "gwen is already registered for Hidden League season 1."  # type: ignore[attr-defined]

    for user in (gwen, hugh):  # a registered player and an invited one
        removed = invitations.season_player_remove(
            season_id=private.pk, actor=organiser, user=user, reason="Moved away"
        )
        assert removed.status == Membership.Status.REMOVED
    assert not selectors.league_list(user=gwen).exists()
    entry = AuditEntry.objects.filter(action=audit.LEAGUE_REMOVE).order_by("pk").first()
    assert (entry.reason, entry.data["previous"]) == ("Moved away", "registered")
    with pytest.raises(Exception) as refused:
        services.season_register(season_id=private.pk, user=gwen)
    assert refused.value.code == "removed_by_organiser"  # type: ignore[attr-defined]
    readded = invitations.season_player_add(season_id=private.pk, actor=organiser, user=gwen)
    assert readded.status == Membership.Status.REGISTERED

    clock(private.starts_at)
    services.leagues_advance(now=private.starts_at)
    with pytest.raises(Exception) as refused:
        invitations.season_player_remove(
            season_id=private.pk, actor=organiser, user=gwen, reason="Too late"
        )
    assert refused.value.code == "wrong_status"  # type: ignore[attr-defined]


def test_refusals_say_what_is_wrong(private, organiser):
    gwen = make_user("gwen")
    rival = grant(make_user("rival"), "organise_league", "manage_league_players")
    with pytest.raises(Exception) as refused:
        invitations.season_invite(season_id=private.pk, actor=rival, user=gwen)
    assert refused.value.code == "not_organiser"  # type: ignore[attr-defined]
    invitations.season_invite(season_id=private.pk, actor=organiser, user=gwen)
    with pytest.raises(Exception) as refused:
        invitations.season_invite(season_id=private.pk, actor=organiser, user=gwen)
    assert refused.value.detail == "gwen is already invited to Hidden League season 1."  # type: ignore[attr-defined]
    with pytest.raises(Exception) as refused:
        invitations.season_player_remove(
            season_id=private.pk, actor=organiser, user=gwen, reason="  "
        )
    assert refused.value.code == "reason_required"  # type: ignore[attr-defined]
    gone = make_user("gone")
    gone.is_active = False
    gone.save()
    with pytest.raises(Exception) as refused:
        invitations.season_player_add(season_id=private.pk, actor=organiser, user=gone)
    assert refused.value.detail == "You cannot add gone: the account is suspended."  # type: ignore[attr-defined]
    with pytest.raises(Exception) as refused:
        invitations.user_by_username(username="nobody")
    assert refused.value.detail == "There is no player called 'nobody'."  # type: ignore[attr-defined]


def test_the_api_round_trip(private, organiser):
    gwen, other = make_user("gwen"), make_user("other")
    org, invitee, stranger = token_client(organiser), token_client(gwen), token_client(other)
    season = f"{L}/seasons/{private.pk}"

    assert (
        stranger.post(f"{season}/invite/", {"username": "gwen"}, format="json").status_code == 404
    )
    answer = org.post(f"{season}/invite/", {"username": "GWEN"}, format="json")
    assert (answer.status_code, answer.json()["status"]) == (201, "invited"), answer.json()
    listed = invitee.get(f"{L}/invitations/").json()["results"]
    assert [(i["league_name"], i["season"]["id"]) for i in listed] == [
        ("Hidden League", private.pk)
    ]
    assert invitee.get(f"{L}/{private.league_id}/").status_code == 200
    assert APIClient().get(f"{L}/invitations/").status_code == 401

    answer = invitee.post(f"{season}/accept-invitation/", format="json")
    assert (answer.status_code, answer.json()["status"]) == (200, "registered")
    answer = invitee.post(f"{season}/decline-invitation/", format="json")
    assert (answer.status_code, answer.json()["code"]) == (409, "not_invited")

    answer = org.post(f"{season}/add-player/", {"username": "other"}, format="json")
    assert (answer.status_code, answer.json()["status"]) == (201, "registered")
    answer = org.post(f"{season}/add-player/", {"username": "ghost"}, format="json")
    assert (answer.status_code, answer.json()["code"]) == (404, "no_user")
    answer = org.post(
        f"{season}/remove-player/", {"username": "other", "reason": "Asked to"}, format="json"
    )
    assert (answer.status_code, answer.json()["status"]) == (200, "removed")
    answer = invitee.post(
        f"{season}/remove-player/", {"username": "gwen", "reason": "Me"}, format="json"
    )
    assert (answer.status_code, answer.json()["code"]) == (403, "not_organiser")


def test_the_pages(private, organiser):
    gwen = make_user("gwen")
    url = f"/leagues/seasons/{private.pk}/"
    assert logged_in(gwen).get(url).status_code == 404
    organiser_page = logged_in(organiser).get(url).content.decode()
    assert "Invite or add a player (organiser)" in organiser_page

    answer = logged_in(organiser).post(f"{url}players/invite/", {"username": "gwen"}, follow=True)
    assert "gwen is invited and told by email." in answer.content.decode()
    page = logged_in(gwen).get(url).content.decode()
    assert "invites you to play this season" in page and "Invite or add" not in page
    league_page = logged_in(gwen).get(f"/leagues/{private.league_id}/").content.decode()
    assert "You are invited to play this season: accept or decline on its page." in league_page
    listing = logged_in(gwen).get("/leagues/").content.decode()
    assert "Your invitations" in listing and f'href="{url}">Hidden League, season 1' in listing
    answer = logged_in(gwen).post(f"{url}accept/", follow=True)
    assert "You are registered for Hidden League season 1." in answer.content.decode()
    assert League.objects.get().seasons.get().memberships.get(player=gwen).status == "registered"

    answer = logged_in(organiser).post(
        f"{url}players/remove/", {"username": "gwen", "reason": ""}, follow=True
    )
    assert "A reason is required" in answer.content.decode()
    answer = logged_in(organiser).post(
        f"{url}players/remove/", {"username": "gwen", "reason": "Left the club"}, follow=True
    )
    assert "gwen is removed from Hidden League season 1." in answer.content.decode()
    assert logged_in(gwen).get(url).status_code == 404
    answer = logged_in(organiser).post(f"{url}players/add/", {"username": "gwen"}, follow=True)
    assert "gwen is registered for Hidden League season 1" in answer.content.decode()
    answer = logged_in(gwen).post(f"{url}players/add/", {"username": "gwen"}, follow=True)
    assert "Only the organiser of Hidden League" in answer.content.decode()
    assert Client().post(f"{url}players/invite/", {"username": "gwen"}).status_code == 302


def test_a_season_not_open_yet_takes_invitations_and_acceptances(organiser, clock):
    league = services.league_create(
        organiser=organiser,
        name="Later League",
        first_registration_opens_at=T0 + 3 * DAY,
        public=False,
    )
    season = league.seasons.get()
    gwen = make_user("gwen")
    invitations.season_invite(season_id=season.pk, actor=organiser, user=gwen)
    page = logged_in(gwen).get(f"/leagues/seasons/{season.pk}/").content.decode()
    assert "registration opens on 5 Mar 2026; you may accept now" in page
    accepted = invitations.season_invitation_answer(season_id=season.pk, user=gwen, accept=True)
    assert accepted.status == Membership.Status.REGISTERED


def test_after_the_start_an_unanswered_invitation_offers_nothing(private, organiser, clock):
    players = [make_user(f"p{i}") for i in range(4)]
    for user in players:
        invitations.season_player_add(season_id=private.pk, actor=organiser, user=user)
    late = make_user("late")
    invitations.season_invite(season_id=private.pk, actor=organiser, user=late)
    clock(private.starts_at)
    services.leagues_advance(now=private.starts_at)
    url = f"/leagues/seasons/{private.pk}/"

    playing = logged_in(players[0]).get(url).content.decode()
    assert "You play this season in Division 1." in playing
    page = logged_in(late).get(url).content.decode()
    assert ">Accept</button>" not in page and 'id="you-h"' not in page
    assert not selectors.invitations_of(user=late).exists()
    with pytest.raises(Exception) as refused:
        invitations.season_invitation_answer(season_id=private.pk, user=late, accept=True)
    assert refused.value.detail == (  # type: ignore[attr-defined]
        "You cannot accept the invitation now: Hidden League season 1 is under way. "
        "That is possible only before the season starts."
    )
