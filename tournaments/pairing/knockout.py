"""Knockout (single elimination): the seeded bracket and the rules of a match.

Bracket. Seeds are 1 (highest) to n: seed k is ``seed_order(players)[k - 1]``. The bracket
has room for the next power of two; the empty places are byes and fall to the top seeds.
Standard placement: in the first round seed 1 meets the lowest seed, 2 the second lowest,
and so on, placed so that 1 and 2 can only meet in the final, 1 to 4 not before the
semi-finals, 1 to 8 not before the quarter-finals.

Match. A match is a pair of games started at once, one with each colour. A player who scores
more over the pair wins. A tied pair is followed by another pair (again one game with each
colour), up to ``max_extra_pairs`` extra pairs; a match still tied after them is settled as
the organiser chose: the higher seed goes through, more pairs are played until one of them
is not tied, or the organiser decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from tournaments.pairing.base import Pair, PairingError

GAMES_PER_PAIR = 2
GAME_SCORES = frozenset({Fraction(0), Fraction(1, 2), Fraction(1)})


@dataclass(frozen=True)
class BracketMatch:
    """A match of a knockout round, by seed; ``lower_seed`` is None when it is a bye."""

    higher_seed: int
    lower_seed: int | None = None

    @property
    def is_bye(self) -> bool:
        return self.lower_seed is None


def knockout_rounds(entrants: int) -> int:
    """How many rounds a knockout of ``entrants`` players takes (the final included)."""
    _check_entrants(entrants)
    return (entrants - 1).bit_length()


def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds in bracket order for a bracket of ``size`` places (a power of two).

    Consecutive places meet in the first round: for 8, (1, 8, 4, 5, 2, 7, 3, 6).
    """
    if size < 2 or size & (size - 1):
        raise PairingError(f"A bracket has a power of two places (2, 4, 8, ...), not {size}.")
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for top in order for seed in (top, places + 1 - top)]
    return tuple(order)


def knockout_bracket(entrants: int) -> tuple[BracketMatch, ...]:
    """The first round for ``entrants`` seeds, in bracket order, byes to the top seeds."""
    size = 1 << knockout_rounds(entrants)
    order = bracket_order(size)
    return tuple(
        BracketMatch(top, bottom if bottom <= entrants else None)
        for top, bottom in zip(order[::2], order[1::2], strict=True)
    )


def knockout_next_round(winners: Sequence[int]) -> tuple[BracketMatch, ...]:
    """The next round from the winners of the last one, given in bracket order.

    The winners of matches 1 and 2 meet, then those of 3 and 4, and so on; in each match the
    smaller seed number is the higher seed.
    """
    if len(winners) < 2 or len(winners) % 2:
        raise PairingError(
            f"A knockout round pairs an even number (at least 2) of winners, not {len(winners)}."
        )
    if len(set(winners)) != len(winners):
        raise PairingError(f"A seed cannot win twice in one round: {list(winners)}.")
    return tuple(
        BracketMatch(min(first, second), max(first, second))
        for first, second in zip(winners[::2], winners[1::2], strict=True)
    )


def _check_entrants(entrants: int) -> None:
    if entrants < 2:
        raise PairingError(f"A knockout needs at least 2 players, not {entrants}.")


class TieDecider(StrEnum):
    """What settles a match still tied after the extra pairs of games."""

    HIGHER_SEED = "higher_seed"
    MORE_GAMES = "more_games"  # further pairs until one is not tied
    ORGANISER = "organiser"  # the match waits for the organiser's decision


@dataclass(frozen=True)
class MatchPolicy:
    """The organiser's rules for tied matches."""

    max_extra_pairs: int = 1
    decider: TieDecider = TieDecider.HIGHER_SEED

    def __post_init__(self) -> None:
        if self.max_extra_pairs < 0:
            raise PairingError(
                f"max_extra_pairs counts extra pairs of games: 0 or more, "
                f"not {self.max_extra_pairs}."
            )
        if self.decider not in set(TieDecider):
            choices = ", ".join(repr(decider.value) for decider in TieDecider)
            raise PairingError(f"A tie decider is one of {choices}, not {self.decider!r}.")
        object.__setattr__(self, "decider", TieDecider(self.decider))


@dataclass(frozen=True)
class MatchGame:
    """One game of a match: who had which colour and, once over, each side's points.

    Points are 1, ½ or 0; a double forfeit scores 0 for both. Both are None while the game
    is running.
    """

    orange: int
    blue: int
    orange_points: Fraction | None = None
    blue_points: Fraction | None = None

    @property
    def finished(self) -> bool:
        return self.orange_points is not None


class MatchDecision(StrEnum):
    """How a match was won: on the games, or by seed after the extra pairs."""

    GAMES = "games"
    HIGHER_SEED = "higher_seed"


@dataclass(frozen=True)
class MatchState:
    """Where a match stands.

    Exactly one holds: ``winner`` is set (decided, and ``decided_by`` says how); or
    ``games_to_start`` lists the next pair to start; or games are still running
    (``games_running``); or ``awaiting_organiser`` (tied, and the organiser decides).
    """

    higher_points: Fraction
    lower_points: Fraction
    winner: int | None = None
    decided_by: MatchDecision | None = None
    games_to_start: tuple[Pair, ...] = ()
    games_running: int = 0
    awaiting_organiser: bool = False


