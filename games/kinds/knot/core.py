"""The game on integers: the fast core that the contract's state and random playouts share.

Seats are 0..N-1 here (the contract numbers them from 1), spaces are the board's numbers.
The core trusts its caller: ``KnotState`` checks choices and flips and explains refusals; the
core only carries the rules out (moving, exits, extra moves, turn order, leaving, the end).

Flips are an int of k bits for a stack of k coins, coin j at bit k-1-j, 1 for tails: the sum of
a flipping is k + the number of bits set.
"""

from __future__ import annotations

import random
from enum import IntEnum

from games.kinds.knot.board import DISTANCE, EXIT, MAX_COINS, ROUTES, SPACE_COUNT, START_SPACES


class Phase(IntEnum):
    """What the seat to act does next."""

    SQUARE = 0  # choose a space holding its coins
    ROUTE = 1  # the stack is flipped: choose a destination
    EXTRA = 2  # a landing earned an extra move: the stack's flips come next
    OVER = 3


SQUARE, ROUTE, EXTRA, OVER = Phase
"""The phases as module names: looking a member up on the enum class is slow in a hot loop."""


class Core:
    """A position: coins per seat and space, the seat to act, and where its turn stands."""

    __slots__ = (
        "coins",
        "departed",
        "dests",
        "flippings",
        "own",
        "phase",
        "playing",
        "seat",
        "seat_count",
        "space",
        "stacks",
        "total",
        "turns",
        "visited",
        "winner",
    )

    def __init__(self, seat_count: int) -> None:
        self.seat_count = seat_count
        self.own = [[0] * SPACE_COUNT for _ in range(seat_count)]
        """``own[seat][space]``: that seat's coins on that space."""
        self.total = [0] * SPACE_COUNT
        self.stacks = [list(START_SPACES) for _ in range(seat_count)]
        """Each seat's occupied spaces (the spaces it may choose)."""
        for space in START_SPACES:
            self.total[space] = seat_count
            for seat in range(seat_count):
                self.own[seat][space] = 1
        self.coins = [MAX_COINS] * seat_count
        self.playing = [True] * seat_count
        self.turns = 0
        """Turns played to their end (a turn cut short by leaving is not counted)."""
        self.departed: list[int] = []
        self.winner: int | None = None
        self.seat = 0
        self.phase = SQUARE
        self.space = -1
        self.dests: tuple[int, ...] = ()
        self.visited: list[int] = []
        self.flippings = 0

    def flip(self, space: int, bits: int) -> tuple[int, ...]:
        """Flip the seat's stack on ``space`` (the given space in an extra move).

        Answers the destinations; with none the flips stand and the turn passes.
        """
        if self.phase == SQUARE:
            self.visited = [space]
        self.flippings += 1
        coins = self.own[self.seat][space]
        dests = ROUTES[space][coins + bits.bit_count()]
        self.space = space
        self.dests = dests
        if dests:
            self.phase = ROUTE
        else:
            self._next_turn()
        return dests

    def move(self, dest: int) -> None:
        """Move the flipped stack to ``dest``, one of ``dests``, and land."""
        seat = self.seat
        mine = self.own[seat]
        space = self.space
        coins = mine[space]
        mine[space] = 0
        self.total[space] -= coins
        self.stacks[seat].remove(space)
        if dest == EXIT:
            self.coins[seat] -= coins
            if self.coins[seat]:
                self._next_turn()
            else:
                self.winner = seat
                self.phase = OVER
            return
        if not mine[dest]:
            self.stacks[seat].append(dest)
        mine[dest] += coins
        self.total[dest] += coins
        if self.total[dest] > mine[dest] and dest not in self.visited:
            self.visited.append(dest)
            self.space = dest
            self.phase = EXTRA
        else:
            self._next_turn()

    def earns_extra(self, dest: int) -> bool:
        """Whether landing on ``dest`` now would earn an extra move."""
        seat = self.seat
        others = self.total[dest] - self.own[seat][dest]
        return dest != EXIT and others > 0 and dest not in self.visited

    def leave(self, seat: int) -> None:
        """``seat`` resigns or times out: its coins leave, the others play on (or one wins)."""
        mine = self.own[seat]
        for space in self.stacks[seat]:
            self.total[space] -= mine[space]
            mine[space] = 0
        self.stacks[seat] = []
        self.coins[seat] = 0
        self.playing[seat] = False
        self.departed.append(seat)
        if self.playing.count(True) == 1:
            self.phase = OVER
        elif seat == self.seat:
            self._pass_play()

    def _next_turn(self) -> None:
        self.turns += 1
        self._pass_play()

    def _pass_play(self) -> None:
        """Play passes clockwise to the next seat still playing."""
        playing = self.playing
        seat = self.seat + 1
        while seat == self.seat_count or not playing[seat]:
            seat = 0 if seat == self.seat_count else seat + 1
        self.seat = seat
        self.phase = SQUARE
        self.dests = ()
        self.space = -1

    def distance(self, seat: int) -> int:
        """The seat's total distance: the sum over its coins of the fewest points to the exit."""
        mine = self.own[seat]
        return sum(mine[space] * DISTANCE[space] for space in self.stacks[seat])

    def finishing_order(self) -> list[int] | None:
        """Seats (0-based) first to last once the game is over; None before."""
        if self.phase != OVER:
            return None
        first = self.winner
        if first is None:
            first = self.playing.index(True)
        after = [(first + step) % self.seat_count for step in range(1, self.seat_count)]
        rest = [seat for seat in after if self.playing[seat]]
        rest.sort(key=lambda seat: (self.coins[seat], self.distance(seat)))  # stable: clockwise
        return [first, *rest, *reversed(self.departed)]


def random_playout(rng: random.Random, seat_count: int, *, max_moves: int = 100_000) -> Core:
    """Play a whole game with random choices and flips from ``rng``; the final position.

    Every choice is uniform: a stack of the seat to act, then a destination. Written for speed
    (the benchmark, the invariants' harness): no strings, no checks the rules make moot.
    """
    core = Core(seat_count)
    rand = rng.random
    bits = rng.getrandbits
    for _ in range(max_moves):
        phase = core.phase
        if phase == SQUARE:
            stacks = core.stacks[core.seat]
            space = stacks[int(rand() * len(stacks))]
        elif phase == EXTRA:
            space = core.space
        else:
            return core
        dests = core.flip(space, bits(core.own[core.seat][space]))
        if dests:
            core.move(dests[int(rand() * len(dests))])
    raise RuntimeError(f"a random game of {seat_count} seats ran over {max_moves} moves")
