"""Swiss pairing by the FIDE Dutch system (handbook C.04.3, edition in force since 2026).

``pair_dutch`` conforms to :class:`tournaments.pairing.base.PairingSystem`; docs/TOURNAMENTS.md
names which rule each part implements.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from fractions import Fraction

from tournaments.pairing.base import Pair, PairingError, PairingSystem, RoundPairing
from tournaments.pairing.dutch.colours import board_key, orange_of
from tournaments.pairing.dutch.engine import Compatible, DutchPairer
from tournaments.pairing.dutch.state import Float, PlayerState, build_state, float_of
from tournaments.pairing.dutch.weights import Floats
from tournaments.standings.records import Colour, Outcome, PlayerRecord, PointSystem

__all__ = ["PairingError", "pair_dutch"]


def pair_dutch(
    players: Sequence[PlayerRecord],
    *,
    round_number: int,
    total_rounds: int,
    absent: frozenset[int] = frozenset(),
    forbidden_pairs: Collection[frozenset[int]] = (),
    acceleration: Mapping[int, Sequence[Fraction]] | None = None,
    initial_colour: Colour = Colour.ORANGE,
    points: PointSystem | None = None,
    exhaustive: bool = False,
) -> RoundPairing:
    """Pair round ``round_number`` of ``total_rounds`` by the Dutch system.

    ``forbidden_pairs`` are pairs that may not meet (C1, e.g. team-mates); ``acceleration``
    gives each player's virtual points per round (round 1 first, Baku acceleration C.04.5);
    ``initial_colour`` is drawn before round 1 (4.3.5). ``exhaustive`` solves every decision
    over the whole field, without the shortcut that makes the engine fast: the same pairing,
    slowly (the reference the shortcut is tested against). Raises :class:`PairingError` when no
    pairing satisfies the absolute criteria.
    """
    _check_input(players, round_number=round_number, total_rounds=total_rounds)
    points = points or PointSystem()
    played_rounds = round_number - 1
    to_pair = [p for p in players if _to_pair(p, round_number, absent)]
    states = _player_states(
        players, to_pair, played_rounds=played_rounds, points=points, acceleration=acceleration
    )
    paired = sorted((states[p.number] for p in to_pair), key=lambda s: (-s.pairing_score(), s.rank))
    forbidden = {frozenset(f) for f in forbidden_pairs}
    if not exhaustive and _natural_order_is_the_pairing(paired, played_rounds, forbidden):
        vertex_pairs, bye = _halves(len(paired))
    else:
        pairer = DutchPairer(
            paired,
            compatible=_compatibility(forbidden, played_rounds, total_rounds, points),
            floats=_floats(paired, states, played_rounds, points),
            played_rounds=played_rounds,
            shortcut=not exhaustive,
        )
        vertex_pairs, bye = pairer.pair()
    return _round_pairing(paired, vertex_pairs, bye, initial_colour)


def _check_input(players: Sequence[PlayerRecord], *, round_number: int, total_rounds: int) -> None:
    """A round of the event, and every player number once (else :class:`PairingError`)."""
    if round_number < 1 or round_number > total_rounds:
        raise PairingError(
            f"Round {round_number} is outside the event's rounds 1 to {total_rounds}."
        )
    numbers = [p.number for p in players]
    if len(numbers) != len(set(numbers)):
        twice = sorted({n for n in numbers if numbers.count(n) > 1})
        raise PairingError(f"Player numbers must be unique; given twice: {twice}.")


def _player_states(
    players: Sequence[PlayerRecord],
    to_pair: Sequence[PlayerRecord],
    *,
    played_rounds: int,
    points: PointSystem,
    acceleration: Mapping[int, Sequence[Fraction]] | None,
) -> dict[int, PlayerState]:
    """Every player's state by number, ranked by pairing number among those to pair now or
    paired before (the others rank last)."""
    ranked = [
        p
        for p in sorted(players, key=lambda p: p.number)
        if p in to_pair or _took_part(p, played_rounds)
    ]
    rank_of = {p.number: i for i, p in enumerate(ranked)}
    acceleration = acceleration or {}
    return {
        p.number: build_state(
            p,
            rank=rank_of.get(p.number, len(ranked)),
            played_rounds=played_rounds,
            points=points,
            acceleration=acceleration.get(p.number, ()),
        )
        for p in players
    }


def _round_pairing(
    paired: Sequence[PlayerState],
    vertex_pairs: Sequence[tuple[int, int]],
    bye: int | None,
    initial_colour: Colour,
) -> RoundPairing:
    """The engine's vertex pairs as games with their colours, in board order, and the bye."""
    games = []
    for a, b in vertex_pairs:
        first, second = sorted((paired[a], paired[b]), key=lambda s: s.number)
        orange = orange_of(first, second, initial_colour)
        white, black = (first, second) if orange is Colour.ORANGE else (second, first)
        games.append((board_key(white, black), Pair(orange=white.number, blue=black.number)))
    games.sort(key=lambda g: g[0])
    byes = (paired[bye].number,) if bye is not None else ()
    return RoundPairing(pairs=tuple(g[1] for g in games), byes=byes)


