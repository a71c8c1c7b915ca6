"""A bracket paired by its first transposition, without a weighted matching.

In a bracket of one score group (and at most one moved-down player) that pairs all its
players but one at most, the weights of its pairs differ only in the colour fields (C10-C13)
and, through the one left out (the floater) and the MDP's partner, in a few float fields: the
top field, C6, C7, C9 and the rest of C14-C21 add up per player. So the engine's matching pairs
such a bracket by the colour criteria first, then with no exchange if it can (2.4.2), then gives
each S1 player in turn the highest S2 player left (2.4.1, the order of transpositions). When
the colour optimum is plain to see, that is a bipartite search, not a blossom over the score
group (at 1,000 players, round 2 has groups of 400):

* ``colour_optimal``: which pairs an optimal pairing of the bracket may use. With as many
  preferences for each colour as players without one can even out, the optimum has no pair
  of equal preferences (every colour criterion met), and those are the pairs. Otherwise the
  surplus colour needs at least ``(surplus - no preference) / 2`` such pairs, and a pairing has
  no more exactly when the surplus players meet one another, the rest meet a surplus player;
  when every surplus player's preference is strong (not absolute, not mild), each such pair
  breaks C12 and C13 alike and none breaks C10 or C11, so that count is the optimum of all
  four. In an odd bracket the floater is then one of the surplus. In any other case no answer
  is given.
* ``first_transposition``: the lexicographically first perfect pairing of S1 with S2 over the
  pairs allowed, S1's first player's choice first: a perfect pairing by augmenting paths, then
  each S1 player in turn takes its best S2 player that leaves the rest pairable. An odd
  bracket adds a last S1 player who may "meet" the S2 players allowed to float.

The engine (``engine.py``, ``_Bracket._pair_by_transposition``) also requires that the floater
did not float down in the last two rounds, that the MDP's partner did not float up, and that
a completion shows the players below paired as well as they can be (C4, C8); otherwise, or
when this gives no answer (an exchange is needed), the weighted matching decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from tournaments.pairing.dutch.state import PlayerState
from tournaments.pairing.dutch.weights import colour_fields
from tournaments.standings.records import Colour

Allowed = Callable[[PlayerState, PlayerState], bool]

# How many single exchanges are tried, closest first, before the weighted matching decides.
EXCHANGE_TRIES = 40


@dataclass(frozen=True)
class ColourOptimum:
    """The pairs a pairing best by C10-C13 may use, and (in an odd group) who may be left out
    for it: every pairing of the others over ``allowed`` is best."""

    allowed: Allowed
    may_float: Callable[[PlayerState], bool]


def colour_optimal(players: Sequence[PlayerState]) -> ColourOptimum | None:
    """How a pairing of ``players`` (one bracket: all paired but one if odd) is best by
    C10-C13, when that is plain; None when it is not."""
    counts = Counter(p.preference for p in players)
    orange, blue, free = counts[Colour.ORANGE], counts[Colour.BLUE], counts[None]
    if abs(orange - blue) <= free - len(players) % 2:
        return ColourOptimum(_meets_every_colour_criterion, lambda player: True)
    surplus = Colour.ORANGE if orange > blue else Colour.BLUE
    if not all(p.strong_preference for p in players if p.preference is surplus):
        return None

    def with_surplus_player(a: PlayerState, b: PlayerState) -> bool:
        return a.preference is surplus or b.preference is surplus

    return ColourOptimum(with_surplus_player, lambda player: player.preference is surplus)


def _meets_every_colour_criterion(a: PlayerState, b: PlayerState) -> bool:
    return all(value for value, _ in colour_fields(a, b, True))


def transposition_with_one_exchange(
    rest: Sequence[int], may_meet: Callable[[int, int], bool], floaters: Collection[int] | None
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The pairs of the players ``rest`` (in rank order) and the one left out (one of
    ``floaters``, when that is not None) as the Dutch order of candidates has them: S1 meets
    S2 by the first transposition; when it cannot, one exchange (2.4.2), the swapped pair the
    closest in rank and then the S1 player as low as possible, and the first transposition of
    the new S1 (each of whom meets a lower player). None when neither is found among the first
    ``EXCHANGE_TRIES`` exchanges (more exchanges may be needed)."""
    half = len(rest) // 2
    found = leaders_meet_followers(rest[:half], rest[half:], may_meet, floaters)
    if found is not None:
        return found
    swaps = sorted((y - x, -x, y) for x in range(half) for y in range(half, len(rest)))
    for _, minus_x, y in swaps[:EXCHANGE_TRIES]:
        x = -minus_x
        leaders = [v for i, v in enumerate(rest[:half]) if i != x] + [rest[y]]
        followers = [rest[x]] + [rest[i] for i in range(half, len(rest)) if i != y]
        found = leaders_meet_followers(leaders, followers, may_meet, floaters)
        if found is not None:
            return found
    return None


