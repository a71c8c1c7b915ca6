"""The pages on kinds and seats: the new-game form (kind, seat count, seat), seeks for more
than two filling seat by seat, the generic board of a kind without pages of its own, Celtic!'s
own board, and the admin's seats, kind filter and adjudication in the kind's words."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from django import forms
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.test import Client
from django.urls import reverse

from games import kinds, selectors, services
from games.forms import ChallengeForm
from games.models import Challenge, Game, Move
from tests.accounts.factories import make_staff, make_superuser, make_user
from tests.kinds.counting import COUNTING

pytestmark = pytest.mark.django_db

TIME_CONTROL = {
    "clock_kind": "per_move",
    "days_per_move": 3,
    "bank_days": 10,
    "increment_days": 2,
    "max_days": 20,
}


@pytest.fixture
def counting() -> Iterator[None]:
    """Host the tests' kind "Counting" (two to four seats: North, East, South, West)."""
    kinds.register(COUNTING)
    yield
    kinds.unregister(COUNTING.id)


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def new_game(client: Client, **fields: object):
    return client.post(reverse("games:challenges"), {**TIME_CONTROL, **fields}, follow=True)


# --- the new-game form ------------------------------------------------------------------------


def test_with_celtic_alone_the_form_asks_no_seat_count_and_offers_todays_seats(
    monkeypatch,
) -> None:
    monkeypatch.setattr("games.forms.all_kinds", lambda: [kinds.get_kind("celtic")])
    form = ChallengeForm()
    assert "seat_count" not in form.fields
    assert list(form.fields["kind"].choices) == [("celtic", "Celtic!")]
    assert list(form.fields["seat"].choices) == [
        ("random", "Random"),
        ("1", "Orange (moves first)"),
        ("2", "Blue"),
    ]
    assert form.fields["seat"].initial == "random"


def test_with_kinds_for_more_the_form_asks_the_count_and_names_seats_per_kind(
    counting,
) -> None:
    form = ChallengeForm()
    assert list(form.fields["kind"].choices) == [
        ("celtic", "Celtic!"),
        ("knot", "Celtic Knot"),
        ("counting", "Counting"),
    ]
    assert "seat_count" in form.fields
    assert list(form.fields["seat"].choices) == [
        ("random", "Random"),
        ("1", "Seat 1 (moves first): Orange in Celtic!, Red in Celtic Knot, North in Counting"),
        ("2", "Seat 2: Blue in Celtic! and Celtic Knot, East in Counting"),
        ("3", "Seat 3: Green in Celtic Knot, South in Counting"),
        ("4", "Seat 4: Yellow in Celtic Knot, West in Counting"),
        ("5", "Purple"),
        ("6", "Orange"),
    ]


def test_an_open_seek_for_three_is_created_with_the_seat_chosen(counting) -> None:
    ann = make_user("ann")
    response = new_game(logged_in(ann), kind="counting", seat_count=3, seat="2")
    assert messages_of(response) == ["Your open challenge is posted: anyone may accept it."]
    seek = Challenge.objects.get()
    assert (seek.kind, seek.seat_count, seek.seat_choice, seek.opponent) == ("counting", 3, 2, None)


def test_without_a_count_the_kind_has_its_fewest_seats_and_random_is_no_seat(counting) -> None:
    new_game(logged_in(make_user("ann")), kind="counting", seat="random")
    assert Challenge.objects.values_list("seat_count", "seat_choice").get() == (2, None)


@pytest.mark.parametrize(
    ("fields", "field", "error"),
    [
        (
            {"kind": "celtic", "seat_count": 3},
            "seat_count",
            "Celtic! is played by 2 players, not 3.",
        ),
        (
            {"kind": "counting", "seat_count": 5},
            "seat_count",
            "Counting is played by 2 to 4 players, not 5.",
        ),
        (
            {"kind": "counting", "seat_count": 2, "seat": "3"},
            "seat",
            "A game of Counting for 2 has no seat 3: choose Random or one of North, East.",
        ),
        (
            {"kind": "counting", "window_forfeit": "on"},
            "window_forfeit",
            "The window-forfeit variant is not an option of Counting.",
        ),
        (
            {"kind": "chess"},
            "kind",
            "Select a valid choice. chess is not one of the available choices.",
        ),
    ],
)
def test_a_bad_kind_count_seat_or_option_is_refused_on_its_field(
    counting, fields, field, error
) -> None:
    response = logged_in(make_user("ann")).post(
        reverse("games:challenges"), {**TIME_CONTROL, **fields}
    )
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [error]
    assert not Challenge.objects.exists()


