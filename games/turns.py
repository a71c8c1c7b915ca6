"""A game's turns, grouped from its steps, for the pages: the move list, the replay and the
"Turns" column of the game tables.

A kind stores one step per choice (docs/ARCHITECTURE.md); a turn is the consecutive steps of
one seat, and a seat leaving is a turn of its own (it may interrupt the turn of another seat,
which then goes on as a turn of its own, as Celtic Knot's record writes it). In Celtic! every
step is a turn; in Celtic Knot a turn is a square, its flips and destinations, extra moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.kinds.base import Step, StepKind


@dataclass(frozen=True)
class Turn:
    """One seat's turn: ``steps`` played from ply ``start`` (the position before it) to ply
    ``end`` (the position after it)."""

    seat: int
    start: int
    steps: tuple[Step, ...]

    @property
    def end(self) -> int:
        return self.start + len(self.steps)


def starts_turn(seat: int, kind: str, before: tuple[int, str] | None) -> bool:
    """Whether a step of ``seat`` and ``kind`` (a ``StepKind`` value) begins a turn, after the
    step ``before`` (its seat and kind; None at the start)."""
    if before is None or kind == StepKind.LEAVE:
        return True
    return before[0] != seat or before[1] == StepKind.LEAVE


def group_turns(steps: Sequence[Step]) -> list[Turn]:
    """The turns of ``steps``, in order; the last may still be going on."""
    turns: list[Turn] = []
    before: tuple[int, str] | None = None
    for ply, step in enumerate(steps):
        if starts_turn(step.seat, step.kind, before):
            turns.append(Turn(step.seat, ply, (step,)))
        else:
            last = turns[-1]
            turns[-1] = Turn(last.seat, last.start, (*last.steps, step))
        before = (step.seat, step.kind)
    return turns


def count_turns(moves: Iterable[tuple[int, str]]) -> int:
    """How many turns the steps ``moves`` (seat and kind, in ply order) make."""
    count, before = 0, None
    for seat, kind in moves:
        count += starts_turn(seat, kind, before)
        before = (seat, kind)
    return count


@dataclass(frozen=True)
class ReplayNav:
    """Where the replay stands and goes: ``shown`` turns of ``count`` are played in the
    position shown (``steps_into`` more steps of the next turn, when a page asks for a ply
    inside a turn); first, prev, next and last are the plies to link to (None: no link)."""

    shown: int
    count: int
    steps_into: int
    first: int | None
    prev: int | None
    next: int | None
    last: int | None
    slider_name: str

    @classmethod
    def of(cls, turns: Sequence[Turn], shown_ply: int) -> ReplayNav:
        """The navigation over the positions after each of ``turns``, shown at ``shown_ply``."""
        ends = [0, *(turn.end for turn in turns)]
        done = [end for end in ends if end <= shown_ply]
        earlier = [end for end in done if end < shown_ply]
        later = [end for end in ends if end > shown_ply]
        one_step_each = all(len(turn.steps) == 1 for turn in turns)
        return cls(
            shown=len(done) - 1,
            count=len(turns),
            steps_into=shown_ply - done[-1],
            first=0 if shown_ply > 0 else None,
            prev=earlier[-1] if earlier else None,
            next=later[0] if later else None,
            last=ends[-1] if later else None,
            # the slider counts plies while each turn is one step (the same numbers)
            slider_name="ply" if one_step_each else "turn",
        )


def ply_of_turn(turns: Sequence[Turn], number: int) -> int:
    """The ply after turn ``number`` (0: the start); ValueError if the game has no such turn."""
    if not 0 <= number <= len(turns):
        raise ValueError(f"turn {number} is outside this game: expected 0 to {len(turns)}.")
    return turns[number - 1].end if number else 0
