"""Celtic Knot behind the kinds contract (``games.kinds.base``): 2 to 6 seats, flips by chance."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from games.kinds.base import (
    Chance,
    FinishingOrder,
    GameKind,
    Holding,
    KindError,
    Options,
    SeatRange,
    State,
    Step,
    StepKind,
)
from games.kinds.knot.record import order_from_result, record_text, result_text
from games.kinds.knot.render import board_svg, board_text, position_data
from games.kinds.knot.replies import (
    choice_prompt,
    choice_report,
    coins_left,
    pending_flips,
    pending_line,
)
from games.kinds.knot.state import KnotState, replay_steps

SEAT_NAMES = ("Red", "Blue", "Green", "Yellow", "Purple", "Orange")
"""Seat colours, seat 1 first."""


class KnotKind(GameKind):
    """Jonathan A. Leistiko's race game for 2 to 6 players, with coin flips."""

    id = "knot"
    name = "Celtic Knot"
    rules_version = "1"
    seats = SeatRange(2, 6)
    has_chance = True
    notation_help = (
        "Name a square holding your coins, like 'a1' (a lower space is its crossing and u, "
        "like 'c5u'); after the flips, name the destination square."
    )

    def seat_names(self, count: int) -> list[str]:
        self.check_seat_count(count)
        return list(SEAT_NAMES[:count])

    def new_state(
        self, seat_count: int, *, options: Options | None = None, chance: Chance | None = None
    ) -> KnotState:
        self.check_seat_count(seat_count)
        if chance is None:
            raise KindError(
                "Celtic Knot flips coins: a new game needs a chance source (a SeededChance)."
            )
        return KnotState(seat_count, chance)

    def replay(
        self,
        seat_count: int,
        steps: Sequence[Step],
        *,
        options: Options | None = None,
        chance: Chance | None = None,
    ) -> KnotState:
        """The state after ``steps``, checked; with ``chance`` it can be played on."""
        self.check_seat_count(seat_count)
        return replay_steps(seat_count, steps, chance)

    def result_text(self, order: FinishingOrder) -> str:
        return result_text(order)

    def order_from_result(self, text: str, seat_count: int) -> FinishingOrder:
        return order_from_result(text, seat_count)

    def seat_headers(self, usernames: Sequence[str]) -> dict[str, str]:
        """``Seat1 "alice red"``, ... as KNOT-RULES.md's record has them."""
        return {
            f"Seat{seat}": f"{name} {colour.lower()}"
            for seat, (name, colour) in enumerate(zip(usernames, SEAT_NAMES, strict=False), 1)
        }

    def chance_headers(self, commitment: str, seed: str | None) -> dict[str, str]:
        headers = {"FlipCommit": commitment}
        return headers if seed is None else {**headers, "FlipSeed": seed}

    def record_text(self, state: State, headers: Mapping[str, str]) -> str:
        return record_text(_knot(state), headers)

    def svg(self, state: State, *, viewer_seat: int | None = None) -> str:
        return board_svg(_knot(state), SEAT_NAMES, viewer_seat=viewer_seat)

    def text(self, state: State) -> str:
        return board_text(_knot(state), SEAT_NAMES)

    def position_data(self, state: State) -> dict[str, object]:
        return position_data(_knot(state), SEAT_NAMES)

    def pending_chance(self, state: State) -> str:
        return pending_flips(_knot(state))

    def pending_choice_line(self, state: State) -> str:
        return pending_line(_knot(state))

    def choice_prompt(self, state: State) -> str:
        return choice_prompt(_knot(state))

    def choice_report(self, before: State, after: State, seat: int) -> list[str]:
        return choice_report(_knot(before), _knot(after), seat)

    def final_summary(self, state: State) -> dict[str, object]:
        """Each seat's coins left on the board and their total distance to the exit, seat 1
        first (``left``: the seat left the game, and its coins the board); empty before any
        move, when there is nothing to tell."""
        knot = _knot(state)
        if not any(step.kind == StepKind.MOVE for step in knot.steps):
            return {}
        core = knot.core
        return {
            "seats": [
                {
                    "name": SEAT_NAMES[seat],
                    "coins": core.coins[seat],
                    "distance": core.distance(seat),
                    "left": not core.playing[seat],
                }
                for seat in range(core.seat_count)
            ]
        }

    def turn_number(self, state: State) -> int | None:
        return _knot(state).core.turns + 1

    def holdings(
        self, state: State, *, viewer_seat: int | None, player_name: Callable[[int], str]
    ) -> tuple[str, list[Holding]]:
        knot = _knot(state)
        names = SEAT_NAMES[: knot.seat_count]
        return "Coins left", coins_left(
            knot, names, viewer_seat=viewer_seat, player_name=player_name
        )


def _knot(state: State) -> KnotState:
    if not isinstance(state, KnotState):
        raise KindError(f"Not a Celtic Knot position: {state!r}.")
    return state


KIND = KnotKind()
