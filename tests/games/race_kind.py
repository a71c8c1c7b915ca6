"""A toy kind for two to four players, for the pages' tests of kinds other than Celtic!:
each seat in turn adds 1 or 2 to a shared total; whoever brings it to ten wins, the others
share second place. A seat that resigns leaves; the last one left wins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.kinds.base import (
    Chance,
    ChoiceNotationError,
    Departure,
    FinishingOrder,
    GameKind,
    KindError,
    Options,
    SeatRange,
    State,
    Step,
    StepKind,
)

TARGET = 10
NAMES = ["Red", "Green", "Yellow", "Purple"]


class RaceState(State):
    def __init__(self, seat_count: int) -> None:
        self._seat_count = seat_count
        self.total = 0
        self._steps: list[Step] = []
        self._left: set[int] = set()
        self._next: int | None = 1
        self._order: FinishingOrder | None = None

    @property
    def seat_count(self) -> int:
        return self._seat_count

    @property
    def to_act(self) -> int | None:
        return self._next

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    def legal_choices(self) -> list[str]:
        return [] if self.is_over() else ["1", "2"]

    def play(self, choice: str) -> list[Step]:
        if self._next is None:
            raise KindError("The race is over.")
        if choice.strip() not in ("1", "2"):
            raise ChoiceNotationError(f"{choice!r} is not a step: write 1 or 2.")
        seat = self._next
        step = Step(seat, StepKind.MOVE, choice.strip())
        self._steps.append(step)
        self.total += int(step.notation)
        if self.total >= TARGET:
            rest = frozenset(range(1, self._seat_count + 1)) - {seat}
            self._end((frozenset({seat}), rest))
        else:
            self._next = self._after(seat)
        return [step]

    def leave(self, seat: int, how: Departure) -> list[Step]:
        step = Step(seat, StepKind.LEAVE, how.value)
        self._steps.append(step)
        self._left.add(seat)
        staying = frozenset(range(1, self._seat_count + 1)) - self._left
        if len(staying) == 1:
            self._end((staying, frozenset(self._left)))
        elif self._next == seat:
            self._next = self._after(seat)
        return [step]

    def is_over(self) -> bool:
        return self._order is not None

    def finishing_order(self) -> FinishingOrder | None:
        return self._order

    def _end(self, order: FinishingOrder) -> None:
        self._order, self._next = order, None

    def _after(self, seat: int) -> int:
        following = seat
        while True:
            following = following % self._seat_count + 1
            if following not in self._left:
                return following


class RaceKind(GameKind):
    id = "race"
    name = "Race to ten"
    rules_version = "1"
    seats = SeatRange(2, 4)
    notation_help = "Write 1 or 2."

    def seat_names(self, count: int) -> list[str]:
        self.check_seat_count(count)
        return NAMES[:count]

    def new_state(
        self, seat_count: int, *, options: Options | None = None, chance: Chance | None = None
    ) -> RaceState:
        self.check_seat_count(seat_count)
        return RaceState(seat_count)

    def replay(
        self, seat_count: int, steps: Sequence[Step], *, options: Options | None = None
    ) -> RaceState:
        state = self.new_state(seat_count)
        for step in steps:
            if step.kind == StepKind.LEAVE:
                state.leave(step.seat, Departure(step.notation))
            else:
                state.play(step.notation)
        return state

    def result_text(self, order: FinishingOrder) -> str:
        return " ".join(",".join(str(seat) for seat in sorted(group)) for group in order)

    def order_from_result(self, text: str, seat_count: int) -> FinishingOrder:
        try:
            order = tuple(frozenset(int(s) for s in group.split(",")) for group in text.split())
        except ValueError:
            raise KindError(f"Not a race result: {text!r}; expected seats like '2 1,3'.") from None
        if sorted(s for group in order for s in group) != list(range(1, seat_count + 1)):
            raise KindError(f"Not a race result for {seat_count} seats: {text!r}.")
        return order

    def record_text(self, state: State, headers: Mapping[str, str]) -> str:
        return "\n".join(f"{step.seat}: {step.notation}" for step in state.steps)

    def svg(self, state: State, *, viewer_seat: int | None = None) -> str:
        total = _race(state).total
        return f'<svg class="race-board" viewBox="0 0 100 20"><text>Total {total}</text></svg>'

    def text(self, state: State) -> str:
        return f"Total {_race(state).total}"

    def position_data(self, state: State) -> dict[str, object]:
        return {"total": _race(state).total, "to_act": state.to_act}


def _race(state: State) -> RaceState:
    if not isinstance(state, RaceState):
        raise KindError(f"Not a race position: {state!r}.")
    return state


KIND = RaceKind()
