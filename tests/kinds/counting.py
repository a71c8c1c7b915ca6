"""A tiny game for two to four, written only for the tests: proof that a kind is one module.

Seats take turns adding 1 or 2 to a shared count, starting at 0; the seat that brings it to
``TARGET`` or beyond finishes first, and the others follow in play order after it. A seat that
resigns or times out leaves at once: the others play on, and it ranks below them (of those who
left, the last to leave ranks highest). With one seat left, that seat is first.

Registered by the tests with ``games.kinds.register(COUNTING)``; nothing in the platform names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.kinds.base import (
    Chance,
    ChoiceNotationError,
    Departure,
    FinishingOrder,
    GameKind,
    IllegalChoiceError,
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
        self.count = 0
        self.playing = list(range(1, seat_count + 1))
        self.left: list[int] = []  # in the order they left
        self.winner: int | None = None
        self._to_act: int | None = 1
        self._steps: list[Step] = []

    @property
    def seat_count(self) -> int:
        return self._seat_count

    @property
    def to_act(self) -> int | None:
        return self._to_act

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(self._steps)

    def legal_choices(self) -> list[str]:
        return [] if self.is_over() else list(CHOICES)

    def play(self, choice: str) -> list[Step]:
        text = choice.strip()
        if text not in CHOICES:
            raise ChoiceNotationError(f"{choice!r} is not a number to add: write 1 or 2.")
        if self._to_act is None:
            raise IllegalChoiceError("The game is over.", rule="over")
        seat = self._to_act
        self.count += int(text)
        step = Step(seat, StepKind.MOVE, text)
        self._steps.append(step)
        if self.count >= TARGET:
            self.winner, self._to_act = seat, None
        else:
            self._to_act = self._next_after(seat)
        return [step]

    def leave(self, seat: int, how: Departure) -> list[Step]:
        if seat not in self.playing or self.is_over():
            raise KindError(f"Seat {seat} is not playing.")
        after = self._next_after(seat)
        self.playing.remove(seat)
        self.left.append(seat)
        step = Step(seat, StepKind.LEAVE, how.value)
        self._steps.append(step)
        if len(self.playing) == 1:
            self.winner, self._to_act = self.playing[0], None
        elif self._to_act == seat:
            self._to_act = after
        return [step]

    def is_over(self) -> bool:
        return self.winner is not None

    def finishing_order(self) -> FinishingOrder | None:
        if self.winner is None:
            return None
        rest = [s for s in _rotation(self.winner, self.seat_count) if s in self.playing]
        ranked = [*rest, *reversed(self.left)]
        return tuple(frozenset({seat}) for seat in ranked)

    def _next_after(self, seat: int) -> int:
        return next(s for s in _rotation(seat, self.seat_count)[1:] if s in self.playing)


def _rotation(first: int, seat_count: int) -> list[int]:
    return [(first - 1 + i) % seat_count + 1 for i in range(seat_count)]


class CountingKind(GameKind):
    id = "counting"
    name = "Counting"
    rules_version = "1"
    seats = SeatRange(2, 4)
    notation_help = "Write 1 or 2: the number to add to the count."

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
        for number, step in enumerate(steps, start=1):
            try:
                if step.kind == StepKind.LEAVE:
                    state.leave(step.seat, Departure(step.notation))
                elif step.seat != state.to_act:
                    raise KindError(f"it is seat {state.to_act}'s turn, not seat {step.seat}'s")
                else:
                    state.play(step.notation)
            except (KindError, ValueError) as error:
                raise KindError(f"Step {number}: {error}") from None
        return state

    def result_text(self, order: FinishingOrder) -> str:
        return " ".join(str(min(group)) for group in order)

    def order_from_result(self, text: str, seat_count: int) -> FinishingOrder:
        words = text.split()
        if sorted(words) != [str(seat) for seat in range(1, seat_count + 1)]:
            raise KindError(
                f"{text!r} is not a finishing order: list the seats 1 to {seat_count} once "
                "each, first place first, like '2 3 1'."
            )
        return tuple(frozenset({int(word)}) for word in words)

    def record_text(self, state: State, headers: Mapping[str, str]) -> str:
        head = "".join(f'[{key} "{value}"]\n' for key, value in headers.items())
        return head + "".join(f"{s.seat} {s.notation}\n" for s in state.steps)

    def svg(self, state: State, *, viewer_seat: int | None = None) -> str:
        return f'<svg class="board" xmlns="http://www.w3.org/2000/svg"><text>{self._count(state)}</text></svg>'

    def text(self, state: State) -> str:
        return f"Count: {self._count(state)} of {TARGET}"

    def position_data(self, state: State) -> dict[str, object]:
        return {"count": self._count(state), "target": TARGET}

    @staticmethod
    def _count(state: State) -> int:
        assert isinstance(state, CountingState)
        return state.count


COUNTING = CountingKind()
