"""Ratings from finishing orders of two or more players: the Plackett-Luce model of the
``openskill`` package (Weng and Lin's Bayesian approximation), pure Python.

Every kind outside ``rankings.conf.ELO_KINDS`` is rated here, two-seat games included, so one
list holds all games of a kind. A player's skill is a normal belief (``mu``, ``sigma``); the
rating people see is the conservative estimate ``mu - 3 sigma`` (openskill's ordinal) on an
Elo-like scale (`SkillParams`). Like ``history``, this is the one code path that turns
finishing orders into ratings, so the same history always gives the same floats.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cache
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True, slots=True)
class SkillParams:
    """How the ordinal ``mu - 3 sigma`` is shown: ``start + scale * ordinal``. A new player
    (ordinal 0) shows ``start``; with openskill's beta of 25/6, one beta of skill is about
    ``scale * 4.2`` points, close to Elo's logistic unit of 174 for the default 40."""

    display_start: float = 1500.0
    display_scale: float = 40.0


@cache
def _model() -> PlackettLuce:
    """openskill's Plackett-Luce model with its published defaults (mu 25, sigma 25/3)."""
    return PlackettLuce()


@dataclass(frozen=True, slots=True)
class SkillState:
    """Everything the next rating update of a player depends on, and what the list shows."""

    mu: float
    sigma: float
    games: int = 0
    last_played: date | None = None

    @classmethod
    def new(cls) -> SkillState:
        model = _model()
        return cls(mu=model.mu, sigma=model.sigma)

    def display(self, params: SkillParams) -> float:
        """The rating as people see it (openskill's ordinal, scaled)."""
        return params.display_start + params.display_scale * (self.mu - 3.0 * self.sigma)


@dataclass(frozen=True, slots=True)
class FinishRecord(Generic[K]):
    """One rated game: its players (any hashable keys, in seat order), each one's finishing
    place (1 = first; equal places are a tie) and the UTC date."""

    players: tuple[K, ...]
    places: tuple[int, ...]
    played_on: date


@dataclass(frozen=True, slots=True)
class FinishStep(Generic[K]):
    """One replayed game with its players' states before and after it (in seat order)."""

    record: FinishRecord[K]
    before: tuple[SkillState, ...]
    after: tuple[SkillState, ...]


def check_finish(players: Sequence[object], places: Sequence[int]) -> None:
    """Raise ValueError unless ``places`` is a finishing order of ``players``: at least two
    different players, one whole place of 1 or more each."""
    if len(players) < 2:
        raise ValueError(f"a finishing order needs at least two players, not {len(players)}")
    if len(places) != len(players):
        raise ValueError(f"{len(players)} players need {len(players)} places, not {len(places)}")
    if len(set(players)) != len(players):
        raise ValueError(f"a player cannot finish twice in one game: {list(players)!r}")
    if any(not isinstance(place, int) or place < 1 for place in places):
        raise ValueError(f"places must be whole numbers from 1, not {list(places)!r}")


def rate_finish(
    *, states: Sequence[SkillState], places: Sequence[int], played_on: date
) -> tuple[SkillState, ...]:
    """Each player's state after one game, from their states before it and their places."""
    if len(states) != len(places):
        raise ValueError(f"{len(states)} players need {len(states)} places, not {len(places)}")
    model = _model()
    teams = [[model.rating(mu=state.mu, sigma=state.sigma)] for state in states]
    rated = model.rate(teams, ranks=[float(place) for place in places])
    return tuple(
        SkillState(mu=team[0].mu, sigma=team[0].sigma, games=state.games + 1, last_played=played_on)
        for team, state in zip(rated, states, strict=True)
    )


def share_beaten(places: Sequence[int], index: int) -> float:
    """How much of the field player ``index`` beat: 1 for a win over everyone, 0 for last,
    a tie counting half (for two players: 1 win, 0.5 draw, 0 loss)."""
    own = places[index]
    others = [place for i, place in enumerate(places) if i != index]
    beaten = sum(1.0 if own < place else 0.5 if own == place else 0.0 for place in others)
    return beaten / len(others)


def replay_finish_steps(
    records: Iterable[FinishRecord[K]], *, states: dict[K, SkillState] | None = None
) -> Iterator[FinishStep[K]]:
    """Apply ``records`` in the order given, yielding each game's before/after states.

    ``states`` (updated in place) holds the players' states before the first record;
    players not in it start fresh.
    """
    if states is None:
        states = {}
    for record in records:
        check_finish(record.players, record.places)
        before = tuple(states.get(player) or SkillState.new() for player in record.players)
        after = rate_finish(states=before, places=record.places, played_on=record.played_on)
        states.update(zip(record.players, after, strict=True))
        yield FinishStep(record, before, after)


def replay_finish(records: Iterable[FinishRecord[K]]) -> dict[K, SkillState]:
    """Every player's state after replaying ``records`` from scratch, in the order given."""
    states: dict[K, SkillState] = {}
    for _ in replay_finish_steps(records, states=states):
        pass
    return states
