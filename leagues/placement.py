"""Where each player plays next season, and who goes up or down: pure functions, no ORM.

Tiers are numbered from the top (tier 1 is the top division). A league has one division
per tier; a rookie division, if the league wants one, is the tier below the bottom one and
is fed only by newcomers (players in their first season, from the second season on).

Two steps, each a function of plain values so they are tested without a database:

- ``season_moves`` at a season's end: each division's final order gives each player their
  tier for next season (promoted, stayed, relegated);
- ``season_placement`` at the next season's start: the returning players by that tier and
  last place, newcomers by rating (or into the rookie division), cut into divisions top
  down; a place left by a player who did not return is filled by an extra promotion.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


class Outcome(enum.StrEnum):
    """What a season's result means for a player's tier."""

    PROMOTED = "promoted"
    STAYED = "stayed"
    RELEGATED = "relegated"


class How(enum.StrEnum):
    """How a player came to a division at the start of a season."""

    RETURNING = "returning"  # the tier their last result gave them
    EXTRA_PROMOTION = "extra_promotion"  # moved up to fill a place nobody returned to
    MOVED_DOWN = "moved_down"  # the league has fewer divisions than the tier they earned
    NEWCOMER = "newcomer"  # placed by rating
    ROOKIE = "rookie"  # a newcomer in the rookie division
    ORGANISER = "organiser"  # placed by the organiser (leagues.services)


@dataclass(frozen=True)
class Movement:
    """How many players move between neighbouring tiers: a ``count`` or a ``share``.

    A share is of the division's size, rounded half up, at least one when the share is
    above zero (a share of 1/4 moves 2 of 8, 2 of 6 and 1 of 5).
    """

    count: int | None = None
    share: Fraction | None = None

    def __post_init__(self) -> None:
        if (self.count is None) == (self.share is None):
            raise ValueError("Give either a count or a share of players, not both or neither.")
        if self.count is not None and self.count < 0:
            raise ValueError(f"The count must be 0 or more, not {self.count}.")
        if self.share is not None and not 0 <= self.share < 1:
            raise ValueError(f"The share must be at least 0 and below 1, not {self.share}.")

    def of(self, size: int) -> int:
        """The number of players who move from a division of ``size``."""
        if self.count is not None:
            return min(self.count, size)
        assert self.share is not None
        if self.share == 0:
            return 0
        return max(1, int(self.share * size + Fraction(1, 2)))


@dataclass(frozen=True)
class DivisionRules:
    """Division sizes (a target and a minimum) and the promotions and relegations."""

    target_size: int
    min_size: int
    promotion: Movement
    relegation: Movement
    rookie_division: bool = False

    def __post_init__(self) -> None:
        if self.min_size < 2:
            raise ValueError(f"A division needs at least 2 players; min_size is {self.min_size}.")
        if self.target_size < self.min_size:
            raise ValueError(
                f"The target size ({self.target_size}) must be at least the minimum "
                f"({self.min_size})."
            )

    def movers(self, size: int, *, top: bool, bottom: bool) -> tuple[int, int]:
        """(promoted, relegated) from a division of ``size``; none up from the top division,
        none down from the bottom one, and never more than the division holds."""
        up = 0 if top else self.promotion.of(size)
        down = 0 if bottom else self.relegation.of(size)
        up = min(up, size)
        return up, min(down, size - up)


def division_sizes(players: int, rules: DivisionRules) -> list[int]:
    """Sizes of the divisions, top down, for ``players`` players.

    Divisions are filled top down with the target size; a remainder smaller than the
    minimum joins the division above it. Fewer than two players make no division; fewer
    than the minimum make one division of them all.
    """
    if players < 2:
        return []
    full, rest = divmod(players, rules.target_size)
    sizes = [rules.target_size] * full
    if rest >= rules.min_size or not sizes:
        sizes.append(rest)
    else:
        sizes[-1] += rest
    return sizes


# --- Season end ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FinalTable:
    """A division's final order: player ids, best first (withdrawn players last)."""

    tier: int
    players: tuple[int, ...]
    rookie: bool = False


@dataclass(frozen=True)
class Move:
    """A player's result of the season: their place and the tier it gives them."""

    player_id: int
    tier: int
    place: int
    outcome: Outcome
    next_tier: int


def season_moves(tables: Sequence[FinalTable], rules: DivisionRules) -> dict[int, Move]:
    """Promotions and relegations between neighbouring tiers, by player id.

    The top ``promotion`` players of each division go up a tier (none from tier 1), the
    last ``relegation`` players go down (none from the bottom regular tier). The rookie
    division (the tier below the bottom) promotes into the bottom tier and relegates nobody.
    """
    regular = [t.tier for t in tables if not t.rookie]
    bottom = max(regular, default=0)
    if sorted(regular) != list(range(1, bottom + 1)):
        raise ValueError(f"Regular tiers must be 1..n, one table each; got {sorted(regular)}.")
    moves: dict[int, Move] = {}
    for table in tables:
        size = len(table.players)
        up, down = rules.movers(
            size, top=table.tier == 1, bottom=table.rookie or table.tier == bottom
        )
        for index, player_id in enumerate(table.players):
            place = index + 1
            if place <= up:
                outcome, next_tier = Outcome.PROMOTED, (bottom if table.rookie else table.tier - 1)
            elif place > size - down:
                outcome, next_tier = Outcome.RELEGATED, table.tier + 1
            else:
                outcome = Outcome.STAYED
                next_tier = bottom + 1 if table.rookie else table.tier
            if player_id in moves:
                raise ValueError(f"Player {player_id} is in two final tables.")
            moves[player_id] = Move(player_id, table.tier, place, outcome, next_tier)
    return moves


