"""A tiny game kind for the tests of the API on seats: two to four players count to ten in
turn, each adding 1 or 2; whoever reaches ten wins and the others share second place.

It exists only in the tests (``register`` it with the ``counting`` fixture), to show the
API answers any kind through the contract: seat names that are not Orange and Blue, and
seeks for more than two.
"""

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
CHOICES = ("1", "2")
SEAT_NAMES = ("North", "East", "South", "West")


class CountingState(State):
    def __init__(self, seat_count: int) -> None:
        self._seat_count = seat_count
        self._steps: list[Step] = []
        self._left: int | None = None

    @property
    def seat_count(self) -> int:
        return self._seat_count

    @property
    def total(self) -> int:
        return sum(int(step.notation) for step in self._steps if step.kind == StepKind.MOVE)

    @property
    def to_act(self) -> int | None:
        return None if self.is_over() else len(self._steps) % self._seat_count + 1

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    def legal_choices(self) -> list[str]:
        return [] if self.is_over() else list(CHOICES)

    def play(self, choice: str) -> list[Step]:
        seat = self.to_act
        if seat is None:
            raise KindError("The count is over: no more moves.")
        if choice.strip() not in CHOICES:
            raise ChoiceNotationError(f"{choice!r} is not a count: expected 1 or 2.")
        step = Step(seat, StepKind.MOVE, choice.strip())
        self._steps.append(step)
        return [step]

    def leave(self, seat: int, how: Departure) -> list[Step]:
        self._left = seat
        return []

    def is_over(self) -> bool:
        return self._left is not None or self.total >= TARGET

    def finishing_order(self) -> FinishingOrder | None:
        seats = frozenset(range(1, self._seat_count + 1))
        if self._left is not None:
            return (seats - {self._left}, frozenset({self._left}))
        if self.total < TARGET:
            return None
        winner = self._steps[-1].seat
        return (frozenset({winner}), seats - {winner})


class CountingKind(GameKind):
    id = "counting"
    name = "Counting"
    rules_version = "1"
    seats = SeatRange(2, 4)
    notation_help = "Write 1 or 2."

    def seat_names(self, count: int) -> list[str]:
        self.check_seat_count(count)
        return list(SEAT_NAMES[:count])

    def new_state(
        self, seat_count: int, *, options: Options | None = None, chance: Chance | None = None
    ) -> CountingState:
        self.check_seat_count(seat_count)
        return CountingState(seat_count)

    def replay(
        self,
        seat_count: int,
        steps: Sequence[Step],
        *,
        options: Options | None = None,
        chance: Chance | None = None,
    ) -> CountingState:
        state = self.new_state(seat_count)
        for step in steps:
            state.play(step.notation)
        return state

    def result_text(self, order: FinishingOrder) -> str:
        return " > ".join(",".join(str(seat) for seat in sorted(group)) for group in order)

    def order_from_result(self, text: str, seat_count: int) -> FinishingOrder:
        try:
            return tuple(frozenset(int(s) for s in group.split(",")) for group in text.split(">"))
        except ValueError:
            raise KindError(f"Not a counting result: {text!r}.") from None

    def record_text(self, state: State, headers: Mapping[str, str]) -> str:
        lines = [f'[{name} "{value}"]' for name, value in headers.items()]
        return "\n".join([*lines, "", " ".join(step.notation for step in state.steps)]) + "\n"

    def svg(self, state: State, *, viewer_seat: int | None = None) -> str:
        return f"<svg><text>{self.text(state)}</text></svg>"

    def text(self, state: State) -> str:
        assert isinstance(state, CountingState)
        return f"{state.total} of {TARGET}"

    def position_data(self, state: State) -> dict[str, object]:
        assert isinstance(state, CountingState)
        return {"total": state.total, "target": TARGET}


KIND = CountingKind()
