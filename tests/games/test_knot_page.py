"""Celtic Knot on the game page: the squares of the seat to act are buttons for that player
only; after a square, the flips in words and the destinations as buttons (an extra move's
flips at once); each seat's coins, distance and place; the fair-flips panel (FlipCommit from
the start, FlipSeed only once the game is over); the analysis board's links."""

from __future__ import annotations

import hashlib
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Game
from rankings.models import Player, PlayerRating
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

SEED = hashlib.sha256(b"knot-page-1").hexdigest()
"""A seed whose first flipping (one coin) is H and second (two coins) is T H, by the
formula of KNOT-RULES.md: checked by ``test_the_seed_flips_as_the_tests_expect``."""
START_SQUARES = ["a1", "a2", "b1", "h9", "i8", "i9"]


def flips(seed_hex: str, flipping: int, coins: int) -> str:
    """The flips of the ``flipping``-th flipping of ``coins`` coins, as KNOT-RULES.md says."""
    digest = hashlib.sha256(bytes.fromhex(seed_hex) + b":" + str(flipping).encode()).digest()
    return "".join("T" if digest[0] >> (7 - j) & 1 else "H" for j in range(coins))


@pytest.fixture
def game() -> Game:
    """A 4-seat game (ann Red, ben Blue, cat Green, dan Yellow) with a known seed."""
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    started = services.game_start(players=players, kind="knot")
    Game.objects.filter(pk=started.pk).update(chance_seed=SEED)
    started.refresh_from_db()
    return started


def player(game: Game, username: str):
    (seat,) = [seat for seat in game.seat_list if seat.user.get_username() == username]
    return seat.user


def page_of(game: Game, username: str | None) -> str:
    client = Client()
    if username:
        client.force_login(player(game, username))
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def play(game: Game, username: str, notation: str) -> str:
    """Post ``notation`` from the game page as ``username``; the page they land on."""
    client = Client()
    client.force_login(player(game, username))
    game.refresh_from_db()
    response = client.post(
        reverse("games:game_move", args=[game.pk]),
        {"notation": notation, "ply": game.ply},
        follow=True,
    )
    assert response.status_code == 200
    game.refresh_from_db()
    return response.content.decode()


def spot_buttons(html: str, role: str) -> list[str]:
    """The squares posted by the buttons laid over the board, of ``role``."""
    pattern = rf'<button type="submit" name="notation" value="(\w+)" class="knot-spot {role}"'
    return re.findall(pattern, html)


def marked(html: str, role: str) -> list[str]:
    """The squares marked over the board without a button (what others see)."""
    return re.findall(rf'<span class="knot-spot {role}" [^>]*title="[^"]* (\w+)"', html)


def test_the_seed_flips_as_the_tests_expect() -> None:
    assert (flips(SEED, 1, 1), flips(SEED, 2, 2)) == ("H", "TH")


def test_the_player_to_act_gets_a_button_on_each_square_holding_their_coins(game) -> None:
    html = page_of(game, "ann")
    assert spot_buttons(html, "square") == START_SQUARES
    assert 'aria-label="Flip your 1 coin on a1"' in html
    assert f'action="{reverse("games:game_move", args=[game.pk])}"' in html
    assert (
        "Your move. Choose a square holding your coins: every coin of yours there is flipped."
        in html
    )
    assert "No moves yet: every seat has a coin on each X and O, and Red begins." in html


@pytest.mark.parametrize("viewer", ["ben", "dan", None])
def test_the_others_and_visitors_get_no_square_to_click(game, viewer) -> None:
    html = page_of(game, viewer)
    assert spot_buttons(html, "square") == []
    assert "knot-spot" not in html
    assert 'id="move-form"' not in html
    assert '<span class="red">Red</span> (ann) to move.' in html


def test_after_a_square_the_flips_and_the_destinations_are_shown(game) -> None:
    html = play(game, "ann", "a1")

    assert (
        "<strong>You flipped H: 1, the stack on a1.</strong> Click a highlighted destination."
        in html
    )
    assert "You played a1 H." in html
    # One point along the strand from a1: a2 one way, b1 the other.
    assert spot_buttons(html, "destination") == ["a2", "b1"]
    assert spot_buttons(html, "square") == []
    assert marked(html, "stack") == ["a1"]
    assert "Your move. Choose a highlighted destination. Click it on the board or here." in html

    others = page_of(game, "ben")
    assert "Red flipped H: 1, the stack on a1." in others
    assert "Click a highlighted destination" not in others
    assert spot_buttons(others, "destination") == []
    assert marked(others, "destination") == ["a2", "b1"]