def leaders_meet_followers(
    leaders: Sequence[int],
    followers: Sequence[int],
    may_meet: Callable[[int, int], bool],
    floaters: Collection[int] | None,
) -> tuple[list[tuple[int, int]], int | None] | None:
    """Each leader in turn meets the highest follower ranked below it that leaves the rest
    pairable, and one of ``floaters`` is left out if it is not None; None when impossible."""
    options = [[k for k, u in enumerate(followers) if u > v and may_meet(v, u)] for v in leaders]
    if floaters is not None:
        options.append([k for k, u in enumerate(followers) if u in floaters])
    chosen = first_transposition(options, len(followers))
    if chosen is None:
        return None
    pairs = [(v, followers[k]) for v, k in zip(leaders, chosen[: len(leaders)], strict=True)]
    return pairs, (followers[chosen[-1]] if floaters is not None else None)


def first_transposition(options: Sequence[Sequence[int]], size: int) -> list[int] | None:
    """Each S1 player's S2 player (positions ``0..size-1``) in the lexicographically first
    perfect pairing, or None when there is none. ``options[i]`` are the S2 players S1 player
    ``i`` may meet, the preferred first; the first S1 player's choice counts most."""
    if len(options) != size:
        return None
    match = [-1] * size  # S1 -> S2
    owner = [-1] * size  # S2 -> S1
    blocked = [False] * size  # S2 players whose S1 partner is settled
    for i, choices in enumerate(options):
        free = next((o for o in choices if owner[o] < 0), None)
        if free is not None:
            match[i], owner[free] = free, i
    for i in range(size):
        if match[i] < 0 and not _augment(i, options, match, owner, blocked):
            return None
    for i, choices in enumerate(options):
        for o in choices:
            if not blocked[o] and (match[i] == o or _reroute(i, o, options, match, owner, blocked)):
                blocked[o] = True
                break
    return match


def _reroute(
    i: int,
    o: int,
    options: Sequence[Sequence[int]],
    match: list[int],
    owner: list[int],
    blocked: list[bool],
) -> bool:
    """Give S2 player ``o`` to S1 player ``i`` if ``o``'s partner can take ``i``'s, by an
    augmenting path that leaves ``o`` and the settled pairs alone."""
    other, old = owner[o], match[i]
    match[i], owner[o], owner[old], match[other] = o, i, -1, -1
    blocked[o] = True
    found = _augment(other, options, match, owner, blocked)
    blocked[o] = False
    if not found:
        match[i], owner[old], match[other], owner[o] = old, i, o, other
    return found


def _augment(
    start: int,
    options: Sequence[Sequence[int]],
    match: list[int],
    owner: list[int],
    blocked: list[bool],
) -> bool:
    """Find an S2 player for the unpaired S1 player ``start`` along an augmenting path
    (depth first), and pair along it; False when there is none."""
    seen: set[int] = set()
    stack, choices = [start], [iter(options[start])]
    via: list[int] = []  # the S2 player that led to each S1 player of the stack but the first
    while stack:
        o = next((o for o in choices[-1] if not blocked[o] and o not in seen), None)
        if o is None:
            stack.pop()
            choices.pop()
            if via:
                via.pop()
            continue
        seen.add(o)
        via.append(o)
        if owner[o] < 0:
            for s, t in zip(stack, via, strict=True):
                match[s], owner[t] = t, s
            return True
        stack.append(owner[o])
        choices.append(iter(options[owner[o]]))
    return False


__all__ = [
    "ColourOptimum",
    "colour_optimal",
    "first_transposition",
    "leaders_meet_followers",
    "transposition_with_one_exchange",
]
