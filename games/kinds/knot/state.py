"""A Celtic Knot position behind the kinds contract: choices and steps as text, checked.

A move takes two choices: a space (the state then draws the stack's flips from its chance
source) and a destination. The steps it stores carry every flip, so a replay needs no chance:

* ``a1 HT``: the seat chose a1 and its stack flipped heads, tails;
* ``c3``: the stack moved to c3 and the turn ended (or the game, on the diamond);
* ``a2 TH``: the stack moved to a2, the landing earned an extra move, whose flips follow;
* ``TH``: the flips of an extra move, when a record wrote them apart from the landing;
* a ``PASS`` step after flips that leave no route; a ``LEAVE`` step ``resign`` / ``timeout``.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.kinds.base import Chance, Departure, FinishingOrder, KindError, State, Step, StepKind
from games.kinds.knot.board import EXIT, NAMES, parse_space
from games.kinds.knot.core import EXTRA, OVER, ROUTE, SQUARE, Core
from games.kinds.knot.notation import (
    flips_from_draw,
    flips_sum,
    flips_text,
    is_flips,
    names,
    parse_flips,
)

NO_CHANCE = (
    "Flip: this position has no chance source to flip coins with (it was replayed "
    "without one); pass one to replay(..., chance=...)."
)


class KnotState(State):
    """A position of Celtic Knot: the integer core, the steps so far, and the chance source."""

    __slots__ = ("_steps", "chance", "core", "pending_flips")

    def __init__(self, seat_count: int, chance: Chance | None = None) -> None:
        self.core = Core(seat_count)
        self.chance = chance
        self.pending_flips = ""
        """The flips of the stack about to move (while a destination is to be chosen)."""
        self._steps: list[Step] = []

    def __repr__(self) -> str:
        return f"<KnotState seats={self.seat_count} steps={len(self._steps)}>"

    # --- the contract ---------------------------------------------------------------------

    @property
    def seat_count(self) -> int:
        return self.core.seat_count

    @property
    def to_act(self) -> int | None:
        return None if self.core.phase == OVER else self.core.seat + 1

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    def legal_choices(self) -> list[str]:
        core = self.core
        if core.phase == SQUARE:
            return [NAMES[space] for space in sorted(core.stacks[core.seat])]
        if core.phase == EXTRA:
            return [NAMES[core.space]]
        if core.phase == ROUTE:
            return [NAMES[dest] for dest in core.dests]
        return []

    def play(self, choice: str) -> list[Step]:
        """Choose a space (the flips are drawn at once) or, after the flips, a destination."""
        core = self.core
        _check_not_over(core)
        space = parse_space(choice)
        if core.phase == ROUTE:
            self._check_destination(space)
            coins = core.own[core.seat][core.space] + core.own[core.seat][space]
            return self.move(space, self._draw(coins) if core.earns_extra(space) else None)
        self._check_square(space)
        return self.flip(space, self._draw(core.own[core.seat][space]))

    def leave(self, seat: int, how: Departure) -> list[Step]:
        """``seat`` resigns or times out, at any time: its coins leave, the others play on."""
        core = self.core
        if core.phase == OVER:
            raise KindError("The game is over: no one can leave it.")
        if not (1 <= seat <= core.seat_count and core.playing[seat - 1]):
            playing = [str(s + 1) for s in range(core.seat_count) if core.playing[s]]
            raise KindError(
                f"Seat {seat} is not playing: the seats still playing are {', '.join(playing)}."
            )
        core.leave(seat - 1)
        if core.phase != ROUTE:  # the mover left (or the game ended): no flips pending
            self.pending_flips = ""
        return self._add(Step(seat, StepKind.LEAVE, Departure(how).value))

    def is_over(self) -> bool:
        return self.core.phase == OVER

    def finishing_order(self) -> FinishingOrder | None:
        order = self.core.finishing_order()
        return None if order is None else tuple(frozenset({seat + 1}) for seat in order)

    # --- moves with their flips given (replays, records) -----------------------------------

    def flip(self, space: int, flips: str) -> list[Step]:
        """The seat flips its stack on ``space`` (in an extra move, the given space)."""
        core = self.core
        _check_not_over(core)
        if core.phase == ROUTE:
            raise KindError(f"Route: the stack on {NAMES[core.space]} is flipped; move it first.")
        self._check_square(space)
        coins = core.own[core.seat][space]
        bits = parse_flips(flips, coins)
        prefix = "" if core.phase == EXTRA else f"{NAMES[space]} "
        return self._add(*self._flipped(prefix, space, bits, coins))

    def move(self, dest: int, extra_flips: str | None = None) -> list[Step]:
        """Move the flipped stack to ``dest``; ``extra_flips`` are those of an extra move earned.

        Without them an earned extra move waits for its flips (``flip`` on the given space).
        """
        core = self.core
        self._check_destination(dest)
        mine = core.own[core.seat]
        coins = mine[core.space] + mine[dest]
        if extra_flips is None:
            bits = None
        elif core.earns_extra(dest):
            bits = parse_flips(extra_flips, coins)
        else:
            raise KindError(f"Extra move: {_why_no_extra(core, dest)}, so no flips follow.")
        seat = core.seat + 1
        core.move(dest)
        self.pending_flips = ""
        if bits is None:
            return self._add(Step(seat, StepKind.MOVE, NAMES[dest]))
        return self._add(*self._flipped(f"{NAMES[dest]} ", dest, bits, coins))

    def _flipped(self, prefix: str, space: int, bits: int, coins: int) -> list[Step]:
        """Flip the stack on ``space``: its step, and a pass when no route is left."""
        seat = self.core.seat + 1
        text = flips_text(bits, coins)
        flipped = Step(seat, StepKind.MOVE, prefix + text)
        if self.core.flip(space, bits):
            self.pending_flips = text
            return [flipped]
        self.pending_flips = ""
        return [flipped, Step(seat, StepKind.PASS)]

    # --- checks and helpers ----------------------------------------------------------------

    def _check_square(self, space: int) -> None:
        core = self.core
        if core.phase == EXTRA:
            if space != core.space:
                raise KindError(
                    f"Extra move: the stack that landed on {NAMES[core.space]} moves again, "
                    f"not {NAMES[space]}."
                )
        elif not core.own[core.seat][space]:
            raise KindError(
                f"Move: choose a space holding your coins ({names(sorted(core.stacks[core.seat]))}"
                f"); seat {core.seat + 1} has none on {NAMES[space]}."
            )

    def _check_destination(self, dest: int) -> None:
        core = self.core
        _check_not_over(core)
        if core.phase != ROUTE:
            raise KindError("Move: choose the space of a stack first, then its destination.")
        if dest not in core.dests:
            raise KindError(
                f"Route: the stack on {NAMES[core.space]} moves exactly "
                f"{flips_sum(self.pending_flips)} (flips "
                f"{self.pending_flips}) along the strand, without reversing or climbing: it can "
                f"reach {names(core.dests)}, not {NAMES[dest]}."
            )

    def _draw(self, coins: int) -> str:
        if self.chance is None:
            raise KindError(NO_CHANCE)
        draw = self.chance.draw(self.core.flippings + 1)
        return flips_text(flips_from_draw(draw, coins), coins)

    def _add(self, *steps: Step) -> list[Step]:
        self._steps.extend(steps)
        return list(steps)


def _check_not_over(core: Core) -> None:
    if core.phase == OVER:
        raise KindError("The game is over: no more moves.")


def _why_no_extra(core: Core, dest: int) -> str:
    if dest == EXIT:
        return "the stack left the board on the diamond and the turn ended"
    if dest in core.visited:
        return f"{NAMES[dest]} was already a stop of this turn, which earns nothing"
    return f"{NAMES[dest]} holds no opponent's coin, so the landing earns no extra move"


def replay_steps(seat_count: int, steps: Sequence[Step], chance: Chance | None) -> KnotState:
    """The state after ``steps``; ``KindError`` names the first step the rules refuse."""
    state = KnotState(seat_count, chance)
    index = 0
    while index < len(steps):
        step = steps[index]
        try:
            made = apply_step(state, step)
        except KindError as error:
            raise KindError(f"Step {index + 1} ({_step_text(step)}): {error}") from None
        for offset, expected in enumerate(made[1:], 1):  # a pass the flips forced
            given = steps[index + offset] if index + offset < len(steps) else None
            if given != expected:
                raise KindError(
                    f"Step {index + offset + 1}: the flips of step {index + 1} leave no route, "
                    f"so a pass of seat {expected.seat} must follow."
                )
        index += len(made)
    return state


def apply_step(state: KnotState, step: Step) -> list[Step]:
    """Play one stored step (its flips given); the steps it made, a forced pass included."""
    if step.kind == StepKind.LEAVE:
        if step.notation not in (Departure.RESIGN, Departure.TIMEOUT):
            raise KindError("Leave: a leave step says 'resign' or 'timeout'.")
        return state.leave(step.seat, Departure(step.notation))
    _check_not_over(state.core)
    if step.seat != state.to_act:
        raise KindError(f"Turn order: seat {state.to_act} is to act, not seat {step.seat}.")
    if step.kind != StepKind.MOVE:
        raise KindError("Pass: a turn passes only when the flips leave no route.")
    words = step.notation.split()
    phase = state.core.phase
    if phase == EXTRA and len(words) == 1 and is_flips(words[0]):
        return state.flip(state.core.space, words[0])
    if phase == ROUTE and len(words) in (1, 2):
        return state.move(parse_space(words[0]), words[1] if len(words) == 2 else None)
    if phase != ROUTE and len(words) == 2:
        return state.flip(parse_space(words[0]), words[1])
    expected = {
        SQUARE: "a space and its flips, like 'a1 HT'",
        ROUTE: "a destination, with the flips of an extra move it earns, like 'c3 TH'",
        EXTRA: "the flips of the extra move, like 'TH'",
    }[phase]
    raise KindError(f"expected {expected}.")


def _step_text(step: Step) -> str:
    return f"seat {step.seat} {step.kind.value} {step.notation!r}"
