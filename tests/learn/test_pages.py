"""The rules page, the puzzles page and the puzzle check endpoint."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from games.kinds.celtic.puzzles import find_easy, find_hard

pytestmark = pytest.mark.django_db

EMPTY = ["- - - - -"] * 5


def check(client: Client, body: object, *, raw: bytes | None = None):
    return client.post(
        reverse("learn:puzzle_check"),
        data=raw if raw is not None else json.dumps(body),
        content_type="application/json",
    )


def test_the_knot_rules_page_draws_the_start_and_is_linked_from_the_rules(client) -> None:
    url = reverse("learn:knot_rules")
    assert url == "/rules/knot/"
    html = client.get(url).content.decode()
    assert "<h1>How to play Celtic Knot</h1>" in html
    assert 'aria-label="Celtic Knot board"' in html  # the kind's own drawing
    for heading in ("The board", "A turn", "Pits and bridges", "Extra moves", "Leaving the board"):
        assert f">{heading}</h2>" in html, heading
    assert "heads counts 1, tails counts 2" in html
    assert f'href="{reverse("learn:rules")}"' in html
    assert (
        f'<a href="{url}">how to play Celtic Knot</a>'
        in client.get(reverse("learn:rules")).content.decode()
    )


def test_rules_page_draws_every_orientation_and_scores_the_example(client) -> None:
    response = client.get(reverse("learn:rules"))
    assert response.status_code == 200
    html = response.content.decode()
    # 15 orientations: X 1, T 4, I 2, L 4, U 4, each drawn by the board renderer.
    orientations = [o for shape in response.context["shapes"] for o in shape.orientations]
    assert len(orientations) == 15
    assert html.count('class="tile-icon"') == 15
    assert "<figcaption>NESW</figcaption>" in html
    assert "<td><code>F5 EN</code></td><td><code>f5 NE</code></td>" in html
    example = response.context["example"]
    assert example.over
    assert (example.orange, example.blue, example.result) == ((6, 1, 1), (6, 2, 1), "0-1")
    assert "The best knots tie at 6, so the second ones decide" in html
    assert "Blue wins (0-1)" in html
    assert 'id="scoring-board-title"' in html


def test_puzzles_page_has_both_grids_and_solutions(client) -> None:
    response = client.get(reverse("learn:puzzles"))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-puzzle="easy"' in html and 'data-puzzle="hard"' in html
    assert html.count('class="puzzle-cell"') == 50
    assert response.context["solutions"]["hard"]["knots"] == 1
    assert 'id="easy-solution-title"' in html and 'id="hard-solution-title"' in html
    assert '<script src="/static/learn/puzzles.js"' in html
    icons = response.context["icons"]
    assert len(icons) == 15 and icons["NESW"]["shape"] == "X" and icons["N"]["shape"] == "U"
    assert 'data-shape="I" title="straight">I <strong>5</strong>' in html


def test_check_accepts_a_fitting_tile(client) -> None:
    rows = ["E W - - -", *EMPTY[1:]]
    answer = check(client, {"puzzle": "easy", "rows": rows})
    assert answer.status_code == 200
    assert answer.json() == {
        "ok": True,
        "complete": False,
        "placed": 2,
        "message": "2 of 25 tiles placed, all fitting.",
    }


@pytest.mark.parametrize(
    ("first_row", "message"),
    [
        ("NE - - - -", "Row 1, column 1 is open on the border (north)."),
        ("E N - - -", "Row 1, column 1 is open to the east but row 1, column 2 is not."),
    ],
)
def test_check_refuses_a_tile_that_breaks_a_rule(client, first_row, message) -> None:
    rows = [first_row, *EMPTY[1:]]
    answer = check(client, {"puzzle": "easy", "rows": rows}).json()
    assert answer == {
        "ok": False,
        "complete": False,
        "placed": len(first_row.replace("-", "").split()),
        "message": message,
    }


def test_check_refuses_more_tiles_of_a_shape_than_the_box_holds(client) -> None:
    rows = ["ES EW EW EW SW", "NS - - - NS", "NS - - - NS", "NS - - - NS", "NE EW EW EW NW"]
    answer = check(client, {"puzzle": "easy", "rows": rows}).json()
    assert answer["ok"] is False
    assert answer["message"] == "12 tiles of shape I (straight): the box holds 5."


def test_check_judges_a_full_grid(client) -> None:
    easy = str(find_easy()).splitlines()
    answer = check(client, {"puzzle": "easy", "rows": easy}).json()
    assert answer["ok"] and answer["complete"] and answer["knots"] >= 1
    assert answer["message"].startswith("Solved! All 25 tiles fit, forming ")
    hard = str(find_hard()).splitlines()
    solved = check(client, {"puzzle": "hard", "rows": hard}).json()
    assert solved["knots"] == 1 and solved["message"] == "Solved! All 25 tiles fit, forming 1 knot."


def test_check_says_when_a_full_grid_misses_the_hard_puzzle(client) -> None:
    easy = str(find_easy()).splitlines()
    knots = check(client, {"puzzle": "easy", "rows": easy}).json()["knots"]
    assert knots != 1  # the first easy solution found is not a single knot
    answer = check(client, {"puzzle": "hard", "rows": easy}).json()
    assert answer == {
        "ok": False,
        "complete": True,
        "placed": 25,
        "message": f"Not yet: the strands form {knots} knots, not one.",
    }


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (
            {"puzzle": "medium", "rows": EMPTY},
            "Unknown puzzle 'medium': expected 'easy' or 'hard'.",
        ),
        ({"puzzle": "easy", "rows": EMPTY[:4]}, "'rows' must be a list of 5 strings"),
        ({"puzzle": "easy", "rows": "- - -"}, "'rows' must be a list of 5 strings"),
        (
            {"puzzle": "easy", "rows": ["- - - - -"] * 4 + ["- - Q - -"]},
            "The grid cannot be read: bad cell 'Q'",
        ),
        (
            {"puzzle": "easy", "rows": ["- - - - -"] * 4 + ["- - - -"]},
            "The grid cannot be read: expected a rectangle",
        ),
        ({"puzzle": "easy", "rows": ["- -"] * 5}, "Row 1, column 1"),
        (["easy"], "Expected a JSON object"),
    ],
)
def test_check_rejects_bad_requests_with_a_clear_error(client, body, error) -> None:
    answer = check(client, body)
    if error.startswith("Row"):  # a 5x2 rectangle reads, but is no puzzle grid
        assert answer.json()["message"] == "A puzzle grid has 5 rows of 5 cells."
        return
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(error)


def test_check_rejects_non_json_and_oversized_bodies_and_get(client) -> None:
    not_json = check(client, None, raw=b"rows=1")
    assert not_json.status_code == 400
    assert not_json.json()["error"].startswith("The body is not JSON")
    huge = check(client, None, raw=b" " * 5000)
    assert huge.status_code == 400 and "at most 2000 bytes" in huge.json()["error"]
    assert client.get(reverse("learn:puzzle_check")).status_code == 405


def test_check_needs_the_csrf_token(ann_client_csrf) -> None:
    answer = ann_client_csrf.post(
        reverse("learn:puzzle_check"),
        data=json.dumps({"puzzle": "easy", "rows": EMPTY}),
        content_type="application/json",
    )
    assert answer.status_code == 403


@pytest.fixture
def ann_client_csrf() -> Client:
    return Client(enforce_csrf_checks=True)