# --- Season start --------------------------------------------------------------------------


@dataclass(frozen=True)
class Returning:
    """A player back from last season: the tier they earned, where they came from, and
    their place there (to choose extra promotions)."""

    player_id: int
    next_tier: int
    last_tier: int
    last_place: int


@dataclass(frozen=True)
class Newcomer:
    """A player in their first season; ``order`` breaks rating ties (registration order)."""

    player_id: int
    rating: int | None
    order: int


@dataclass(frozen=True)
class Seat:
    """A player's division for the season and how they came to it."""

    player_id: int
    tier: int
    rookie: bool
    how: How


def season_placement(
    returning: Sequence[Returning], newcomers: Sequence[Newcomer], rules: DivisionRules
) -> list[list[Seat]]:
    """The divisions of a season, top down (a rookie division last), each a list of seats.

    Returning players go to the tier they earned. Divisions are filled top down to the
    sizes of ``division_sizes``: a division short of players takes the best of the tier
    below who stayed there (by last place), then those promoted into it, then those
    relegated into it: extra promotions. Players beyond a division's size move down. Then
    newcomers by rating (unrated last) fill the bottom. With a rookie division and some
    returning players, newcomers play in a rookie division of their own instead (when they
    are at least the minimum size).
    """
    _check_unique(returning, newcomers)
    by_rating = sorted(newcomers, key=lambda n: (n.rating is None, -(n.rating or 0), n.order))
    rookies = rules.rookie_division and bool(returning) and len(by_rating) >= rules.min_size
    pool_newcomers = [] if rookies else by_rating
    sizes = division_sizes(len(returning) + len(pool_newcomers), rules)
    queues = _queues_by_tier(returning)
    divisions: list[list[Seat]] = []
    for tier, size in enumerate(sizes, start=1):
        seats = [Seat(r.player_id, tier, False, How.RETURNING) for r in queues.pop(tier, [])]
        while len(seats) > size:  # more earned this tier than it holds: the last move down
            extra = seats.pop()
            queues.setdefault(tier + 1, []).insert(0, _returning_of(returning, extra.player_id))
        while len(seats) < size:
            seats.append(_fill_from_below(queues, pool_newcomers, tier))
        divisions.append(_mark_moved_down(seats, returning))
    if rookies:
        start = len(sizes) + 1
        for size in division_sizes(len(by_rating), rules):
            group, by_rating = by_rating[:size], by_rating[size:]
            divisions.append([Seat(n.player_id, start, True, How.ROOKIE) for n in group])
    return divisions


def _check_unique(returning: Sequence[Returning], newcomers: Sequence[Newcomer]) -> None:
    ids = [r.player_id for r in returning] + [n.player_id for n in newcomers]
    if len(ids) != len(set(ids)):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        raise ValueError(f"Players placed twice: {twice}.")


def _queues_by_tier(returning: Sequence[Returning]) -> dict[int, list[Returning]]:
    """Returning players per earned tier, in the order they are moved up to fill a gap:
    those who stayed (by last place), then the promoted, then the relegated."""
    queues: dict[int, list[Returning]] = {}
    for player in returning:
        queues.setdefault(player.next_tier, []).append(player)
    for queue in queues.values():
        queue.sort(key=_fill_order)
    return queues


def _fill_order(player: Returning) -> tuple[int, int, int]:
    """Stayed in the tier (0), promoted into it (1), relegated into it (2); then last place."""
    if player.last_tier == player.next_tier:
        arrival = 0
    else:
        arrival = 1 if player.last_tier > player.next_tier else 2
    return arrival, player.last_place, player.player_id


def _fill_from_below(
    queues: dict[int, list[Returning]], newcomers: list[Newcomer], tier: int
) -> Seat:
    below = sorted(t for t, queue in queues.items() if t > tier and queue)
    if below:
        player = queues[below[0]].pop(0)
        return Seat(player.player_id, tier, False, How.EXTRA_PROMOTION)
    newcomer = newcomers.pop(0)
    return Seat(newcomer.player_id, tier, False, How.NEWCOMER)


def _returning_of(returning: Sequence[Returning], player_id: int) -> Returning:
    return next(r for r in returning if r.player_id == player_id)


def _mark_moved_down(seats: list[Seat], returning: Sequence[Returning]) -> list[Seat]:
    """A returning player seated below the tier they earned was moved down."""
    earned = {r.player_id: r.next_tier for r in returning}
    return [
        Seat(s.player_id, s.tier, s.rookie, How.MOVED_DOWN)
        if s.how is How.RETURNING and earned[s.player_id] < s.tier
        else s
        for s in seats
    ]
