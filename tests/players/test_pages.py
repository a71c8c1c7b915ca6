"""The player page, the player search, the live games list and ``player_link`` everywhere."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.selectors import profile_get
from games import services
from games.models import Game
from games.timeouts import game_timeouts_decide
from tests.accounts.factories import make_moderator
from tournaments import services as tournaments

pytestmark = pytest.mark.django_db


def make_user(username: str, display_name: str = ""):
    user = get_user_model().objects.create_user(username=username, password="pw-for-tests-1")
    if display_name:
        profile = profile_get(user=user)
        profile.display_name = display_name
        profile.save()
    return user


@pytest.fixture
def ann(db):
    return make_user("ann", "Ann Lee")


@pytest.fixture
def ben(db):
    return make_user("ben")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_url(username: str) -> str:
    return reverse("players:detail", args=[username])


def test_player_page_shows_rating_chart_games_and_events(client, ann, ben) -> None:
    rated = services.game_start(players=[ann, ben])
    services.game_resign(game_id=rated.pk, user=ben)
    ongoing = services.game_start(players=[ben, ann])
    hidden = services.game_start(players=[ann, ben], public=False)

    response = client.get(page_url("ann"))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<h1>Ann Lee <small class="muted">@ann</small></h1>' in html
    [rating] = response.context["ratings"]  # one kind played
    assert (rating.kind, rating.kind_name) == ("celtic", "Celtic!")
    assert rating.entry.elo == pytest.approx(1520.0)
    assert rating.chart is None  # one game: no line to draw
    assert [g.pk for g in response.context["active_games"]] == [ongoing.pk]
    assert [g.pk for g in response.context["page"].object_list] == [rated.pk]
    assert f'href="{reverse("games:game", args=[hidden.pk])}"' not in html
    assert "Blue resigned: Orange wins (1-0)." in html
    # Ben's name links to his page, with his rating after it.
    assert (
        f'<a class="player-link" href="{page_url("ben")}">ben</a> '
        '<span class="rating" title="Elo rating">1480</span>' in html
    )
    assert "Log in to challenge" in html


def test_player_page_challenge_button_fills_in_the_opponent(ann, ben) -> None:
    html = logged_in(ben).get(page_url("ann")).content.decode()
    challenge_url = reverse("games:challenges") + "?opponent=ann"
    assert f'href="{challenge_url}#new-h"' in html
    form_html = logged_in(ben).get(challenge_url).content.decode()
    assert re.search(r'name="opponent"[^>]*value="ann"', form_html)
    own = logged_in(ann).get(page_url("ann")).content.decode()
    assert "Edit your profile" in own and "?opponent=" not in own


def test_private_games_show_to_the_player_themselves(ann, ben) -> None:
    hidden = services.game_start(players=[ann, ben], public=False)
    response = logged_in(ann).get(page_url("ann"))
    assert [g.pk for g in response.context["active_games"]] == [hidden.pk]


def test_unknown_player_is_a_404(client) -> None:
    response = client.get(page_url("nobody"))
    assert response.status_code == 404


def test_player_without_games_says_so(client, ben) -> None:
    html = client.get(page_url("ben")).content.decode()
    assert "No rated game yet." in html
    assert "No game in progress." in html and "No finished game yet." in html
    assert "No tournament yet." in html


def test_search_matches_username_and_display_name(client, ann, ben) -> None:
    by_display = client.get(reverse("players:search"), {"q": "lee"})
    assert [u.username for u in by_display.context["players"]] == ["ann"]
    by_username = client.get(reverse("players:search"), {"q": "BE"})
    assert [u.username for u in by_username.context["players"]] == ["ben"]
    everyone = client.get(reverse("players:search"))
    assert [u.username for u in everyone.context["players"]] == ["ann", "ben"]
    none = client.get(reverse("players:search"), {"q": "zz"}).content.decode()
    assert "No player has “zz” in their name." in none


def test_live_games_lists_public_games_in_progress_only(client, ann, ben) -> None:
    live = services.game_start(players=[ann, ben])
    services.game_start(players=[ann, ben], public=False)
    ended = services.game_start(players=[ben, ann])
    services.game_resign(game_id=ended.pk, user=ann)
    response = client.get(reverse("games:live"))
    assert response.status_code == 200
    assert [g.pk for g in response.context["page"].object_list] == [live.pk]


def test_every_page_links_player_names(client, ann, ben) -> None:
    game = services.game_start(players=[ann, ben])
    services.challenge_create(challenger=ben)
    link = f'<a class="player-link" href="{page_url("ben")}">ben</a>'
    for url in (
        reverse("games:game", args=[game.pk]),
        reverse("games:home"),
        reverse("games:challenges"),
        reverse("games:live"),
    ):
        assert link in client.get(url).content.decode(), url


@pytest.mark.parametrize(
    ("ending", "text"),
    [
        ("resign", "Blue resigned: Orange wins (1-0)."),
        ("timeout", "Blue ran out of time: Orange wins (1-0)."),
        ("unstarted", "Annulled: no move was made before the deadline."),
        ("annul", "Annulled by a moderator: Played twice"),
        ("adjudicate", "Adjudicated by a moderator: Draw (1/2-1/2). Reason: Clock fault"),
    ],
)
def test_game_page_says_how_the_game_ended(client, ann, ben, ending, text) -> None:
    game = services.game_start(players=[ann, ben])
    moderator = make_moderator()
    if ending == "resign":
        services.game_resign(game_id=game.pk, user=ben)
    elif ending in ("timeout", "unstarted"):
        if ending == "timeout":
            services.move_submit(game_id=game.pk, user=ann, expected_ply=0, notation="f5 SW n")
            game.refresh_from_db()
        assert game_timeouts_decide(now=game.deadline + timedelta(minutes=1)) == [game.pk]
    elif ending == "annul":
        services.game_annul(game_id=game.pk, actor=moderator, reason="Played twice")
    else:
        services.game_adjudicate(
            game_id=game.pk, actor=moderator, result="1/2-1/2", reason="Clock fault"
        )
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert text in html
    assert "Final knots" in html and "No knot closed in this game, so none scored." in html
    assert 'class="demand' not in html
    listing = client.get(page_url("ann")).content.decode()
    assert text in listing


def test_game_page_of_a_game_in_progress_draws_demand_cells(client, ann, ben) -> None:
    game = services.game_start(players=[ann, ben])
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "Knots so far" in html and 'class="demand' in html
    assert f'href="{reverse("learn:rules")}"' in html
    assert Game.objects.get(pk=game.pk).is_active


def test_forms_have_labels_without_trailing_colons(client) -> None:
    for url in (reverse("accounts:login"), reverse("accounts:signup")):
        html = client.get(url).content.decode()
        labels = re.findall(r"<label[^>]*>([^<]*)</label>", html)
        assert labels, url
        assert not [label for label in labels if label.strip().endswith(":")], url


def test_base_links_the_favicon_and_the_new_pages(client) -> None:
    html = client.get(reverse("games:home")).content.decode()
    assert 'rel="icon" href="/static/celtic/favicon.svg"' in html
    for name in ("learn:rules", "learn:puzzles", "players:search", "games:live"):
        assert f'href="{reverse(name)}"' in html


def test_ranking_and_tournament_pages_link_player_names(client, ann, ben) -> None:
    game = services.game_start(players=[ann, ben])
    services.game_resign(game_id=game.pk, user=ben)
    ranking = client.get(reverse("rankings:list")).content.decode()
    assert f'<a class="player-link" href="{page_url("ben")}">ben</a>' in ranking

    ann.user_permissions.add(Permission.objects.get(codename="organise_tournament"))
    ann = get_user_model().objects.get(pk=ann.pk)
    event = tournaments.tournament_create(organiser=ann, name="Spring knots")
    tournaments.tournament_registration_open(tournament_id=event.pk, actor=ann)
    tournaments.tournament_register(tournament_id=event.pk, user=ben)
    page = client.get(reverse("tournaments:detail", args=[event.pk])).content.decode()
    assert f'<a class="player-link" href="{page_url("ann")}">Ann Lee</a>' in page
    assert f'href="{page_url("ben")}"' in page
    on_player_page = client.get(page_url("ben")).content.decode()
    assert "Spring knots" in on_player_page
