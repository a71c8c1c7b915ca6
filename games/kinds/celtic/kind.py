"""Celtic! behind the kinds contract (``games.kinds.base``): two seats, Orange then Blue."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from games.kinds.base import (
    Chance,
    ChoiceNotationError,
    Departure,
    FinishingOrder,
    GameKind,
    Holding,
    IllegalChoiceError,
    KindError,
    Options,
    SeatRange,
    State,
    Step,
    StepKind,
)
from games.kinds.celtic.errors import IllegalMoveError, NotationError, Rule
from games.kinds.celtic.notation import Forfeit, Move, Pass, Turn
from games.kinds.celtic.record import GameRecord
from games.kinds.celtic.render import describe_result, last_placed, render_state
from games.kinds.celtic.scoring import RESULT_TEXTS
from games.kinds.celtic.state import GameState, Variant
from games.kinds.celtic.svg import board_svg, knot_strand_colours
from games.kinds.celtic.tiles import PLAYERS, Colour

SEAT_OF: dict[Colour, int] = {Colour.ORANGE: 1, Colour.BLUE: 2}
COLOUR_OF: dict[int, Colour] = {1: Colour.ORANGE, 2: Colour.BLUE}
_FIRST: dict[str, FinishingOrder] = {
    RESULT_TEXTS[Colour.ORANGE]: (frozenset({1}), frozenset({2})),
    RESULT_TEXTS[Colour.BLUE]: (frozenset({2}), frozenset({1})),
    RESULT_TEXTS[None]: (frozenset({1, 2}),),
}


def variant_of(options: Options | None) -> Variant:
    return Variant(window_forfeit=bool((options or {}).get("window_forfeit", False)))


def turn_to_step(turn: Turn) -> Step:
    """The stored step of an engine turn (a pass or forfeit names its own player)."""
    if isinstance(turn, Pass):
        return Step(SEAT_OF[turn.player], StepKind.PASS)
    if isinstance(turn, Forfeit):
        return Step(SEAT_OF[turn.player], StepKind.FORFEIT, str(turn.move))
    return Step(0, StepKind.MOVE, str(turn))


def step_to_turn(step: Step) -> Turn:
    """The engine turn a stored step records."""
    player = COLOUR_OF[step.seat]
    if step.kind == StepKind.PASS:
        return Pass(player)
    move = Move.parse(step.notation)
    if step.kind == StepKind.FORFEIT:
        return Forfeit(player, move)
    return move


class CelticState(State):
    """A Celtic! position: ``GameState`` seen through the contract."""

    __slots__ = ("_ended", "engine")

    def __init__(self, engine: GameState) -> None:
        self.engine = engine
        self._ended: FinishingOrder | None = None  # by a resignation or a time-out

    @property
    def seat_count(self) -> int:
        return 2

    @property
    def to_act(self) -> int | None:
        mover = None if self._ended else self.engine.to_move
        return SEAT_OF[mover] if mover else None

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(_with_seats(self.engine.history))

    def legal_choices(self) -> list[str]:
        return [] if self._ended else [str(move) for move in self.engine.legal_moves()]

    def play(self, choice: str) -> list[Step]:
        if self.is_over():
            raise KindError("The game is over: no more moves.")
        before = self.engine.ply
        try:
            self.engine.apply(choice)
        except NotationError as error:
            raise ChoiceNotationError(str(error)) from error
        except IllegalMoveError as error:
            raise IllegalChoiceError(str(error), rule=error.rule.value) from error
        return list(_with_seats(self.engine.history, start=before))

    def leave(self, seat: int, how: Departure) -> list[Step]:
        """Either player leaving ends the game: the other wins."""
        self._ended = (frozenset({3 - seat}), frozenset({seat}))
        return []

    def is_over(self) -> bool:
        return self._ended is not None or self.engine.is_over()

    def finishing_order(self) -> FinishingOrder | None:
        if self._ended is not None:
            return self._ended
        if not self.engine.is_over():
            return None
        return _FIRST[self.engine.result().text]


def _with_seats(turns: Sequence[Turn], start: int = 0) -> list[Step]:
    """Steps of ``turns[start:]``; a played move belongs to the player of its ply."""
    steps = []
    for ply in range(start, len(turns)):
        step = turn_to_step(turns[ply])
        if step.seat == 0:
            step = Step(SEAT_OF[PLAYERS[ply % 2]], step.kind, step.notation)
        steps.append(step)
    return steps


class CelticKind(GameKind):
    """Cameron Browne's tile game for two."""

    id = "celtic"
    name = "Celtic!"
    rules_version = "1"
    seats = SeatRange(2, 2)
    has_chance = False
    option_names = ("window_forfeit",)
    notation_help = (
        "Write a move as its cell, its open sides in N E S W order and an optional n for a "
        "neutral tile, like 'f5 NE' or 'd5 NESW n'."
    )

    def seat_names(self, count: int) -> list[str]:
        self.check_seat_count(count)
        return ["Orange", "Blue"]

    def new_state(
        self, seat_count: int = 2, *, options: Options | None = None, chance: Chance | None = None
    ) -> CelticState:
        self.check_seat_count(seat_count)
        return CelticState(GameState.new(variant_of(options)))

    def replay(
        self,
        seat_count: int,
        steps: Sequence[Step],
        *,
        options: Options | None = None,
        chance: Chance | None = None,
    ) -> CelticState:
        self.check_seat_count(seat_count)
        try:
            turns = [step_to_turn(step) for step in steps]
            return CelticState(GameState.replay(turns, variant=variant_of(options)))
        except (IllegalMoveError, NotationError) as error:
            raise KindError(str(error)) from error

    def result_text(self, order: FinishingOrder) -> str:
        for text, known in _FIRST.items():
            if known == order:
                return text
        raise KindError(f"Not a finishing order of Celtic!'s two seats: {order}.")

    def order_from_result(self, text: str, seat_count: int = 2) -> FinishingOrder:
        try:
            return _FIRST[text]
        except KeyError:
            raise KindError(
                f"Unknown Celtic! result {text!r}: expected '1-0', '0-1' or '1/2-1/2'."
            ) from None

    def record_text(self, state: State, headers: Mapping[str, str]) -> str:
        return _record(state, headers).to_text()

    def record_data(self, state: State, headers: Mapping[str, str]) -> dict[str, object]:
        return _record(state, headers).to_dict()

    def svg(self, state: State, *, viewer_seat: int | None = None) -> str:
        engine = _engine(state)
        data = position_data(engine)
        last = last_placed(engine)
        return board_svg(
            tiles=data["tiles"],  # type: ignore[arg-type]
            demand_cells=data["demand_cells"],  # type: ignore[arg-type]
            knot_colours=knot_strand_colours(engine.result().knots),
            last_cell=str(last) if last else None,
        )

    def text(self, state: State) -> str:
        return render_state(_engine(state))

    def position_data(self, state: State) -> dict[str, object]:
        return position_data(_engine(state))

    def rule_explanation(self, rule: str) -> str:
        """What the rule ``rule`` (a ``Rule`` value: ``window``, ``mismatch``...) says."""
        try:
            return Rule(rule).explanation
        except ValueError:
            return ""

    def result_words(self, state: State) -> str:
        """The board's result with its knots and both score lists, once the board is over."""
        engine = _engine(state)
        return describe_result(engine.result()) if engine.is_over() else ""

    def final_summary(self, state: State) -> dict[str, object]:
        """The closed knots (each one's size and what it scores for each colour) and each
        colour's knot scores, best first, as text (``none`` for no score)."""
        result = _engine(state).result()
        return {
            "knots": [
                {"size": len(knot.cells), "orange": knot.orange, "blue": knot.blue}
                for knot in result.knots
            ],
            "orange_scores": _scores_text(result.score.orange),
            "blue_scores": _scores_text(result.score.blue),
        }

    def holdings(
        self, state: State, *, viewer_seat: int | None, player_name: Callable[[int], str]
    ) -> tuple[str, list[Holding]]:
        """The tiles left in each supply: the viewer's (``You (Orange)``), the opponent's,
        then the neutral one, e.g. ``Holding("You (Orange)", 12, "C2 T3 S3 B2 K2")``."""
        engine = _engine(state)
        order = sorted(Colour, key=lambda c: (c not in SEAT_OF, SEAT_OF.get(c) != viewer_seat))
        return "Tiles left", [_supply_line(engine, colour, viewer_seat) for colour in order]


