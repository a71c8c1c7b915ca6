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
* ``transposition_with_exchanges``: when S1 cannot meet S2, the exchanges of 2.4.2 in the
  rules' order (``exchanges``: fewest players, smallest difference of the sums of their
  numbers, S1 players as low and then S2 players as high as possible), each new S1 meeting
  the new S2 by its first transposition; the first that can wins. An exchange after which
  the counts of the colour kinds cannot pair the leaders (Hall's condition over the kinds,
  the floater's too) is passed over without a search.

The engine (``engine.py``, ``_Bracket._pair_by_transposition``) also requires that the floater
did not float down in the last two rounds (for the bye: that C9 ties the residents), that the
MDP's partner did not float up and leaves the counts of preferences able to pair the rest
(``ColourOptimum.leaves_room``), and that a completion shows the players below paired as well
as they can be (C4, C8); otherwise, or when no exchange is found within the limits below, the
weighted matching decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Hashable, Iterator, Sequence
from dataclasses import dataclass

from tournaments.pairing.dutch.state import PlayerState
from tournaments.pairing.dutch.weights import colour_fields
from tournaments.standings.records import Colour

Allowed = Callable[[PlayerState, PlayerState], bool]

# How many exchanges are searched (and looked at), in the order of 2.4.2, before the weighted
# matching decides.
EXCHANGE_TRIES = 40
EXCHANGE_CANDIDATES = 200_000
# The most players exchanged each way on this path (the kinds' counts are checked per number).
EXCHANGED_MOST = 8
# The most choices of kinds looked at to rule out a number of exchanged players.
KIND_CHOICES = 10_000


@dataclass(frozen=True)
class ColourOptimum:
    """The pairs a pairing best by C10-C13 may use, and (in an odd group) who may be left out
    for it: every pairing of the others over ``allowed`` is best. ``surplus`` is the colour
    preferred by too many to avoid pairs of equal preferences, or None."""

    allowed: Allowed
    may_float: Callable[[PlayerState], bool]
    surplus: Colour | None = None

    def leaves_room(self, rest: Sequence[PlayerState]) -> bool:
        """Whether the counts of preferences let ``rest`` (the bracket without a pair) be
        paired over ``allowed`` all the same; when not, no such pairing is best."""
        counts = Counter(p.preference for p in rest)
        odd = len(rest) % 2
        if self.surplus is None:
            return abs(counts[Colour.ORANGE] - counts[Colour.BLUE]) <= counts[None] - odd
        return len(rest) - counts[self.surplus] <= counts[self.surplus] - odd


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

    return ColourOptimum(with_surplus_player, lambda player: player.preference is surplus, surplus)


def _meets_every_colour_criterion(a: PlayerState, b: PlayerState) -> bool:
    return all(value for value, _ in colour_fields(a, b, True))


@dataclass(frozen=True)
class Kinds:
    """Players grouped by what the colour optimum looks at (``kind``), and which kinds it lets
    meet (``meet``, on one vertex of each kind): a pairing over the pairs allowed matches
    every leader only if the counts of the kinds allow it (Hall), which rules out most
    exchanges without a search."""

    kind: Callable[[int], Hashable]
    meet: Callable[[int, int], bool]


def transposition_with_exchanges(
    rest: Sequence[int],
    may_meet: Callable[[int, int], bool],
    floaters: Collection[int] | None,
    kinds: Kinds,
) -> tuple[list[tuple[int, int]], int | None] | None:
    """The pairs of the players ``rest`` (in rank order) and the one left out (one of
    ``floaters``, when that is not None) as the Dutch order of candidates has them: S1 meets
    S2 by the first transposition; when it cannot, the first exchange (2.4.2) in the order of
    :func:`exchanges` whose new S1 (each of whom meets a lower player) can meet the new S2,
    by its first transposition. None when that is not found within ``EXCHANGE_TRIES``
    searches and ``EXCHANGE_CANDIDATES`` exchanges looked at."""
    half = len(rest) // 2
    found = leaders_meet_followers(rest[:half], rest[half:], may_meet, floaters)
    if found is not None:
        return found
    counts = _KindCounts(rest, half, kinds, floaters)
    searches = 0
    for looked, (out, into) in enumerate(exchanges(half, len(rest), counts.possible)):
        if looked >= EXCHANGE_CANDIDATES or searches >= EXCHANGE_TRIES:
            return None
        if not counts.allow(out, into):
            continue
        searches += 1
        leaders = sorted({*rest[:half]} - {rest[i] for i in out} | {rest[i] for i in into})
        followers = sorted(set(rest) - set(leaders))
        found = leaders_meet_followers(leaders, followers, may_meet, floaters)
        if found is not None:
            return found
    return None


def exchanges(
    half: int, size: int, possible: Callable[[int], bool] = lambda count: True
) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The exchanges between S1 (positions ``0..half-1``) and S2 (``half..size-1``) in the
    order of 2.4.2, as (S1 positions moved to S2, S2 positions moved to S1): the fewest
    players first (up to ``EXCHANGED_MOST``; counts that ``possible`` rules out skipped),
    then the smallest difference of the two sums, then the S1 players as low as possible (the
    lowest first), then the S2 players as high as possible (the highest first)."""
    s2 = size - half
    for count in range(1, min(half, s2, EXCHANGED_MOST) + 1):
        if not possible(count):
            continue
        least = count * (count - 1) // 2  # the smallest sum of `count` distances
        most_s1 = sum(range(half - count, half))
        most_s2 = sum(range(s2 - count, s2))
        for distance in range(2 * least, most_s1 + most_s2 + 1):
            # distance: how far the S1 players sit above S2 and the S2 players below S1.
            for up in _ascending(count, half, distance - least, exact=False):
                for down in _ascending(count, s2, distance - sum(up), exact=True):
                    yield (
                        tuple(half - 1 - a for a in reversed(up)),
                        tuple(half + b for b in down),
                    )


def _ascending(
    count: int, limit: int, total: int, *, exact: bool, low: int = 0
) -> Iterator[tuple[int, ...]]:
    """Increasing tuples of ``count`` numbers from ``low`` to ``limit - 1`` whose sum is
    ``total`` (at most ``total`` unless ``exact``), in lexicographic order."""
    if count == 0:
        if total == 0 or not exact:
            yield ()
        return
    first = low
    while first < limit - count + 1 and count * first + count * (count - 1) // 2 <= total:
        for tail in _ascending(count - 1, limit, total - first, exact=exact, low=first + 1):
            yield (first, *tail)
        first += 1


class _KindCounts:
    """How many players of each kind S1 and S2 hold, to rule out an exchange (or a number
    of exchanged players) after which the leaders (and the floater, if one is left out)
    cannot all meet a follower of a kind they may meet (Hall's condition over the kinds,
    a follower's kind telling also whether it may float)."""

    def __init__(
        self, rest: Sequence[int], half: int, kinds: Kinds, floaters: Collection[int] | None
    ) -> None:
        self.kind_of = [(kinds.kind(v), floaters is not None and v in floaters) for v in rest]
        first: dict[Hashable, int] = {}
        for v, (kind, _) in zip(rest, self.kind_of, strict=True):
            first.setdefault(kind, v)
        followers = set(self.kind_of)
        self.meets: dict[Hashable, set[tuple[Hashable, bool]]] = {
            a: {(b, flag) for b, flag in followers if kinds.meet(first[a], first[b])} for a in first
        }
        self.floater = Counter[Hashable]()
        if floaters is not None:
            self.meets[_FLOATER] = {(b, flag) for b, flag in followers if flag}
            self.floater[_FLOATER] = 1
        self.subsets = [
            [kind for bit, kind in enumerate(self.meets) if mask >> bit & 1]
            for mask in range(1, 1 << len(self.meets))
        ]
        self.s1 = Counter(self.kind_of[:half])
        self.s2 = Counter(self.kind_of[half:])

    def possible(self, count: int) -> bool:
        """Some choice of the kinds of ``count`` players each way passes Hall's condition
        (or there are too many choices to look at them all)."""
        outs, intos = list(_multisets(self.s1, count)), list(_multisets(self.s2, count))
        if len(outs) * len(intos) > KIND_CHOICES:
            return True
        return any(
            self._hall(self.s1 - out + into, self.s2 - into + out) for out in outs for into in intos
        )

    def allow(self, out: tuple[int, ...], into: tuple[int, ...]) -> bool:
        moved_out = Counter(self.kind_of[i] for i in out)
        moved_in = Counter(self.kind_of[i] for i in into)
        return self._hall(self.s1 - moved_out + moved_in, self.s2 - moved_in + moved_out)

    def _hall(
        self, leaders: Counter[tuple[Hashable, bool]], followers: Counter[tuple[Hashable, bool]]
    ) -> bool:
        wanted_by_kind = self.floater.copy()
        for (kind, _), number in leaders.items():
            wanted_by_kind[kind] += number
        for subset in self.subsets:
            wanted = sum(wanted_by_kind[kind] for kind in subset)
            if wanted:
                reach = set().union(*(self.meets[kind] for kind in subset))
                if wanted > sum(followers[kind] for kind in reach):
                    return False
        return True


_Kind = tuple[Hashable, bool]  # a player's kind, and whether it may float
_FLOATER = object()  # the kind of the "leader" who takes the floater out of the followers


def _multisets(available: Counter[_Kind], count: int) -> Iterator[Counter[_Kind]]:
    """Every multiset of ``count`` kinds that ``available`` holds."""
    kinds = list(available)

    def build(index: int, left: int) -> Iterator[Counter[_Kind]]:
        if index == len(kinds):
            if left == 0:
                yield Counter()
            return
        for taken in range(min(left, available[kinds[index]]) + 1):
            for tail in build(index + 1, left - taken):
                tail[kinds[index]] += taken
                yield tail

    yield from build(0, count)


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
    "Kinds",
    "colour_optimal",
    "exchanges",
    "first_transposition",
    "leaders_meet_followers",
    "transposition_with_exchanges",
]
