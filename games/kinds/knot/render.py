"""The position drawn: SVG (the knot with over and under, pits, diamond, marks and coin
stacks), plain text for terminals, and plain data for the API and pages."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from games.kinds.knot.board import (
    DISTANCE,
    FILES,
    IS_LOWER,
    LOOP,
    LOOP_LENGTH,
    NAMES,
    PATH,
    PIT_SQUARES,
    SIZE,
    SPACE_COUNT,
    SQUARE_OF,
    START_SQUARES,
    SYMBOLS,
    Square,
    marker_square,
    square_name,
)
from games.kinds.knot.core import Phase
from games.kinds.knot.state import KnotState

SEAT_COLOURS = ("#d62828", "#1d5fd1", "#2a9d3f", "#e9c200", "#8e44ad", "#f07c12")
"""Fill colours of seats 1..6 (Red, Blue, Green, Yellow, Purple, Orange)."""
CELL = 44
MARGIN = 24
STRAND = "#3b2a1a"
PAPER = "#f6efdf"
PHASE_NAMES = {
    Phase.SQUARE: "square",
    Phase.ROUTE: "route",
    Phase.EXTRA: "extra",
    Phase.OVER: "over",
}


def coins_by_square(state: KnotState) -> dict[Square, list[tuple[int, int]]]:
    """(seat, coins) per square where coins are put (a lower space's on its marker square)."""
    core = state.core
    found: dict[Square, list[tuple[int, int]]] = {}
    for seat in range(core.seat_count):
        for space in sorted(core.stacks[seat]):
            found.setdefault(marker_square(space), []).append((seat + 1, core.own[seat][space]))
    return {square: sorted(stacks) for square, stacks in found.items()}


# --- SVG --------------------------------------------------------------------------------------


def _centre(square: Square) -> tuple[float, float]:
    return MARGIN + (square[0] + 0.5) * CELL, MARGIN + (SIZE - square[1] - 0.5) * CELL


def _knot_paths() -> str:
    """The strand as one closed path, then each crossing's upper space drawn over a gap."""
    points = [_centre(SQUARE_OF[space]) for space in LOOP]
    strand = "M" + "L".join(f"{x:g} {y:g}" for x, y in points) + "Z"
    bridges = []
    for place, space in enumerate(LOOP):
        if SQUARE_OF[space] not in _CROSSING_SQUARES or IS_LOWER[space]:
            continue
        (x1, y1), (x2, y2) = points[place - 1], points[(place + 1) % LOOP_LENGTH]
        (cx, cy), h = points[place], 0.42
        bridges.append(
            f"M{cx + (x1 - cx) * h:g} {cy + (y1 - cy) * h:g}L{cx + (x2 - cx) * h:g} "
            f"{cy + (y2 - cy) * h:g}"
        )
    over = "".join(bridges)
    return (
        f'<g fill="none"><path d="{strand}" stroke="{STRAND}" stroke-width="8" '
        'stroke-linejoin="round"/>'
        f'<path d="{over}" stroke="{PAPER}" stroke-width="18"/>'
        f'<path d="{over}" stroke="{STRAND}" stroke-width="8"/></g>'
    )


_CROSSING_SQUARES = {SQUARE_OF[space] for space in range(SPACE_COUNT) if IS_LOWER[space]}


def _marks() -> str:
    parts = []
    for square in START_SQUARES:
        x, y = _centre(square)
        letter = SYMBOLS[square]
        parts.append(
            f'<text x="{x:g}" y="{y - 12:g}" font-size="11" text-anchor="middle" '
            f'fill="{STRAND}">{letter}</text>'
        )
    for square in PIT_SQUARES:
        x, y = _centre(square)
        parts.append(
            f'<polygon points="{x - 11:g},{y - 8:g} {x + 11:g},{y - 8:g} {x:g},{y + 11:g}" '
            f'fill="#111" stroke="{PAPER}" stroke-width="2"><title>pit {square_name(square)}'
            "</title></polygon>"
        )
    (diamond,) = (square for square, symbol in SYMBOLS.items() if symbol == "D")
    x, y = _centre(diamond)
    parts.append(
        f'<polygon points="{x:g},{y - 16:g} {x + 16:g},{y:g} {x:g},{y + 16:g} {x - 16:g},{y:g}" '
        f'fill="#c9a227" stroke="{STRAND}" stroke-width="2"><title>exit e5</title></polygon>'
    )
    return "".join(parts)


def _coin_stacks(state: KnotState, seat_names: Sequence[str]) -> str:
    parts = []
    for square, stacks in coins_by_square(state).items():
        x, y = _centre(square)
        for index, (seat, count) in enumerate(stacks):
            cx = x + (index % 3 - (min(len(stacks), 3) - 1) / 2) * 14
            cy = y + (index // 3 - (len(stacks) > 3) / 2) * 15
            parts.append(
                f"<g><title>{escape(seat_names[seat - 1])}: {count}</title>"
                f'<circle cx="{cx:g}" cy="{cy:g}" r="7" fill="{SEAT_COLOURS[seat - 1]}" '
                f'stroke="#000" stroke-width="1"/>'
                f'<text x="{cx:g}" y="{cy + 3.5:g}" font-size="10" text-anchor="middle" '
                f'fill="#fff" font-weight="bold">{count}</text></g>'
            )
    return "".join(parts)


def _coordinates() -> str:
    parts = []
    for index in range(SIZE):
        x, _ = _centre((index, 0))
        _, y = _centre((0, index))
        parts.append(f'<text x="{x:g}" y="{MARGIN - 8}" text-anchor="middle">{FILES[index]}</text>')
        parts.append(
            f'<text x="{MARGIN - 12}" y="{y + 4:g}" text-anchor="middle">{index + 1}</text>'
        )
    return f'<g font-size="11" fill="#666">{"".join(parts)}</g>'


def board_svg(
    state: KnotState, seat_names: Sequence[str], *, viewer_seat: int | None = None
) -> str:
    """The board as inline SVG; ``viewer_seat``'s stacks get a ring so they stand out."""
    side = 2 * MARGIN + SIZE * CELL
    ring = ""
    if viewer_seat is not None and 1 <= viewer_seat <= state.seat_count:
        core = state.core
        for space in core.stacks[viewer_seat - 1]:
            x, y = _centre(marker_square(space))
            ring += f'<circle cx="{x:g}" cy="{y:g}" r="20" fill="none" stroke="#000" '
            ring += 'stroke-dasharray="3 3"/>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" '
        f'width="{side}" height="{side}" font-family="sans-serif" role="img" '
        'aria-label="Celtic Knot board">'
        f'<rect width="{side}" height="{side}" fill="{PAPER}"/>'
        f"{_coordinates()}{_knot_paths()}{_marks()}{ring}{_coin_stacks(state, seat_names)}</svg>"
    )


# --- text ------------------------------------------------------------------------------------


def board_text(state: KnotState, seat_names: Sequence[str]) -> str:
    """The map with the seats present on each square, then each seat's coins and the turn."""
    stacks = coins_by_square(state)
    lines = [("     " + "".join(f"{f:<7}" for f in FILES)).rstrip()]
    for rank in reversed(range(SIZE)):
        cells = []
        for file in range(SIZE):
            here = stacks.get((file, rank))
            if here:
                cells.append("".join(str(seat) for seat, _ in here)[:6])
            elif (file, rank) in PATH:
                cells.append(SYMBOLS[file, rank])
            else:
                cells.append(" ")
        lines.append(f"{rank + 1:>2}   " + "".join(f"{cell:<7}" for cell in cells).rstrip())
    lines.append("")
    lines += _seat_lines(state, seat_names)
    lines.append(_status_line(state, seat_names))
    return "\n".join(lines) + "\n"


def _seat_lines(state: KnotState, seat_names: Sequence[str]) -> list[str]:
    core = state.core
    lines = []
    for seat in range(core.seat_count):
        label = f"{seat + 1} {seat_names[seat]}"
        if not core.playing[seat]:
            lines.append(f"{label}: left the game")
            continue
        coins = " ".join(
            f"{NAMES[space]}x{core.own[seat][space]}" for space in sorted(core.stacks[seat])
        )
        lines.append(
            f"{label}: {core.coins[seat]} coins, distance {core.distance(seat)}: {coins or '-'}"
        )
    return lines


def _status_line(state: KnotState, seat_names: Sequence[str]) -> str:
    order = state.finishing_order()
    if order is not None:
        return "Over. Finishing order: " + " ".join(str(min(group)) for group in order)
    core = state.core
    who = f"Seat {core.seat + 1} {seat_names[core.seat]}"
    choices = ", ".join(state.legal_choices())
    if core.phase == Phase.ROUTE:
        return f"{who} flipped {state.pending_flips} on {NAMES[core.space]}: to {choices}"
    if core.phase == Phase.EXTRA:
        return f"{who}: extra move of the stack on {NAMES[core.space]}"
    return f"{who} to move: {choices}"


# --- data ------------------------------------------------------------------------------------


def position_data(state: KnotState, seat_names: Sequence[str]) -> dict[str, object]:
    """The position as plain JSON-able data (seats are numbers from 1; spaces are names)."""
    core = state.core
    order = state.finishing_order()
    routing = core.phase == Phase.ROUTE
    return {
        "seat_count": core.seat_count,
        "seat_names": list(seat_names[: core.seat_count]),
        "seat_colours": list(SEAT_COLOURS[: core.seat_count]),
        "to_act": state.to_act,
        "phase": PHASE_NAMES[core.phase],
        "choices": state.legal_choices(),
        "stack": NAMES[core.space] if core.phase in (Phase.ROUTE, Phase.EXTRA) else None,
        "flips": state.pending_flips if routing else None,
        "destinations": [NAMES[dest] for dest in core.dests] if routing else [],
        "spaces": {
            NAMES[space]: {
                str(seat + 1): core.own[seat][space]
                for seat in range(core.seat_count)
                if core.own[seat][space]
            }
            for space in range(SPACE_COUNT)
            if core.total[space]
        },
        "coins": {str(seat + 1): core.coins[seat] for seat in range(core.seat_count)},
        "distance": {str(seat + 1): core.distance(seat) for seat in range(core.seat_count)},
        "playing": [seat + 1 for seat in range(core.seat_count) if core.playing[seat]],
        "departed": [seat + 1 for seat in core.departed],
        "flippings": core.flippings,
        "turns": core.turns,
        "finishing_order": None if order is None else [min(group) for group in order],
        "distances": {NAMES[space]: DISTANCE[space] for space in range(SPACE_COUNT)},
    }
