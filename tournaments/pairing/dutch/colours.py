"""Colour allocation (C.04.3 article 4) and the order of boards (C.04.2, pairing display)."""

from __future__ import annotations

from fractions import Fraction

from tournaments.pairing.dutch.state import PlayerState
from tournaments.standings.records import Colour


def orange_of(a: PlayerState, b: PlayerState, initial: Colour) -> Colour:
    """The colour ``a`` gets against ``b``, by the first rule of article 4 that decides."""
    decided = _by_preferences(a, b)
    if decided is not None:
        return decided
    a_higher = _ranks_above(a, b)
    if a.preference is None:
        # 4.3.5 (no preference either side, nor any colour history that differs): the
        # higher-ranked player gets the initial colour if their pairing number is odd.
        higher = a if a_higher else b
        higher_colour = initial if higher.rank % 2 == 0 else initial.other
        return higher_colour if a_higher else higher_colour.other
    # Same preference, same history: the higher-ranked player gets the preference (4.3.4).
    return a.preference if a_higher else b.preference.other if b.preference else a.preference


def _by_preferences(a: PlayerState, b: PlayerState) -> Colour | None:
    """Rules 4.3.1-4.3.3: grant both preferences, then the stronger one, then alternate."""
    if a.preference is None or b.preference is None or a.preference != b.preference:
        if a.preference is not None:
            return a.preference
        return b.preference.other if b.preference is not None else None
    if a.absolute_preference and (a.imbalance > b.imbalance or not b.absolute_preference):
        return a.preference
    if b.absolute_preference and (b.imbalance > a.imbalance or not a.absolute_preference):
        return b.preference.other
    if a.strong_preference and not b.strong_preference:
        return a.preference
    if b.strong_preference and not a.strong_preference:
        return b.preference.other
    return _alternate_from_last_difference(a, b)


def _alternate_from_last_difference(a: PlayerState, b: PlayerState) -> Colour | None:
    """4.3.3: going back through the games both played, the latest round their colours
    differed decides; ``a`` takes the colour ``b`` had then."""
    mine = [r.colour for r in a.past if r.played and r.colour is not None]
    theirs = [r.colour for r in b.past if r.played and r.colour is not None]
    for own, other in zip(reversed(mine), reversed(theirs), strict=False):
        if own is not other:
            return other
    return None


def _ranks_above(a: PlayerState, b: PlayerState) -> bool:
    """``a`` is ranked above ``b``: higher pairing score, or equal and a smaller rank."""
    return (a.pairing_score(), -a.rank) > (b.pairing_score(), -b.rank)


def board_key(white: PlayerState, black: PlayerState) -> tuple[Fraction, Fraction, int]:
    """Boards in order of the higher player's score, the lower player's, then rank."""
    high, low = (white, black) if _ranked_above_real(white, black) else (black, white)
    return (-high.score, -low.score, high.rank)


def _ranked_above_real(a: PlayerState, b: PlayerState) -> bool:
    return (a.score, -a.rank) > (b.score, -b.rank)
