"""The marks arbiters' tables show for a round's outcome, as TRF and FIDE crosstables do.

Games against an opponent: ``1 ½ 0``, and ``+ -`` for a forfeit won or lost (unrated games
under one move show as played ones). Rounds without an opponent carry a ``B``: ``+B`` the
pairing-allocated bye of the odd player out, ``1B`` a full-point bye, ``½B`` a half-point bye,
``0B`` an absence (a zero-point bye). A row of marks adds up to the player's points.
"""

from __future__ import annotations

from tournaments.standings.records import Outcome

MARKS: dict[Outcome, str] = {
    Outcome.WIN: "1",
    Outcome.DRAW: "½",
    Outcome.LOSS: "0",
    Outcome.FORFEIT_WIN: "+",
    Outcome.FORFEIT_LOSS: "-",
    Outcome.UNRATED_WIN: "1",
    Outcome.UNRATED_DRAW: "½",
    Outcome.UNRATED_LOSS: "0",
    Outcome.PAIRING_BYE: "+B",
    Outcome.FULL_BYE: "1B",
    Outcome.HALF_BYE: "½B",
    Outcome.ZERO_BYE: "0B",
}

#: Each mark with what it means, in the order a legend lists them.
LEGEND: tuple[tuple[str, str], ...] = (
    ("1 ½ 0", "won, drawn, lost"),
    ("+ -", "won or lost by forfeit (the game was not played)"),
    ("+B", "pairing-allocated bye (the odd player out): a win's points"),
    ("1B", "full-point bye"),
    ("½B", "half-point bye, asked for ahead of the round"),
    ("0B", "zero-point bye: absent, or the round off of a round robin with an odd number"),
)


def outcome_mark(outcome: Outcome) -> str:
    """The mark of ``outcome``; an empty string for a round not played (yet)."""
    return MARKS.get(outcome, "")