def decide_match(
    *,
    higher_seed: int,
    lower_seed: int,
    games: Sequence[MatchGame],
    policy: MatchPolicy,
) -> MatchState:
    """The state of a match from its games so far, in the order their pairs were started.

    Each pair's two games come together (either order); a pair may be given with only its
    finished game while the other runs. With no games yet, the state asks for the first pair.
    Raises ``PairingError`` for games that cannot belong to this match (other players, a pair
    with both games in the same colours, a game after the match was settled).
    """
    if higher_seed == lower_seed:
        raise PairingError(f"A match needs two different players, not {higher_seed} twice.")
    _check_games(games, higher_seed, lower_seed)
    higher = lower = Fraction(0)
    pairs = [games[i : i + GAMES_PER_PAIR] for i in range(0, len(games), GAMES_PER_PAIR)]
    state = _after_complete_pairs(higher_seed, lower_seed, higher, lower, 0, policy)
    for index, pair in enumerate(pairs, start=1):
        if not state.games_to_start:
            raise PairingError(
                f"The match was settled after pair {index - 1}; pair {index} does not belong to it."
            )
        higher += sum(_points(game, higher_seed) for game in pair)
        lower += sum(_points(game, lower_seed) for game in pair)
        running = GAMES_PER_PAIR - sum(game.finished for game in pair)
        if running and index < len(pairs):
            raise PairingError(f"Pair {index} is not over, yet pair {index + 1} was started.")
        if running:
            return MatchState(higher, lower, games_running=running)
        state = _after_complete_pairs(higher_seed, lower_seed, higher, lower, index, policy)
    return state


def _after_complete_pairs(
    higher_seed: int,
    lower_seed: int,
    higher: Fraction,
    lower: Fraction,
    pairs_played: int,
    policy: MatchPolicy,
) -> MatchState:
    """The state once every started game is over: a winner, or what comes next."""
    if pairs_played == 0:
        return MatchState(higher, lower, games_to_start=_new_pair(higher_seed, lower_seed))
    if higher != lower:
        winner = higher_seed if higher > lower else lower_seed
        return MatchState(higher, lower, winner=winner, decided_by=MatchDecision.GAMES)
    extra_pairs_played = pairs_played - 1
    if extra_pairs_played < policy.max_extra_pairs or policy.decider is TieDecider.MORE_GAMES:
        return MatchState(higher, lower, games_to_start=_new_pair(higher_seed, lower_seed))
    if policy.decider is TieDecider.HIGHER_SEED:
        return MatchState(higher, lower, winner=higher_seed, decided_by=MatchDecision.HIGHER_SEED)
    return MatchState(higher, lower, awaiting_organiser=True)


def _new_pair(higher_seed: int, lower_seed: int) -> tuple[Pair, ...]:
    """A pair of games, one with each colour; the higher seed's Orange game first."""
    return (Pair(orange=higher_seed, blue=lower_seed), Pair(orange=lower_seed, blue=higher_seed))


def _points(game: MatchGame, player: int) -> Fraction:
    points = game.orange_points if game.orange == player else game.blue_points
    return points or Fraction(0)


def _check_games(games: Sequence[MatchGame], higher_seed: int, lower_seed: int) -> None:
    players = {higher_seed, lower_seed}
    for number, game in enumerate(games, start=1):
        if {game.orange, game.blue} != players:
            raise PairingError(
                f"Game {number} is {game.orange} v {game.blue}, not a game of the match "
                f"{higher_seed} v {lower_seed}."
            )
        if (game.orange_points is None) != (game.blue_points is None):
            raise PairingError(f"Game {number} has points for one side only.")
        if game.orange_points is not None and game.blue_points is not None:
            scores = (game.orange_points, game.blue_points)
            if not set(scores) <= GAME_SCORES or sum(scores) not in (0, 1):
                raise PairingError(
                    f"Game {number} scores {scores[0]}-{scores[1]}; a game scores 1-0, "
                    f"½-½ or 0-1 (0-0 for a double forfeit)."
                )
        if number % GAMES_PER_PAIR == 0 and games[number - 2].orange == game.orange:
            raise PairingError(
                f"Games {number - 1} and {number} form a pair and must have opposite colours."
            )


# --- Final places ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KnockoutPlace:
    """A player's place by the stage reached: ``first``..``last`` are shared by everyone who
    went out in the same round (3 to 4 for the semi-finalists); ``out_in`` is that round, None
    for the winner and for players still in."""

    first: int
    last: int
    out_in: int | None


def knockout_places(exits: Mapping[int, int | None]) -> dict[int, KnockoutPlace]:
    """Places by the round each player went out in (``exits``: player -> round lost in, None
    if not out), never by points: a player who went out later ranks higher, however many
    games they won; those still in (the winner, once it is over) share the top places."""
    if any(out is not None and out < 1 for out in exits.values()):
        raise PairingError(f"Rounds are numbered from 1: {dict(exits)}.")
    last_round = max((out for out in exits.values() if out is not None), default=0)

    def stage(player: int) -> int:  # higher is better
        out = exits[player]
        return last_round + 1 if out is None else out

    places = {}
    for player in exits:
        above = sum(1 for other in exits if stage(other) > stage(player))
        level = sum(1 for other in exits if stage(other) == stage(player))
        places[player] = KnockoutPlace(above + 1, above + level, exits[player])
    return places


def knockout_round_name(number: int, rounds: int) -> str:
    """A round's name in a knockout of ``rounds`` rounds: Final, Semi-finals,
    Quarter-finals, else Round n."""
    if not 1 <= number <= rounds:
        raise PairingError(f"A knockout of {rounds} rounds has no round {number}.")
    names = {rounds: "Final", rounds - 1: "Semi-finals", rounds - 2: "Quarter-finals"}
    return names.get(number, f"Round {number}")