def test_one_opponent_for_a_game_for_three_is_refused_with_the_reason(counting) -> None:
    make_user("ben")
    response = logged_in(make_user("ann")).post(
        reverse("games:challenges"),
        {**TIME_CONTROL, "kind": "counting", "seat_count": 3, "opponent": "ben"},
    )
    assert response.status_code == 400
    assert response.context["form"].errors["seat_count"] == [
        "You named 1 player, so the game is for 2 with you, not 3: name 2 players, or leave "
        "Players empty."
    ]
    assert not Challenge.objects.exists()


# --- a seek for three fills seat by seat ------------------------------------------------------


def test_a_seek_for_three_fills_seat_by_seat_then_starts(counting) -> None:
    cat, ann, ben = make_user("cat"), make_user("ann"), make_user("ben")
    seek = services.challenge_create(challenger=cat, kind="counting", seat_count=3, seat_choice=1)
    page = reverse("games:challenges")
    accept = reverse("games:challenge_accept", args=[seek.pk])

    before = logged_in(ann).get(page).content.decode()
    assert "1 of 3 seats taken" in before and ">Take a seat</button>" in before
    assert "Counting for 3 · challenger plays north (moves first)" in before

    first = logged_in(ann).post(accept, {"next": page}, follow=True)
    assert first.redirect_chain[-1][0] == page
    assert messages_of(first) == [
        "You took a seat: 2 of 3 seats taken. The game starts when every seat is taken."
    ]
    html = first.content.decode()
    assert "2 of 3 seats taken · you hold one" in html
    assert accept not in html  # no second seat for ann
    assert not Game.objects.exists()

    again = logged_in(ann).post(accept, {"next": page}, follow=True)
    assert messages_of(again) == [f"You already hold a seat in challenge #{seek.pk}."]

    last = logged_in(ben).post(accept, follow=True)
    game = Game.objects.get()
    assert last.redirect_chain[-1][0] == reverse("games:game", args=[game.pk])
    assert game.user_at(1) == cat and set(game.seat_users()) == {cat, ann, ben}
    (message,) = messages_of(last)
    assert message == f"The game has started: you play {game.seat_name(game.seat_of(ben))}."


# --- the generic board of a kind without pages of its own --------------------------------------


@pytest.fixture
def counting_game(counting) -> Game:
    return services.game_start(
        players=[make_user("ann"), make_user("ben"), make_user("cat")], kind="counting"
    )


def test_the_generic_board_shows_the_kinds_drawing_seats_and_choices(counting_game) -> None:
    ann, ben = counting_game.user_at(1), counting_game.user_at(2)
    url = reverse("games:game", args=[counting_game.pk])
    html = logged_in(ann).get(url).content.decode()
    assert '<svg class="board" xmlns="http://www.w3.org/2000/svg"><text>0</text></svg>' in html
    assert f"Game #{counting_game.pk}: ann v ben v cat" in html
    for name in ("North", "East", "South"):
        assert f'<span class="chip chip-{name.lower()}"' in html
    assert "(ann) to move" not in html  # ann is to move: she is told it is her move
    assert 'name="notation" value="1"' in html and 'name="notation" value="2"' in html
    assert 'id="show-knots"' not in html and "No moves yet: North begins." in html

    watcher = logged_in(ben).get(url).content.decode()
    assert 'id="move-form"' not in watcher
    assert '<span class="north">North</span> (ann) to move.' in watcher


def test_a_choice_button_plays_the_move_and_the_list_goes_round_by_seat(counting_game) -> None:
    ann, ben = counting_game.user_at(1), counting_game.user_at(2)
    move = reverse("games:game_move", args=[counting_game.pk])
    logged_in(ann).post(move, {"notation": "2", "ply": 0})
    response = logged_in(ben).post(move, {"notation": "1", "ply": 1}, follow=True)
    assert messages_of(response) == ["You played 1."]
    assert list(Move.objects.values_list("seat", "notation")) == [(1, "2"), (2, "1")]
    rows = response.context["move_rows"]
    assert [(r["number"], [t["text"] for t in r["turns"]]) for r in rows] == [(1, ["2", "1"])]
    assert "<text>3</text>" in response.content.decode()


def test_a_refused_choice_says_how_to_write_one(counting_game) -> None:
    response = logged_in(counting_game.user_at(1)).post(
        reverse("games:game_move", args=[counting_game.pk]),
        {"notation": "7", "ply": 0},
        follow=True,
    )
    assert messages_of(response) == ["'7' is not a number to add: write 1 or 2."]
    assert not Move.objects.exists()


def test_the_generic_analysis_board_tries_choices(counting_game) -> None:
    url = reverse("games:game_analysis", args=[counting_game.pk])
    response = Client().get(url, {"line": "2,2"})
    html = response.content.decode()
    assert response.status_code == 200 and "<text>4</text>" in html
    assert "South to move." in html
    assert f'href="{url}?line=2%2C2%2C1"' in html
    assert not Move.objects.exists()


