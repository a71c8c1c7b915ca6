"""The rules page, the puzzles page and the puzzles' check endpoint.

The endpoint takes the grid as the player has filled it so far and answers whether the tiles
placed break a rule (naming the first problem), or, once the grid is full, whether it solves
the puzzle; the engine's ``games.kinds.celtic.puzzles`` checks do all the judging.
"""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from games.kinds.celtic import Shape
from games.kinds.celtic.puzzles import (
    SIZE,
    TILES_OF_EACH_SHAPE,
    Layout,
    LayoutError,
    check_layout,
    check_partial_layout,
)
from learn import content

MAX_BODY = 2000
"""Bytes: a full 5x5 grid in the request format is well under 200."""


def rules(request: HttpRequest) -> HttpResponse:
    """The rules, with every tile, the notation and a scoring example from the engine."""
    return render(
        request,
        "learn/rules.html",
        {
            "shapes": content.shape_rows(),
            "notation": content.notation_examples(),
            "example": content.scoring_example(),
        },
    )


def knot_rules(request: HttpRequest) -> HttpResponse:
    """Celtic Knot's rules for players, with the board at the start drawn by the kind."""
    return render(request, "learn/knot_rules.html", {"board": content.knot_start_board()})


def puzzles(request: HttpRequest) -> HttpResponse:
    """The two solitaire puzzles: a grid to fill and a solution to reveal, for each."""
    solutions = {name: content.puzzle_solution(name) for name in content.PUZZLES}
    return render(
        request,
        "learn/puzzles.html",
        {
            "size": SIZE,
            "cells": [
                {"index": i, "label": f"Row {i // SIZE + 1}, column {i % SIZE + 1}"}
                for i in range(SIZE * SIZE)
            ],
            "icons": content.orientation_icons(),
            "shapes": [(shape.letter, shape.name.lower()) for shape in Shape],
            "per_shape": TILES_OF_EACH_SHAPE,
            "solutions": {name: {"board": b, "knots": k} for name, (b, k) in solutions.items()},
        },
    )


def _bad_request(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


@require_POST
def puzzle_check(request: HttpRequest) -> JsonResponse:
    """Check a puzzle grid: JSON ``{"puzzle": "easy"|"hard", "rows": [5 strings]}``.

    Each row string holds 5 cells separated by spaces, each a tile's open sides (``NE``) or
    ``-`` for an empty cell. The answer is ``{"ok", "complete", "placed", "message"}`` with
    ``knots`` once the grid is full; a request that cannot be read is a 400 naming what was
    wrong and what is expected.
    """
    if len(request.body) > MAX_BODY:
        return _bad_request(f"The request is too large: at most {MAX_BODY} bytes.")
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError):
        return _bad_request('The body is not JSON: expected {"puzzle": ..., "rows": [...]}.')
    if not isinstance(data, dict):
        return _bad_request('Expected a JSON object: {"puzzle": ..., "rows": [...]}.')
    name = data.get("puzzle")
    if name not in content.PUZZLES:
        return _bad_request(f"Unknown puzzle {name!r}: expected 'easy' or 'hard'.")
    rows = data.get("rows")
    if not (isinstance(rows, list) and len(rows) == SIZE and all(isinstance(r, str) for r in rows)):
        return _bad_request(f"'rows' must be a list of {SIZE} strings, one per row, north first.")
    try:
        layout = Layout.parse("\n".join(rows))
    except LayoutError as exc:
        return _bad_request(f"The grid cannot be read: {exc}.")
    return JsonResponse(_judge(layout, single_knot=content.PUZZLES[name]))


def _sentence(exc: LayoutError) -> str:
    """The engine's lower-case problem as a sentence: "Row 1, column 2 is open ..."."""
    text = str(exc)
    return f"{text[:1].upper()}{text[1:]}."


def _judge(layout: Layout, *, single_knot: bool) -> dict[str, object]:
    """Whether the grid so far keeps to the puzzle's rules, and whether it is solved."""
    placed = sum(1 for _, _, mask in layout.cells() if mask)
    try:
        check_partial_layout(layout)
    except LayoutError as exc:
        return {
            "ok": False,
            "complete": False,
            "placed": placed,
            "message": _sentence(exc),
        }
    if placed < SIZE * SIZE:
        return {
            "ok": True,
            "complete": False,
            "placed": placed,
            "message": f"{placed} of 25 tiles placed, all fitting.",
        }
    try:
        knots = check_layout(layout, single_knot=single_knot)
    except LayoutError as exc:
        return {"ok": False, "complete": True, "placed": placed, "message": f"Not yet: {exc}."}
    plural = "knot" if knots == 1 else "knots"
    return {
        "ok": True,
        "complete": True,
        "placed": placed,
        "knots": knots,
        "message": f"Solved! All 25 tiles fit, forming {knots} {plural}.",
    }
