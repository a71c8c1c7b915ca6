"""Best and worst final place each player can still reach, by points alone.

Places count ties the way a player would fear or hope before tie-breaks are known: for the
*best* place a player level on points with others is counted above them (``best = 1 +`` the
number who finish strictly ahead), for the *worst* place below them (``worst = 1 +`` the
number who finish level or ahead). ``clinched`` means first place is certain (alone, on
points); ``eliminated`` means no outcome puts the player on top, even shared.

**Remaining games known** (a round robin): exact. Each remaining game ends 1-0, ½-½ or 0-1,
so with points counted in *units* of (draw - loss) each game hands out two units in any split
(2-0, 1-1, 0-2), like two baseball games: the classic baseball-elimination max-flow decides
whether the other players' games can be finished so that a chosen set of players stays within
given limits. For the best place the player wins all its games and we look for the smallest
set of rivals allowed to pass it such that every other rival can be held to its score
(feasible iff the flow from the games to the players saturates the games); for the worst
place it loses all its games and we look for the largest set of rivals who can all reach its
score (feasible iff the flow saturates their needs). Sets are tried by size, pruned by a flow
bound, so the search stays small for a 16-player section (see ``bench/standings.py``); the
worst case is exponential in the number of rivals whose fate is genuinely open, and one flow
costs about the square of the games it spreads. So the search has a budget
(:data:`EXACT_WORK`, in games² of the flows it runs, shared by all players): a player whose
search would overrun it gets sound bounds instead (``exact`` is ``False``), the tighter of
what the search had proved so far and the bounds below with each player's own games left.

**Remaining games unknown** (a Swiss): bounds only. Every player still in the event may score
between nothing and a win in each of the ``rounds_left`` rounds, independently of the others.
``best`` counts only the rivals already out of reach, ``worst`` every rival who could catch
up, so the true places lie within ``[best, worst]``; ``exact`` is ``False`` while a round is
left (with none left the places are those of the final scores, exact). The marks stay
sound: ``clinched`` and ``eliminated`` are only set when they hold for every outcome. The
bounds sort the scores once, so they cost ``n log n`` for ``n`` players.

Point systems must give a draw halfway between a win and a loss (1-½-0 and the like).
"""

from __future__ import annotations

import itertools
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Iterable, Sequence, Sized
from dataclasses import dataclass
from fractions import Fraction
from math import ceil, floor, lcm

from tournaments.standings.records import Outcome, PlayerRecord, PointSystem

#: The exact search's budget for one call of :func:`possible_places`, in work units: a flow
#: over ``g`` games costs ``(g + 1)²`` (a unit is about a third of a microsecond on one
#: core), a set of rivals passed over without a flow its size (best place) or the games
#: scanned (worst place), so the whole search stays within a few tenths of a second. A
#: 16-player round robin at any cut-off stays well within it (``bench/standings.py``).
EXACT_WORK = 1_000_000


@dataclass(frozen=True)
class PlaceRange:
    """The places a player can still finish in (1 = first), and the marks that follow."""

    number: int
    best: int
    worst: int
    clinched: bool  # first place is certain
    eliminated: bool  # first place (even shared) is out of reach
    exact: bool  # False for bounds (remaining games unknown, or the exact search too costly)


class _Budget:
    """The work the exact search may still do (see :data:`EXACT_WORK`)."""

    def __init__(self, work: int) -> None:
        self.left = work

    def spend(self, cost: int) -> bool:
        """Take ``cost`` units; False (nothing taken) if that is more than is left."""
        if cost > self.left:
            return False
        self.left -= cost
        return True


class _OutOfBudget(Exception):
    """The search stopped; ``place`` is the bound it had proved."""

    def __init__(self, place: int) -> None:
        super().__init__(place)
        self.place = place


def possible_places(
    players: Sequence[PlayerRecord],
    *,
    remaining_games: Sequence[tuple[int, int]] | None = None,
    rounds_left: int = 0,
    points: PointSystem | None = None,
    work: int = EXACT_WORK,
) -> dict[int, PlaceRange]:
    """Best and worst place for every player, by player number.

    Give ``remaining_games`` (pairs of player numbers, one entry per game still to play) when
    they are known, for exact places within ``work`` (see :data:`EXACT_WORK`); otherwise
    ``rounds_left`` for bounds. Withdrawn players (``withdrawn_after`` set) score nothing
    more in the bounds.
    """
    system = points or PointSystem()
    unit = system.draw - system.loss
    if unit <= 0 or system.win - system.loss != 2 * unit:
        raise ValueError("possible places need a draw worth halfway between a win and a loss")
    scores = _scores(players, system)
    if len(scores) != len(players):
        raise ValueError("a player number appears twice")
    if remaining_games is None:
        if rounds_left < 0:
            raise ValueError(f"rounds_left must be 0 or more, not {rounds_left}")
        return _swiss_bounds(players, scores, rounds_left, system)
    games = [(first, second) for first, second in remaining_games]
    for first, second in games:
        if first == second or first not in scores or second not in scores:
            raise ValueError(f"remaining game {first}-{second} is not between two players")
    count = _games_per_player(games)
    fallback = _bounds(
        {n: s + system.loss * count.get(n, 0) for n, s in scores.items()},
        {n: s + system.win * count.get(n, 0) for n, s in scores.items()},
        exact=not games,
    )
    budget = _Budget(work)
    return {
        number: _exact(number, scores, games, system, unit, budget, fallback[number])
        for number in sorted(scores)
    }