def test_resigning_in_a_game_for_three_leaves_it_to_the_others(counting_game) -> None:
    cat = counting_game.user_at(3)
    response = logged_in(cat).post(
        reverse("games:game_resign", args=[counting_game.pk]), follow=True
    )
    assert messages_of(response) == ["You resigned: you left the game and the others play on."]
    assert "South · you · left the game" in response.content.decode()


# --- Celtic!'s own board, as it was -----------------------------------------------------------


def test_the_celtic_page_keeps_its_board_knots_supply_and_seat_landmarks() -> None:
    ann, ben = make_user("ann"), make_user("ben")
    game = services.game_start(players=[ann, ben])
    html = logged_in(ann).get(reverse("games:game", args=[game.pk])).content.decode()
    for landmark in (
        f"<title>● Your turn — Game #{game.pk}: ann v ben",
        '<span class="dot dot-orange" aria-hidden="true"></span>',
        '<span class="dot dot-blue" aria-hidden="true"></span>',
        '<strong class="your-turn">Your move</strong> — you play '
        '<span class="orange">Orange</span>.',
        '<input type="checkbox" id="show-knots" class="knot-toggle-box" >',
        '<label for="show-knots" class="knot-toggle">Highlight closed knots (0)</label>',
        '<nav class="replay" aria-label="Replay">',
        '<div id="palette-own" class="palette-row" role="group" aria-label="Tiles of your colour">',
        '<span class="chip chip-orange" aria-hidden="true"></span>',
        '<span class="chip chip-blue" aria-hidden="true"></span>',
        '<div class="scoreline" title="Knot scores, highest first">—</div>',
        '<h2 id="knots-h">Knots so far</h2>',
        '<h2 id="supply-h">Tiles left</h2>',
        "No moves yet: the neutral cross lies on e5 and Orange begins.",
        "games/board.js",
    ):
        assert landmark in html, landmark
    assert html.count('class="player-row') == 2
    assert "Orange · you" in html and "Blue · you" not in html


# --- the game tables and the wording for several opponents ----------------------------------


def play_turn(game: Game, user) -> None:
    """Play ``user``'s whole turn, taking the first legal choice each time."""
    game.refresh_from_db()
    while game.is_active and game.user_to_move() == user:
        choice = selectors.game_position(game=game).legal_choices()[0]
        services.move_submit(game_id=game.pk, user=user, expected_ply=game.ply, notation=choice)
        game.refresh_from_db()


@pytest.fixture
def knot_and_celtic() -> tuple[Game, Game]:
    """ann's Celtic! game with ben (her move) and Celtic Knot game with ben, cat and dan,
    where she has played her turn (a square and a destination at least: two steps)."""
    ann, ben, cat, dan = (make_user(name) for name in ("ann", "ben", "cat", "dan"))
    celtic = services.game_start(players=[ann, ben])
    knot = services.game_start(players=[ann, ben, cat, dan], kind="knot")
    play_turn(knot, ann)
    return celtic, knot


def test_the_home_tables_name_the_kind_count_turns_and_say_opponents(knot_and_celtic) -> None:
    celtic, knot = knot_and_celtic
    assert knot.ply >= 2
    ann = celtic.user_at(1)
    html = logged_in(ann).get(reverse("games:home")).content.decode()
    turn_table, waiting_table = html.split('id="active-h"')[0], html.split('id="active-h"')[1]
    assert "Waiting for your opponents</h2>" in html
    assert "kind-tag" not in turn_table.split('id="turn-h"')[1]  # Celtic! alone: as before
    game_cell = f'#{knot.pk}</a> <span class="tag kind-tag">Celtic Knot</span>'
    assert game_cell in waiting_table
    for colour in ("red", "blue", "green", "yellow"):
        assert f'<span class="dot dot-{colour}" title="{colour.title()}"' in waiting_table
    assert '<td class="players-cell"><span class="seat-player">' in waiting_table
    assert re.search(r"<td>1</td>", waiting_table)  # one turn, however many steps


def test_a_table_of_both_kinds_names_each(knot_and_celtic) -> None:
    celtic, knot = knot_and_celtic
    html = Client().get(reverse("players:detail", args=["ben"])).content.decode()
    assert f'#{celtic.pk}</a> <span class="tag kind-tag">Celtic!</span>' in html
    assert f'#{knot.pk}</a> <span class="tag kind-tag">Celtic Knot</span>' in html


def test_a_knot_game_page_says_hello_to_opponents_and_links_its_rules(knot_and_celtic) -> None:
    celtic, knot = knot_and_celtic
    ann = celtic.user_at(1)
    knot_page = logged_in(ann).get(reverse("games:game", args=[knot.pk])).content.decode()
    assert "No messages yet. Say hello to your opponents." in knot_page
    assert "(not your opponents, not moderators)" in knot_page
    assert f'<a href="{reverse("learn:knot_rules")}">Rules</a>' in knot_page
    celtic_page = logged_in(ann).get(reverse("games:game", args=[celtic.pk])).content.decode()
    assert f'<a href="{reverse("learn:rules")}">Rules</a>' in celtic_page


