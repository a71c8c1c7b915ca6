"""The game kinds a competition (tournament, league, ladder) may be played in: those whose
games may have two seats, since every pairing is two players."""

from __future__ import annotations

from games.kinds import all_kinds, get_kind
from games.kinds.base import KindError

PAIR = 2
"""Players in each game of a competition."""


def kind_problem(kind_id: str) -> str | None:
    """What is wrong with ``kind_id`` as a competition's game kind, or None when it will do."""
    try:
        kind = get_kind(kind_id)
    except KindError as exc:
        return str(exc)
    if PAIR in kind.seats:
        return None
    low, high = kind.seats.min, kind.seats.max
    players = str(low) if low == high else f"{low} to {high}"
    return f"{kind.name} is played by {players} players; competitions pair two players per game."


def kind_choices() -> list[tuple[str, str]]:
    """The kinds a competition may choose, as ``(id, name)``."""
    return [(kind.id, kind.name) for kind in all_kinds() if PAIR in kind.seats]


def pair_seat_names(kind_id: str) -> list[str]:
    """The names of a game's two seats in ``kind_id``: the colours a competition's pages
    show (Celtic!: Orange, Blue)."""
    return get_kind(kind_id).seat_names(PAIR)
