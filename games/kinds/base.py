"""The contract between the platform and a game kind: pure Python, no Django.

A *kind* is one game the platform can host (Celtic!, Celtic Knot ...). The platform (services,
clocks, emails, API, pages, rankings, competitions) knows a game only through this contract:

* a ``GameKind`` describes the game (id, name, rules version, seats, chance) and makes states;
* a ``State`` is one position: who acts next, the legal choices, playing one, a seat leaving,
  the end and the **finishing order** of the seats;
* every change of a state is a list of ``Step`` values, which the platform stores one row
  each. Replaying the steps rebuilds the state; they are the game's only source of truth, and
  a chance outcome is written into its step, so a replay needs no chance source.

Seats are numbered from 1 in play order. Notation (parsing and writing choices) is the kind's
own: the platform passes choices through as text and shows the kind's messages when one is
refused.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

Options = Mapping[str, object]
"""A kind's variant options for one game, e.g. Celtic!'s ``{"window_forfeit": True}``."""

FinishingOrder = tuple[frozenset[int], ...]
"""Seats from first place to last; seats in one group share that place (a draw)."""


class KindError(ValueError):
    """A choice, step or record the rules refuse; the message says what and why."""


class ChoiceNotationError(KindError):
    """Text that is not a choice in the kind's notation (``GameKind.notation_help`` says how
    to write one)."""


class IllegalChoiceError(KindError):
    """A well-formed choice the rules forbid now; ``rule`` names the rule, when known."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule


class StepKind(StrEnum):
    """What a stored step records."""

    MOVE = "move"  # a seat's choice (with any chance outcome it revealed)
    PASS = "pass"  # a turn passed automatically (no notation)
    FORFEIT = "forfeit"  # a choice played but forfeited under a variant rule
    LEAVE = "leave"  # a seat left (resigned, timed out) and the others play on


@dataclass(frozen=True, slots=True)
class Step:
    """One stored row of a game: the seat it belongs to, what it is, its notation."""

    seat: int
    kind: StepKind
    notation: str = ""


class Departure(StrEnum):
    """How a seat leaves a game before its end."""

    RESIGN = "resign"
    TIMEOUT = "timeout"


class Chance(Protocol):
    """Where a kind with chance takes its randomness from: passed in, never a global."""

    def draw(self, index: int) -> bytes:
        """32 bytes for the ``index``-th chance event of the game (1, 2, ...)."""
        ...


@dataclass(frozen=True)
class SeededChance:
    """Chance derived from a secret seed: event m draws SHA-256(seed + ":" + m).

    Publishing ``commitment`` before the first draw and the seed after the end lets anyone
    check every outcome, and no one can know one in advance.
    """

    seed: bytes

    def draw(self, index: int) -> bytes:
        return hashlib.sha256(self.seed + b":" + str(index).encode("ascii")).digest()

    @property
    def commitment(self) -> str:
        return hashlib.sha256(self.seed).hexdigest()


@dataclass(frozen=True)
class SeatRange:
    """How many seats a game of the kind may have."""

    min: int
    max: int

    def __contains__(self, count: object) -> bool:
        return isinstance(count, int) and self.min <= count <= self.max


class State(ABC):
    """One position of a game of some kind."""

    @property
    @abstractmethod
    def seat_count(self) -> int:
        """The number of seats in this game."""

    @property
    @abstractmethod
    def to_act(self) -> int | None:
        """The seat who decides next, or None when the game is over."""

    @property
    @abstractmethod
    def steps(self) -> tuple[Step, ...]:
        """Every step so far, in order: replaying them gives this state."""

    @abstractmethod
    def legal_choices(self) -> list[str]:
        """The choices the seat to act may make now, in the kind's notation."""

    @abstractmethod
    def play(self, choice: str) -> list[Step]:
        """Play ``choice`` for the seat to act; the steps it added (automatic ones included).

        Raises ``KindError`` saying why when the text does not parse or the rules forbid it.
        """

    @abstractmethod
    def leave(self, seat: int, how: Departure) -> list[Step]:
        """``seat`` resigns or times out; the steps it added (a kind may record none when
        that ends the game, as Celtic! does: its result says it).

        Afterwards ``is_over`` and ``finishing_order`` tell whether the others play on.
        """

    @abstractmethod
    def is_over(self) -> bool:
        """Whether the game has ended (by play, or by seats leaving)."""

    @abstractmethod
    def finishing_order(self) -> FinishingOrder | None:
        """The seats from first place to last once over; None while the game goes on."""


@dataclass(frozen=True, slots=True)
class Holding:
    """One line of what is left to play with: a seat's, or a supply no seat owns."""

    name: str
    """Whose, as the player reads it: ``You (Orange)``, ``2 Blue, ann``, ``Neutral``."""
    count: int
    detail: str = ""
    """What the count is made of (``C2 T3 S3``), or why it stays (``left the game``)."""


