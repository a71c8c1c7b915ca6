"""What the Dutch rules read from a player's past rounds (C.04.3 articles 1.2-1.7).

Scores (with optional Baku acceleration points, C.04.5), colour differences and preferences
(1.6-1.7), floats (1.4) and eligibility for the pairing-allocated bye (C2), derived once per
round from the shared :class:`PlayerRecord` so the pairing code never looks at outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from tournaments.standings.records import Colour, Outcome, PlayerRecord, PointSystem


class Float(Enum):
    """A player's float in one past round (article 1.4)."""

    DOWN = "D"
    UP = "U"
    NONE = ""


@dataclass(frozen=True)
class PastRound:
    """One past round of one player, as the pairing rules see it."""

    points: Fraction
    played: bool  # a game really played over the board (forfeits are not)
    opponent: int | None  # for played games only
    colour: Colour | None  # for played games only
    pairing_bye: bool  # the pairing-allocated bye (or a forfeit win with no opponent)
    participated: bool  # the player took part in that round's pairing


@dataclass
class PlayerState:
    """A player to be paired this round, with everything the criteria compare."""

    number: int
    rank: int  # effective pairing number, 0-based among the event's players (1.2.2)
    past: tuple[PastRound, ...]
    score: Fraction  # real points, for board order
    accelerated: tuple[Fraction, ...]  # virtual points per round (round 1 first), maybe empty
    colour_difference: int = 0  # whites minus blacks (1.6.1)
    repeated_colour: Colour | None = None  # the colour of the last two games, if the same
    preference: Colour | None = None
    played_games: int = 0
    bye_eligible: bool = True
    _scores: dict[int, Fraction] = field(default_factory=dict, repr=False, compare=False)

    def pairing_score(self, rounds_back: int = 0) -> Fraction:
        """The score the brackets use: real points plus acceleration, ``rounds_back`` ago."""
        score = self._scores.get(rounds_back)
        if score is None:
            score = self._scores[rounds_back] = self._pairing_score(rounds_back)
        return score

    def _pairing_score(self, rounds_back: int) -> Fraction:
        played_rounds = len(self.past)
        score = self.score - sum(
            (r.points for r in self.past[played_rounds - rounds_back :]), Fraction(0)
        )
        round_index = played_rounds - rounds_back
        bonus = self.accelerated[round_index] if round_index < len(self.accelerated) else 0
        return score + bonus

    @property
    def imbalance(self) -> int:
        return abs(self.colour_difference)

    @property
    def absolute_imbalance(self) -> bool:
        """The colour difference is beyond ±1 (1.7.1)."""
        return self.imbalance > 1

    @property
    def absolute_preference(self) -> bool:
        """Beyond ±1, or the same colour in the two latest played games (1.7.1)."""
        return self.absolute_imbalance or self.repeated_colour is not None

    @property
    def strong_preference(self) -> bool:
        """A colour difference of ±1 without an absolute preference (1.7.2)."""
        return not self.absolute_preference and self.imbalance > 0


def past_round(record: PlayerRecord, round_number: int, points: PointSystem) -> PastRound:
    """Read round ``round_number`` of ``record``; a missing round counts as not paired."""
    found = [r for r in record.rounds if r.round == round_number]
    if not found:
        return PastRound(Fraction(0), False, None, None, False, False)
    entry = found[0]
    played = entry.outcome.played_over_board and entry.opponent is not None
    bye = entry.outcome is Outcome.PAIRING_BYE or (
        entry.outcome is Outcome.FORFEIT_WIN and entry.opponent is None
    )
    return PastRound(
        points=points.points(entry.outcome),
        played=played,
        opponent=entry.opponent if played else None,
        colour=entry.colour if played else None,
        pairing_bye=bye,
        participated=entry.opponent is not None or bye,
    )


def build_state(
    record: PlayerRecord,
    *,
    rank: int,
    played_rounds: int,
    points: PointSystem,
    acceleration: Sequence[Fraction] = (),
) -> PlayerState:
    """The pairing view of one player before round ``played_rounds + 1``."""
    past = tuple(past_round(record, r, points) for r in range(1, played_rounds + 1))
    state = PlayerState(
        number=record.number,
        rank=rank,
        past=past,
        score=sum((r.points for r in past), Fraction(0)),
        accelerated=tuple(acceleration),
    )
    _set_colours(state)
    state.bye_eligible = not any(
        not r.played and (r.points >= points.win or r.pairing_bye) for r in past
    )
    return state


def _set_colours(state: PlayerState) -> None:
    """Colour difference, the repeated colour and the preference (1.6, 1.7)."""
    colours = [r.colour for r in state.past if r.played and r.colour is not None]
    whites = colours.count(Colour.ORANGE)
    blacks = len(colours) - whites
    state.played_games = len(colours)
    state.colour_difference = whites - blacks
    streak = 0
    for colour in reversed(colours):
        if colour is not colours[-1]:
            break
        streak += 1
    lower = Colour.BLUE if whites > blacks else Colour.ORANGE
    if state.imbalance > 1:
        state.preference = lower
    elif streak > 1:
        state.preference = colours[-1].other
    elif state.imbalance > 0:
        state.preference = lower
    elif colours:
        state.preference = colours[-1].other
    state.repeated_colour = colours[-1] if streak > 1 else None


def float_of(
    state: PlayerState, rounds_back: int, by_number: Mapping[int, PlayerState], points: PointSystem
) -> Float:
    """The float ``state`` received ``rounds_back`` rounds ago (1.4.2, 1.4.3)."""
    entry = state.past[len(state.past) - rounds_back]
    if not entry.played or entry.opponent is None:
        return Float.DOWN if entry.points > points.loss else Float.NONE
    opponent = by_number.get(entry.opponent)
    if opponent is None:  # an opponent no longer listed: their score is unknown
        return Float.NONE
    mine = state.pairing_score(rounds_back)
    theirs = opponent.pairing_score(rounds_back)
    if mine > theirs:
        return Float.DOWN
    return Float.UP if mine < theirs else Float.NONE
