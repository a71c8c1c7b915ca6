"""What a player of Celtic Knot is told: the flips a square gave, what to reply next, what a
choice by email did, the coins each seat has left (emails and the API say these words)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.kinds.base import Holding
from games.kinds.knot.board import NAMES
from games.kinds.knot.core import ROUTE
from games.kinds.knot.notation import flips_sum
from games.kinds.knot.state import KnotState


def pending_flips(state: KnotState) -> str:
    """The flips of the stack waiting for its destination (``HT``); empty when none waits."""
    return state.pending_flips if state.core.phase == ROUTE else ""


def pending_line(state: KnotState) -> str:
    """``You flipped H T: 3. Reply with your destination: c3, e1.`` while a stack waits for
    its destination, else empty."""
    flips = pending_flips(state)
    if not flips:
        return ""
    return f"{_flipped(flips)}. Reply with your destination: {_destinations(state)}."


def choice_prompt(state: KnotState) -> str:
    """What a reply names now: the destination of the flipped stack, or the square to move
    from (in an extra move, the one square allowed); empty once the game is over."""
    if state.core.phase == ROUTE:
        return f"reply with your destination: {_destinations(state)}"
    choices = state.legal_choices()
    return f"reply with the square you move from, e.g. {choices[0]}" if choices else ""


def choice_report(before: KnotState, after: KnotState, seat: int) -> list[str]:
    """What ``seat``'s choice from ``before`` gave in ``after``: a square gives its flips and
    destinations (or a pass when none is reachable); a destination moves the stack, and a
    landing that earns an extra move gives that move's flips at once."""
    mine = [step for step in after.steps[len(before.steps) :] if step.seat == seat]
    if not mine:
        return []
    lines = []
    first = mine[0].notation.split()
    if before.core.phase == ROUTE:
        lines.append(f"Your stack on {NAMES[before.core.space]} moved to {first[0]}.")
        if len(first) < 2:  # no extra move: the turn is over
            return lines
        lines.append(f"The landing earns an extra move, the stack on {first[0]} moves again.")
    if after.to_act == seat and pending_flips(after):
        lines.append(pending_line(after))
    else:
        lines.append(f"{_flipped(first[-1])}: no destination is reachable, so your turn passed.")
    return lines


def _flipped(flips: str) -> str:
    """``You flipped H T: 3`` (the points the flips give)."""
    return f"You flipped {' '.join(flips)}: {flips_sum(flips)}"


def _destinations(state: KnotState) -> str:
    return ", ".join(NAMES[dest] for dest in state.core.dests)


def coins_left(
    state: KnotState,
    seat_names: Sequence[str],
    *,
    viewer_seat: int | None,
    player_name: Callable[[int], str],
) -> list[Holding]:
    """The coins of each seat, seat 1 first: ``Holding("2 Blue, ann", 5)``; the viewer is
    ``you``, and a seat that left the game says so."""
    core = state.core
    lines = []
    for seat in range(1, core.seat_count + 1):
        who = "you" if seat == viewer_seat else player_name(seat)
        detail = "" if core.playing[seat - 1] else "left the game"
        lines.append(Holding(f"{seat} {seat_names[seat - 1]}, {who}", core.coins[seat - 1], detail))
    return lines