def test_a_landing_on_opponents_shows_the_extra_moves_flips_at_once(game) -> None:
    play(game, "ann", "a1")
    html = play(game, "ann", "a2")

    assert "You flipped T H: 3, the stack on a2 (an extra move)." in html
    # Three points from a2: c3 (by a3, b3) or c1 (by a1, b1).
    assert spot_buttons(html, "destination") == ["c1", "c3"]
    assert 'aria-label="Move the stack to c3"' in html

    ended_turn = play(game, "ann", "c3")
    assert spot_buttons(ended_turn, "destination") == []
    assert '<span class="blue">Blue</span> (ben) to move.' in ended_turn
    assert spot_buttons(page_of(game, "ben"), "square") == START_SQUARES


def test_a_square_without_your_coins_is_refused_with_the_rule(game) -> None:
    html = play(game, "ann", "c3")
    assert "Move: choose a space holding your coins" in html
    assert game.ply == 0
    assert spot_buttons(html, "square") == START_SQUARES


def test_each_seat_shows_its_colour_coins_and_distance(game) -> None:
    html = page_of(game, "ann")
    for colour in ("red", "blue", "green", "yellow"):
        assert f'<span class="chip chip-{colour}" aria-hidden="true"></span>' in html
    # Six coins on the marks: a1 9, a2 10, b1 8, and the half turn's corner the same: 54.
    assert html.count("6 coins · 54 to go") == 4
    assert "Coins left on the board · their total distance to the exit" in html


def test_the_commitment_is_shown_from_the_start_and_the_seed_only_at_the_end(game) -> None:
    commit = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    play(game, "ann", "a1")
    for viewer in ("ann", "ben", None):
        html = page_of(game, viewer)
        assert f'<code id="flip-commit">{commit}</code>' in html
        assert SEED not in html
        assert "The seed itself is revealed when the game ends" in html

    for quitter in ("ben", "cat", "dan"):
        services.game_resign(game_id=game.pk, user=player(game, quitter))
    game.refresh_from_db()
    assert not game.is_active

    html = page_of(game, "ben")
    assert f'<code id="flip-seed">{SEED}</code>' in html
    assert f'<code id="flip-commit">{commit}</code>' in html
    assert '<a href="#fair-flips-check">check every flip</a>' in html
    assert 'id="fair-flips-check"' in html
    # Places: ann played on; the others left, the last to leave ranking highest.
    scorelines = re.findall(r'<div class="scoreline"[^>]*>([^<]*)</div>', html)
    assert scorelines == ["1st · 6 coins · 54 to go", "4th", "3rd", "2nd"]
    assert "knot-spot" not in html


def test_the_analysis_board_links_each_choice_over_its_square(game) -> None:
    url = reverse("games:game_analysis", args=[game.pk])
    html = Client().get(url).content.decode()
    links = re.findall(r'<a href="[^"]*line=(\w+)" rel="nofollow" class="knot-spot square"', html)
    assert links == START_SQUARES
    assert "Red to act. Choose a square holding your coins" in html
    assert html.count("6 coins · 54 to go") == 4


def test_the_analysis_board_shows_the_flips_of_a_square_tried_and_links_its_destinations(
    game,
) -> None:
    url = reverse("games:game_analysis", args=[game.pk])
    html = Client().get(url, {"line": "a1"}).content.decode()
    (points,) = re.findall(r"Red flipped [HT]: ([12]), the stack on a1\.", html)
    links = re.findall(r'line=a1%2C(\w+)" rel="nofollow" class="knot-spot destination"', html)
    assert links == {"1": ["a2", "b1"], "2": ["a3", "c1"]}[points]
    assert re.findall(r'<span class="knot-spot stack" [^>]*title="[^"]* (\w+)"', html) == ["a1"]


# --- the move list and the replay go turn by turn ----------------------------------------------