class GameKind(ABC):
    """A game the platform can host."""

    id: str
    name: str
    rules_version: str
    seats: SeatRange
    has_chance: bool = False
    option_names: tuple[str, ...] = ()
    notation_help: str = ""
    """How to write a choice, for the message that refuses one that does not parse."""

    @abstractmethod
    def seat_names(self, count: int) -> list[str]:
        """The names of ``count`` seats, seat 1 first (Celtic!: Orange, Blue)."""

    @abstractmethod
    def new_state(
        self, seat_count: int, *, options: Options | None = None, chance: Chance | None = None
    ) -> State:
        """The start position; ``chance`` is required when ``has_chance``."""

    @abstractmethod
    def replay(
        self,
        seat_count: int,
        steps: Sequence[Step],
        *,
        options: Options | None = None,
        chance: Chance | None = None,
    ) -> State:
        """The state after ``steps``; ``KindError`` names the first step the rules refuse.

        The outcomes of chance are in the steps; ``chance`` is what the state draws from when
        play goes on (a kind with chance refuses to go on without one)."""

    @abstractmethod
    def result_text(self, order: FinishingOrder) -> str:
        """A finishing order as the kind writes results (Celtic!: ``1-0``, ``1/2-1/2``)."""

    @abstractmethod
    def order_from_result(self, text: str, seat_count: int) -> FinishingOrder:
        """The finishing order ``result_text`` wrote; ``KindError`` for anything else."""

    @abstractmethod
    def record_text(self, state: State, headers: Mapping[str, str]) -> str:
        """The game's record in the kind's own format (the download and the email)."""

    def seat_headers(self, usernames: Sequence[str]) -> dict[str, str]:
        """A record's headers naming the players, seat 1 first (default: by seat name)."""
        return dict(zip(self.seat_names(len(usernames)), usernames, strict=True))

    def chance_headers(self, commitment: str, seed: str | None) -> dict[str, str]:
        """A record's headers for its chance: the commitment, and the seed once revealed."""
        headers = {"ChanceCommit": commitment}
        return headers if seed is None else {**headers, "ChanceSeed": seed}

    def record_data(self, state: State, headers: Mapping[str, str]) -> dict[str, object]:
        """The record as JSON-able data: the headers and every step (a kind may say more)."""
        return {
            "headers": dict(headers),
            "steps": [
                {"seat": step.seat, "kind": step.kind.value, "notation": step.notation}
                for step in state.steps
            ],
        }

    @abstractmethod
    def svg(self, state: State, *, viewer_seat: int | None = None) -> str:
        """The position drawn as inline SVG (emails turn it into PNG)."""

    @abstractmethod
    def text(self, state: State) -> str:
        """The position drawn as plain text (terminals and plain-text emails)."""

    @abstractmethod
    def position_data(self, state: State) -> dict[str, object]:
        """The position as plain data for the API and the kind's page script."""

    # --- words for players (emails, the API): defaults for a kind whose reply is a whole turn

    def pending_chance(self, state: State) -> str:
        """The chance outcome the pending choice depends on, in the kind's notation (Celtic
        Knot: the flips ``HT`` of a stack waiting for its destination); empty when none."""
        return ""

    def pending_choice_line(self, state: State) -> str:
        """What the seat to act drew and must now choose, said to that seat (Celtic Knot:
        ``You flipped H T: 3. Reply with your destination: c3, e1.``); empty when none."""
        return ""

    def choice_prompt(self, state: State) -> str:
        """What the seat to act names in its reply when a turn takes several choices
        (``reply with your destination: c3, e1``); empty when one reply is a whole move."""
        return ""

    def choice_report(self, before: State, after: State, seat: int) -> list[str]:
        """What ``seat``'s choice played from ``before`` to ``after`` gave, one sentence a line
        (the flips a square gave, an extra move earned); empty when the choice says it all."""
        return []

    def rule_explanation(self, rule: str) -> str:
        """The rule an ``IllegalChoiceError.rule`` names, in words a player can act on; empty
        for a rule the kind does not explain."""
        return ""

    def result_words(self, state: State) -> str:
        """The result of a game over on the board, said in full (Celtic!: the result with
        its knots and scores); empty when ``result_text`` says it all."""
        return ""

    def final_summary(self, state: State) -> dict[str, object]:
        """What the game-finished email says of the last position, as plain JSON-able data
        for the kind's email partial (Celtic!: the closed knots and both score lists; Celtic
        Knot: each seat's coins left and their distance); empty to say nothing."""
        return {}

    def turn_number(self, state: State) -> int | None:
        """The number of the turn now (the first is 1), for a kind whose turn may take
        several steps (Celtic Knot); None when every step is a turn of its own."""
        return None

    def holdings(
        self, state: State, *, viewer_seat: int | None, player_name: Callable[[int], str]
    ) -> tuple[str, list[Holding]]:
        """What is left to play with, said to ``viewer_seat`` (``player_name(seat)`` names
        a seat's player): a title (Celtic!: ``Tiles left``) and a line a seat, or a supply
        no seat owns; ``("", [])`` for a kind that counts nothing."""
        return "", []

    def check_seat_count(self, count: int) -> None:
        """Raise ``KindError`` unless a game of this kind may have ``count`` seats."""
        if count not in self.seats:
            raise KindError(
                f"{self.name} is played by {_seat_range_text(self.seats)}, not {count}."
            )


def _seat_range_text(seats: SeatRange) -> str:
    if seats.min == seats.max:
        return f"{seats.min} players"
    return f"{seats.min} to {seats.max} players"