def _scores_text(scores: Sequence[int]) -> str:
    """Knot scores as the emails list them: ``5, 3``, or ``none``."""
    return ", ".join(map(str, scores)) or "none"


def _supply_line(engine: GameState, colour: Colour, viewer_seat: int | None) -> Holding:
    shapes = engine.supply(colour)
    seat = SEAT_OF.get(colour)
    name = colour.value.title()
    if seat is not None:
        name = f"{'You' if seat == viewer_seat else 'Opponent'} ({name})"
    detail = " ".join(f"{shape.letter}{n}" for shape, n in shapes.items() if n)
    return Holding(name, sum(shapes.values()), detail)


def _record(state: State, headers: Mapping[str, str]) -> GameRecord:
    """The record of ``state``; its result is the ``Result`` header when given (a game ended
    by resignation, time or a moderator), else the board's."""
    return GameRecord.from_state(
        _engine(state), headers=dict(headers), result=headers.get("Result")
    )


def _engine(state: State) -> GameState:
    if not isinstance(state, CelticState):
        raise KindError(f"Not a Celtic! position: {state!r}.")
    return state.engine


def position_data(state: GameState) -> dict[str, object]:
    """The position as plain data for the API and the board page."""
    result = state.result()
    return {
        "ply": state.ply,
        "to_move": state.to_move.value if state.to_move else None,
        "is_over": state.is_over(),
        "tiles": [
            {
                "cell": str(tile.cell),
                "sides": tile.orientation.sides_text,
                "shape": tile.shape.letter,
                "colour": tile.colour.value,
            }
            for tile in state.tiles
        ],
        "demand_cells": [str(cell) for cell in state.demand_cells()],
        "supply": {
            colour.value: {shape.letter: count for shape, count in state.supply(colour).items()}
            for colour in Colour
        },
        "knots": [
            {"cells": [str(c) for c in knot.cells], "orange": knot.orange, "blue": knot.blue}
            for knot in result.knots
        ],
        "scores": {"orange": list(result.score.orange), "blue": list(result.score.blue)},
        "board_result": result.text,
    }


KIND = CelticKind()