def _scores(players: Sequence[PlayerRecord], system: PointSystem) -> dict[int, Fraction]:
    """Each player's points, added up as whole numbers of the smallest fraction in use."""
    scale = lcm(*(system.points(outcome).denominator for outcome in Outcome))
    units = {outcome: int(system.points(outcome) * scale) for outcome in Outcome}
    return {p.number: Fraction(sum(units[r.outcome] for r in p.rounds), scale) for p in players}


def _swiss_bounds(
    players: Sequence[PlayerRecord],
    scores: dict[int, Fraction],
    rounds_left: int,
    system: PointSystem,
) -> dict[int, PlaceRange]:
    highs = {
        p.number: scores[p.number]
        + (system.win * rounds_left if p.withdrawn_after is None else Fraction(0))
        for p in players
    }
    return _bounds(scores, highs, exact=rounds_left == 0)


def _bounds(
    lows: dict[int, Fraction], highs: dict[int, Fraction], *, exact: bool
) -> dict[int, PlaceRange]:
    """Places when each player ends anywhere in ``[lows[n], highs[n]]``, independently:
    ``best`` counts the rivals sure to finish above, ``worst`` every rival who may reach the
    player's lowest score. Two sorted lists and a binary search per player, on whole
    numbers (the scores times the lcm of their denominators)."""
    scale = lcm(*(value.denominator for value in (*lows.values(), *highs.values())))
    low = {n: value.numerator * (scale // value.denominator) for n, value in lows.items()}
    high = {n: value.numerator * (scale // value.denominator) for n, value in highs.items()}
    sorted_lows = sorted(low.values())
    sorted_highs = sorted(high.values())
    result = {}
    for number in sorted(lows):
        above = len(sorted_lows) - bisect_right(sorted_lows, high[number])
        # every player whose highest score reaches this one's lowest, the player included
        reach = len(sorted_highs) - bisect_left(sorted_highs, low[number])
        best, worst = 1 + above, reach
        result[number] = PlaceRange(number, best, worst, worst == 1, best > 1, exact)
    return result


def _exact(
    number: int,
    scores: dict[int, Fraction],
    games: list[tuple[int, int]],
    system: PointSystem,
    unit: Fraction,
    budget: _Budget,
    fallback: PlaceRange,
) -> PlaceRange:
    """The exact places, or if the budget runs out the tighter of the search's bound and
    ``fallback`` (the independent bounds)."""
    exact = True
    try:
        best = _best_place(number, scores, games, system, unit, budget)
    except _OutOfBudget as stop:
        best, exact = max(stop.place, fallback.best), False
    try:
        worst = _worst_place(number, scores, games, system, unit, budget)
    except _OutOfBudget as stop:
        worst, exact = min(stop.place, fallback.worst), False
    return PlaceRange(number, best, worst, worst == 1, best > 1, exact)


def _split_games(
    number: int,
    scores: dict[int, Fraction],
    games: list[tuple[int, int]],
    own: Fraction,
    other: Fraction,
) -> tuple[Fraction, dict[int, Fraction], list[tuple[int, int]]]:
    """The player's final score when each of its games ends ``own``:``other``, the rivals'
    scores with those games counted, and the games left among rivals."""
    final = scores[number]
    rivals = {n: s for n, s in scores.items() if n != number}
    among: list[tuple[int, int]] = []
    for first, second in games:
        if number in (first, second):
            final += own
            rivals[second if first == number else first] += other
        else:
            among.append((first, second))
    return final, rivals, among


def _best_place(
    number: int,
    scores: dict[int, Fraction],
    games: list[tuple[int, int]],
    system: PointSystem,
    unit: Fraction,
    budget: _Budget,
) -> int:
    """The best place; ``_OutOfBudget`` with the smallest place not yet ruled out if the
    budget runs out first."""
    target, rivals, among = _split_games(number, scores, games, system.win, system.loss)
    count = _games_per_player(among)
    base = {n: s + system.loss * count.get(n, 0) for n, s in rivals.items()}
    room = {n: floor((target - base[n]) / unit) for n in rivals}  # units a rival may take
    forced = {n for n in rivals if room[n] < 0}
    open_ = [n for n in rivals if n not in forced and room[n] < 2 * count.get(n, 0)]
    free = forced | {n for n in rivals if n not in forced and n not in open_}
    size = 0  # rivals allowed to pass: every smaller number is ruled out

    def held(allowed: Iterable[int]) -> int:
        if not budget.spend(_flow_cost(among)):
            raise _OutOfBudget(1 + len(forced) + size)
        limits = {n: 2 * count.get(n, 0) for n in free.union(allowed)}
        limits.update({n: room[n] for n in open_ if n not in limits})
        return _max_flow(among, limits)

    needed = 2 * len(among)
    shortfall = needed - held(())
    if shortfall == 0:
        return 1 + len(forced)
    extra = {n: 2 * count[n] - room[n] for n in open_}
    for size in range(1, len(open_) + 1):
        for chosen in itertools.combinations(open_, size):
            if not budget.spend(size):
                raise _OutOfBudget(1 + len(forced) + size)
            if sum(extra[n] for n in chosen) >= shortfall and held(chosen) == needed:
                return 1 + len(forced) + size
    raise AssertionError("letting every rival pass always works")  # pragma: no cover


def _worst_place(
    number: int,
    scores: dict[int, Fraction],
    games: list[tuple[int, int]],
    system: PointSystem,
    unit: Fraction,
    budget: _Budget,
) -> int:
    """The worst place; ``_OutOfBudget`` with the largest place not yet ruled out if the
    budget runs out first."""
    target, rivals, among = _split_games(number, scores, games, system.loss, system.win)
    count = _games_per_player(among)
    base = {n: s + system.loss * count.get(n, 0) for n, s in rivals.items()}
    need = {n: max(0, ceil((target - base[n]) / unit)) for n in rivals}
    already = [n for n in rivals if need[n] == 0]
    open_ = [n for n in rivals if 0 < need[n] <= 2 * count.get(n, 0)]
    for size in range(len(open_), 0, -1):
        for chosen in itertools.combinations(open_, size):
            if not budget.spend(len(among)):
                raise _OutOfBudget(1 + len(already) + size)
            demand = sum(need[n] for n in chosen)
            touching = [g for g in among if g[0] in chosen or g[1] in chosen]
            if demand > 2 * len(touching):
                continue
            if not budget.spend(_flow_cost(touching)):
                raise _OutOfBudget(1 + len(already) + size)
            if _max_flow(touching, {n: need[n] for n in chosen}) == demand:
                return 1 + len(already) + size
    return 1 + len(already)


def _flow_cost(games: Sized) -> int:
    return (len(games) + 1) ** 2


def _games_per_player(games: list[tuple[int, int]]) -> dict[int, int]:
    count: dict[int, int] = {}
    for first, second in games:
        count[first] = count.get(first, 0) + 1
        count[second] = count.get(second, 0) + 1
    return count


def _max_flow(games: list[tuple[int, int]], limits: dict[int, int]) -> int:
    """Units the games (two each) can hand to the players under ``limits`` (players not in
    ``limits`` take nothing). Edmonds-Karp on source → game → player → sink."""
    source, sink = 0, 1
    node: dict[object, int] = {}

    def index(key: object) -> int:
        if key not in node:
            node[key] = len(node) + 2
            graph.append([])
        return node[key]

    graph: list[list[int]] = [[], []]
    heads: list[int] = []
    caps: list[int] = []

    def edge(a: int, b: int, cap: int) -> None:
        graph[a].append(len(heads))
        heads.append(b)
        caps.append(cap)
        graph[b].append(len(heads))
        heads.append(a)
        caps.append(0)

    for position, (first, second) in enumerate(games):
        game = index(("game", position))
        edge(source, game, 2)
        for player in (first, second):
            if limits.get(player, 0) > 0:
                edge(game, index(("player", player)), 2)
    for player, limit in limits.items():
        if limit > 0 and ("player", player) in node:
            edge(node[("player", player)], sink, limit)
    total = 0
    while True:
        parent_edge = [-1] * len(graph)
        parent_edge[source] = -2
        queue = deque([source])
        while queue and parent_edge[sink] == -1:
            at = queue.popleft()
            for e in graph[at]:
                if caps[e] > 0 and parent_edge[heads[e]] == -1:
                    parent_edge[heads[e]] = e
                    queue.append(heads[e])
        if parent_edge[sink] == -1:
            return total
        push = 2
        at = sink
        while at != source:
            e = parent_edge[at]
            push = min(push, caps[e])
            at = heads[e ^ 1]
        at = sink
        while at != source:
            e = parent_edge[at]
            caps[e] -= push
            caps[e ^ 1] += push
            at = heads[e ^ 1]
        total += push