# --- the admin --------------------------------------------------------------------------------


def test_the_game_admin_lists_seats_and_filters_by_kind(client, counting_game) -> None:
    celtic = services.game_start(players=[make_user("dan"), make_user("eve")])
    client.force_login(make_superuser())
    changelist = reverse("admin:games_game_changelist")
    only_counting = client.get(changelist, {"kind": "counting"})
    assert [g.pk for g in only_counting.context["cl"].result_list] == [counting_game.pk]
    assert "dan (Orange) v eve (Blue)" in client.get(changelist).content.decode()
    page = client.get(reverse("admin:games_game_change", args=[celtic.pk])).content.decode()
    assert "Game seats" in page and "Orange" in page and "Blue" in page


def _adjudicate(client: Client, game: Game, **extra: str):
    return client.post(
        reverse("admin:games_game_changelist"),
        {"action": "adjudicate", ACTION_CHECKBOX_NAME: [game.pk], **extra},
    )


def test_adjudication_offers_the_kinds_results_for_two(client) -> None:
    game = services.game_start(players=[make_user("dan"), make_user("eve")])
    client.force_login(make_staff("mod", "games.view_game", "games.adjudicate_game"))
    ask = _adjudicate(client, game)
    assert list(ask.context["form"].fields["result"].choices) == [
        ("1-0", "1-0 (Orange wins)"),
        ("0-1", "0-1 (Blue wins)"),
        ("1/2-1/2", "1/2-1/2 (Draw)"),
    ]
    _adjudicate(client, game, confirm="yes", reason="Abandoned", result="1/2-1/2")
    game.refresh_from_db()
    assert (game.status, game.result) == ("finished", "1/2-1/2")
    assert [place for _, place in game.placings()] == [1, 1]


def test_adjudication_of_a_game_for_three_takes_the_kinds_text(client, counting_game) -> None:
    client.force_login(make_staff("mod", "games.view_game", "games.adjudicate_game"))
    ask = _adjudicate(client, counting_game)
    field = ask.context["form"].fields["result"]
    assert isinstance(field, forms.CharField) and not isinstance(field, forms.ChoiceField)
    bad = _adjudicate(client, counting_game, confirm="yes", reason="Abandoned", result="1-0")
    assert [str(m) for m in bad.wsgi_request._messages] == [
        f"{counting_game}: '1-0' is not a finishing order: list the seats 1 to 3 once each, "
        "first place first, like '2 3 1'."
    ]
    _adjudicate(client, counting_game, confirm="yes", reason="Abandoned", result="2 3 1")
    counting_game.refresh_from_db()
    assert counting_game.result == "2 3 1"
    assert [place for _, place in counting_game.placings()] == [3, 1, 2]


def test_an_empty_move_form_says_how_to_write_a_move(counting_game) -> None:
    response = logged_in(counting_game.user_at(1)).post(
        reverse("games:game_move", args=[counting_game.pk]), {"notation": "", "ply": 0}, follow=True
    )
    assert messages_of(response) == [
        "No move was sent, or the page lost its ply. Write 1 or 2: the number to add to the count."
    ]


def test_a_built_in_kind_with_chance_is_drawn_by_its_own_board() -> None:
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    game = services.game_start(players=[ann, ben, cat], kind="knot")
    url = reverse("games:game", args=[game.pk])
    mover = logged_in(ann).get(url)
    assert mover.status_code == 200
    assert mover.context["choices"] == game.game_kind.replay(3, []).legal_choices()
    assert mover.context["board_template"] == "games/kinds/knot/board.html"
    waiting = logged_in(ben).get(url).content.decode()
    assert '<span class="red">Red</span> (ann) to move.' in waiting
    assert 'id="conditional"' not in waiting  # no conditional moves with chance or three seats


def test_the_challenge_admin_lists_who_took_a_seat(client, counting) -> None:
    seek = services.challenge_create(challenger=make_user("cat"), kind="counting", seat_count=3)
    services.challenge_accept(challenge_id=seek.pk, user=make_user("ann"))
    client.force_login(make_superuser())
    page = client.get(reverse("admin:games_challenge_change", args=[seek.pk]))
    assert page.status_code == 200
    (inline,) = [
        f
        for f in page.context["inline_admin_formsets"]
        if f.opts.model.__name__ == "ChallengeEntrant"
    ]
    assert [form.original.user.username for form in inline] == ["ann"]
    filtered = client.get(reverse("admin:games_challenge_changelist"), {"kind": "knot"})
    assert list(filtered.context["cl"].result_list) == []