def _natural_order_is_the_pairing(
    paired: Sequence[PlayerState], played_rounds: int, forbidden: set[frozenset[int]]
) -> bool:
    """Whether the round is a first round as the rules picture it: nobody has played, so no
    one has a colour preference, a float or an opponent to avoid, no pair is forbidden, and
    everyone has the same pairing score (no acceleration tells them apart). Then the one
    bracket's first candidate (upper half against lower half, the bye to the last) meets
    every criterion, and solving for it took minutes at 1,000 players (the matching grows
    with the cube of the bracket)."""
    if played_rounds > 0 or forbidden or not paired:  # nobody to pair: the engine says so
        return False
    return len({state.pairing_score() for state in paired}) <= 1


def _halves(count: int) -> tuple[list[tuple[int, int]], int | None]:
    """The first candidate of one bracket of ``count`` players in rank order, as vertex
    pairs: the last takes the pairing-allocated bye when ``count`` is odd, then S1[i]
    meets S2[i]."""
    bye = count - 1 if count % 2 else None
    half = count // 2
    return [(i, half + i) for i in range(half)], bye


def _to_pair(player: PlayerRecord, round_number: int, absent: frozenset[int]) -> bool:
    """Present this round: not absent, not withdrawn, no result entered for it already."""
    if player.number in absent:
        return False
    if player.withdrawn_after is not None and player.withdrawn_after < round_number:
        return False
    return not any(
        r.round == round_number and r.outcome is not Outcome.NOT_PLAYED for r in player.rounds
    )


def _took_part(player: PlayerRecord, played_rounds: int) -> bool:
    """The player took part in an earlier round's pairing (keeps their pairing number)."""
    return any(
        r.round <= played_rounds and (r.opponent is not None or r.outcome is Outcome.PAIRING_BYE)
        for r in player.rounds
    )


def _floats(
    paired: Sequence[PlayerState],
    states: Mapping[int, PlayerState],
    played_rounds: int,
    points: PointSystem,
) -> Floats:
    def floats_back(rounds_back: int) -> dict[int, Float]:
        if played_rounds < rounds_back:
            return {s.number: Float.NONE for s in paired}
        return {s.number: float_of(s, rounds_back, states, points) for s in paired}

    return Floats(last=floats_back(1), before_last=floats_back(2))


def _compatibility(
    forbidden: set[frozenset[int]], played_rounds: int, total_rounds: int, points: PointSystem
) -> Compatible:
    """C1 (no rematch, no forbidden pair) and C3 (no clash of absolute colour preferences,
    except between topscorers in the last round)."""
    top_threshold = Fraction(played_rounds) * max(points.win, points.draw) / 2
    last_round = played_rounds >= total_rounds - 1

    met: dict[int, frozenset[int | None]] = {}

    def compatible(a: PlayerState, b: PlayerState) -> bool:
        if forbidden and frozenset((a.number, b.number)) in forbidden:
            return False
        opponents = met.get(a.number)
        if opponents is None:
            opponents = met[a.number] = frozenset(r.opponent for r in a.past if r.played)
        if b.number in opponents:
            return False
        if a.absolute_preference and b.absolute_preference and a.preference == b.preference:
            topscorer = max(a.pairing_score(), b.pairing_score()) > top_threshold
            return last_round and topscorer
        return True

    return compatible


_conforms: PairingSystem = pair_dutch  # mypy checks that the Dutch system is a PairingSystem