TURN_ENTRY = re.compile(
    r'<li value="(\d+)"><a href="\?ply=(\d+)" class="turn( shown)?"[^>]*>'
    r'<span class="dot dot-(\w+)" aria-hidden="true"></span>'
    r'<span class="turn-seat">(\w+)</span> ([^<]*)</a></li>'
)


def turn_entries(html: str) -> list[tuple[str, ...]]:
    """The move list: (number, ply after it, " shown" or "", colour, seat name, choices)."""
    return TURN_ENTRY.findall(html)


def replay_page(game: Game, **params: str) -> tuple[int, str]:
    response = Client().get(reverse("games:game", args=[game.pk]), params)
    return response.status_code, response.content.decode()


@pytest.fixture
def two_turns(game) -> Game:
    """ann's turn (a1 H, an extra move from a2 with T H, to c3: three steps), then ben's
    square h9 and its flips: four steps in two turns, the second going on."""
    play(game, "ann", "a1")
    play(game, "ann", "a2")
    play(game, "ann", "c3")
    play(game, "ben", "h9")
    return game


def test_the_move_list_has_one_entry_per_turn_with_its_seat(two_turns) -> None:
    ben_flips = flips(SEED, 3, 1)
    entries = turn_entries(page_of(two_turns, "cat"))
    assert entries == [
        ("1", "3", "", "red", "Red", "a1 H a2 TH c3"),
        ("2", "4", " shown", "blue", "Blue", f"h9 {ben_flips}"),
    ]
    html = page_of(two_turns, "cat")
    assert '<span class="ply">turn 2 / 2</span>' in html
    assert 'class="move-list turn-list"' in html


def test_the_replay_steps_turn_by_turn(two_turns) -> None:
    status, html = replay_page(two_turns, turn="1")
    assert status == 200
    assert "Replay: the position after 1 of 2 turns." in html
    assert '<span class="ply">turn 1 / 2</span>' in html
    assert '?ply=0" title="One turn back"' in html and '?ply=4" title="One turn forward"' in html
    assert 'type="range" id="replay-ply" name="turn" min="0" max="2" value="1"' in html
    assert "Position after turn <output" in html and "</output> of 2</label>" in html
    assert [entry[2] for entry in turn_entries(html)] == [" shown", ""]
    assert replay_page(two_turns, ply="3")[1].count('aria-current="step"') == 1


def test_a_ply_inside_a_turn_says_how_far_into_it(two_turns) -> None:
    status, html = replay_page(two_turns, ply="2")
    assert status == 200
    assert "Replay: the position after 0 of 2 turns and 2 steps of the next." in html
    assert '?ply=0" title="One turn back"' in html and '?ply=3" title="One turn forward"' in html
    assert [entry[2] for entry in turn_entries(html)] == [" shown", ""]


@pytest.mark.parametrize(
    ("turn", "message"),
    [
        ("3", "turn 3 is outside this game: expected 0 to 2."),
        ("-1", "turn -1 is outside this game: expected 0 to 2."),
        ("one", "turn='one' is not a number: expected 0 to 2."),
    ],
)
def test_a_turn_outside_the_game_is_refused_with_the_range(two_turns, turn, message) -> None:
    status, html = replay_page(two_turns, turn=turn)
    assert status == 400
    assert message in html.replace("&#x27;", "'")
    assert '<span class="ply">turn 2 / 2</span>' in html  # the current position instead


def test_each_name_is_followed_by_the_players_knot_rating_not_their_celtic_elo(game) -> None:
    ann = player(game, "ann")
    ranked = Player.objects.create(name="ann", user=ann)
    PlayerRating.objects.create(player=ranked, kind="celtic", elo=1777, games=9)
    PlayerRating.objects.create(player=ranked, kind="knot", mu=31.0, sigma=2.0, games=3)
    knot = round(PlayerRating.objects.get(player=ranked, kind="knot").shown)

    html = page_of(game, "ben")
    home = Client()
    home.force_login(ann)
    games_table = home.get(reverse("games:home")).content.decode()

    for text in (html, games_table):
        assert f'<span class="rating" title="Rating in this game">{knot}</span>' in text
        assert "1777" not in text
