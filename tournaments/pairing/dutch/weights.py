"""The Dutch criteria as one integer edge weight (C.04.3 articles 2.2-2.4, criteria C1-C21).

Each criterion owns a field of bits; a field higher up outweighs every field below it, so a
maximum-weight matching satisfies the criteria in the order the rules rank them. A weight of
zero forbids the pair (absolute criteria C1-C3). The fields, from the most significant:

====================================  ======================================================
field                                 rule
====================================  ======================================================
pairs made, and who may take the bye  C4 (completion); C2 and C5 (who may get the PAB, and
                                      at the lowest score), settled by a first matching
pairs in the current bracket          C6 maximise the number of pairs (2.3.1 / 2.4.1)
scores paired in the current bracket  C7 maximise the scores of the paired MDPs
pairs and scores in the next bracket  C8 (the next bracket can still be paired well)
unplayed games of the PAB assignee    C9 minimise the unplayed games of the bye's assignee
colour fields (4)                     C10 absolute imbalance, C11 absolute preference (no
                                      colour three times running), C12 preferences, C13
                                      strong preferences
repeated floats, rounds -1 and -2     C14-C17 (numbers), C18-C21 (scores)
ordering room                         2.3.2 / 2.4.2 transpositions and exchanges
====================================  ======================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from tournaments.pairing.dutch.state import Float, PlayerState


@dataclass(frozen=True)
class Layout:
    """Field widths: ``size_bits`` holds a bracket's player count; ``score_bits`` holds one
    bit per score group, the group of score s at ``shifts[s]`` (lowest score at bit 0)."""

    size_bits: int
    score_bits: int
    shifts: Mapping[Fraction, int]
    played_rounds: int


@dataclass(frozen=True)
class ByeInfo:
    """Who may take the pairing-allocated bye this round, once the first matching told us."""

    score: Fraction = Fraction(0)
    single_downfloater_is_assignee: bool = False
    unplayed_ranks: Mapping[int, int] | None = None


@dataclass(frozen=True)
class Floats:
    """Each player's floats one and two rounds ago."""

    last: Mapping[int, Float]
    before_last: Mapping[int, Float]


def bye_candidate(player: PlayerState, bye: ByeInfo) -> bool:
    return player.bye_eligible and player.pairing_score() <= bye.score


def bye_barred(player: PlayerState, bye: ByeInfo) -> int:
    """A player's part of :func:`top_value`: 1 if it may not take the bye."""
    return int(not bye_candidate(player, bye))


def top_value(high: PlayerState, low: PlayerState, bye: ByeInfo) -> int:
    """The most significant field (C4 and who may take the bye): 1 for a pair, plus 1 for
    each of its players who may not take the bye, so a pairing leaves out only a candidate."""
    return 1 + bye_barred(high, bye) + bye_barred(low, bye)


def top_shift(layout: Layout) -> int:
    """How far :func:`edge_weight` shifts :func:`top_value`: the width of every field below."""
    s_bits, g_bits = layout.size_bits, layout.score_bits
    history = min(layout.played_rounds, 2)
    return (11 + 2 * history) * s_bits + (2 + 2 * history) * g_bits + 1


def quality_width(layout: Layout) -> int:
    """The width of the fields below C9 (colours, floats, the ordering room), which only a
    pair in the current bracket fills: :func:`top_shift` less C6-C9."""
    return top_shift(layout) - 4 * layout.size_bits - 2 * layout.score_bits


def colour_fields(low: PlayerState, high: PlayerState, active: bool) -> list[tuple[int, int]]:
    """C10-C13 for one pair, as (value, 1) fields; all zero outside the current bracket."""
    same = low.preference is not None and low.preference == high.preference
    c10 = not (low.absolute_imbalance and high.absolute_imbalance and same)
    c11 = True
    if low.absolute_preference and high.absolute_preference and same:
        if low.imbalance == high.imbalance:
            c11 = low.repeated_colour is None or low.repeated_colour != high.repeated_colour
        else:
            loser = high if low.imbalance > high.imbalance else low
            c11 = loser.repeated_colour != (low.preference.other if low.preference else None)
    c12 = not same
    c13 = (
        not (low.strong_preference or low.absolute_preference)
        or not (high.strong_preference or high.absolute_preference)
        or (low.absolute_preference and high.absolute_preference)
        or not same
    )
    return [(int(active and ok), 1) for ok in (c10, c11, c12, c13)]


def edge_weight(
    high: PlayerState,
    low: PlayerState,
    *,
    in_current: bool,
    in_next: bool,
    bye: ByeInfo,
    layout: Layout,
    floats: Floats,
) -> int:
    """The weight of pairing ``high`` (ranked above) with ``low``, for compatible players."""
    s_bits, g_bits, shift = layout.size_bits, layout.score_bits, layout.shifts
    high_score, low_score = high.pairing_score(), low.pairing_score()
    weight = top_value(high, low, bye)

    def push(bits: int, value: int) -> None:
        nonlocal weight
        weight = (weight << bits) + value

    push(s_bits, int(in_current))
    push(g_bits, (1 << shift[high_score]) if in_current else 0)
    push(s_bits, int(in_next))
    push(g_bits, (1 << shift[high_score]) if in_next else 0)
    unplayed = 0
    if bye.single_downfloater_is_assignee and bye.unplayed_ranks is not None:
        for player, score in ((high, high_score), (low, low_score)):
            if score == bye.score:
                unplayed += bye.unplayed_ranks[player.played_games]
    push(2 * s_bits, unplayed)
    if not in_current:  # the fields below are all zero: skip reading them one by one
        return weight << quality_width(layout)
    for value, _ in colour_fields(low, high, in_current):
        push(s_bits, value)
    history = [(1, floats.last)] if layout.played_rounds >= 1 else []
    if layout.played_rounds >= 2:
        history.append((2, floats.before_last))
    for _, got in history:  # C14-C17: how many floats repeat
        push(s_bits, _repeat_down(high, low, got, in_current))
        push(s_bits, int(in_current and not _upfloats_again(high, low, got)))
    for _, got in history:  # C18-C21: the scores of those floaters
        value = 0
        if in_current:
            value += int(got[low.number] is Float.DOWN) << shift[low_score]
            value += int(got[high.number] is Float.DOWN) << shift[high_score]
        push(g_bits, value)
        not_again = in_current and not _upfloats_again(high, low, got)
        push(g_bits, (1 << shift[high_score]) if not_again else 0)
    push(3 * s_bits + 1, 0)
    return weight


def _repeat_down(
    high: PlayerState, low: PlayerState, got: Mapping[int, Float], in_current: bool
) -> int:
    """Players who floated down before and stay in their bracket through this pair."""
    if not in_current:
        return 0
    count = int(got[low.number] is Float.DOWN)
    if high.pairing_score() <= low.pairing_score() and got[high.number] is Float.DOWN:
        count += 1
    return count


def _upfloats_again(high: PlayerState, low: PlayerState, got: Mapping[int, Float]) -> bool:
    return high.pairing_score() > low.pairing_score() and got[low.number] is Float.UP
