"""Where the tie-breaks leave players level on first place, the event names no one winner:
the event page, the lists, the final-standings email and the API say they share it."""

from __future__ import annotations

import pytest
from django.test import Client

from notifications.models import OutboxEmail
from tests.games.conftest import token_client
from tests.tournaments.conftest import finish, register_all
from tournaments import services
from tournaments.models import Tournament, TournamentGame

pytestmark = pytest.mark.django_db


def _beats(winner: int, loser: int) -> bool:
    """Five seeds in a circle: each beats the next two and loses to the two before."""
    return (loser - winner) % 5 in (1, 2)


@pytest.fixture
def cycle(make_tournament, organiser, players, commit) -> Tournament:
    """A round robin of five on 2/4 each, created without tie-breaks (so with the round
    robin's default), that none of them breaks: every player beat two and lost to two."""
    tournament = make_tournament(name="Samhain RR")
    register_all(tournament, players[:5])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    _play(tournament, rounds=5, beats=_beats, commit=commit)
    return Tournament.objects.get(pk=tournament.pk)


def _play(tournament: Tournament, *, rounds: int, beats, commit) -> None:
    """Play every round, each game won by the seed ``beats(seed, other)`` names."""
    for number in range(1, rounds + 1):
        links = TournamentGame.objects.filter(tournament=tournament, round__number=number)
        for link in links.select_related("orange", "blue", "game"):
            orange_wins = beats(link.orange.seed, link.blue.seed)
            finish(link.game, "1-0" if orange_wins else "0-1", commit=commit)


def test_five_level_players_share_first_place_on_the_event_page_and_the_lists(cycle, players):
    assert cycle.status == Tournament.Status.FINISHED
    assert cycle.tiebreaks == ["de", "win", "sb", "ks"]
    assert len(cycle.winners) == 5 and cycle.winner is None

    page = Client().get(f"/tournaments/{cycle.pk}/").content.decode()
    listed = Client().get("/tournaments/").content.decode()
    record = Client().get(f"/players/{players[0].username}/").content.decode()

    for html in (page, listed, record):
        assert "share first place" in html
        assert "won by" not in html and " won." not in html
    assert "The event is over: " in page
    names = [f">{p.username}</a>" for p in players[:5]]
    assert all(name in page for name in names)


def test_the_final_standings_email_says_who_shares_first_place(cycle):
    body = OutboxEmail.objects.filter(event="tournament_finished").first().body_text
    assert "p1, p2, p3, p4 and p5 share first place." in body
    assert "The winner is" not in body
    assert "You share 1st place with 2 points." in body
    assert "1. p1 2\n" in body


def test_the_api_lists_every_winner_and_no_single_one(cycle, players):
    api = token_client(players[0])
    event = api.get(f"/api/v1/tournaments/{cycle.pk}/").json()
    listed = api.get("/api/v1/tournaments/?status=finished").json()["results"][0]
    for answer in (event, listed):
        assert answer["winner"] is None
        assert [w["name"] for w in answer["winners"]] == ["p1", "p2", "p3", "p4", "p5"]
        assert answer["winners"][0]["player"]["username"] == "p1"


def test_a_sole_winner_is_named_as_before(make_tournament, organiser, players, commit):
    tournament = make_tournament(name="Imbolc RR")
    register_all(tournament, players[:3])
    with commit():
        services.tournament_start(tournament_id=tournament.pk, actor=organiser)
    _play(tournament, rounds=3, beats=lambda seed, other: seed < other, commit=commit)
    tournament.refresh_from_db()
    [winner] = tournament.winners

    page = Client().get(f"/tournaments/{tournament.pk}/").content.decode()
    body = OutboxEmail.objects.filter(event="tournament_finished").first().body_text

    assert tournament.winner == winner.player
    assert f">{winner.player.username}</a> won." in page
    assert f"The winner is {winner.name}." in body


def test_the_schema_marks_the_single_winner_deprecated_for_the_winners_list(players):
    document = token_client(players[0]).get("/api/schema/?format=json").json()
    schemas = document["components"]["schemas"]
    for name in ("TournamentSummary", "TournamentDetail"):
        fields = schemas[name]["properties"]
        assert fields["winner"].get("deprecated") is True
        assert (
            fields["winners"]["type"] == "array"
            and "share first place" in (fields["winners"]["description"])
        )
