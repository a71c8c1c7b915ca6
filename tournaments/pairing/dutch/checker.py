"""An independent check of a round's pairing against the absolute criteria and colour rules.

It recomputes nothing from the engine: it reads the records, then asserts what any legal
Dutch pairing must satisfy, so tests and soak runs can replay random events through the
engine and catch a broken rule (C.04.3 2.2: C1-C3; 1.5: the bye; 4: colours).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tournaments.pairing.base import RoundPairing
from tournaments.pairing.dutch.state import PlayerState, build_state
from tournaments.standings.records import Colour, Outcome, PlayerRecord, PointSystem


def pairing_violations(
    players: Sequence[PlayerRecord],
    pairing: RoundPairing,
    *,
    round_number: int,
    total_rounds: int,
    absent: Collection[int] = frozenset(),
    forbidden_pairs: Collection[frozenset[int]] = (),
) -> list[str]:
    """Every way ``pairing`` breaks the rules, in words; empty when it is legal."""
    points = PointSystem()
    states = {
        p.number: build_state(p, rank=0, played_rounds=round_number - 1, points=points)
        for p in players
    }
    present = {p.number for p in players if _present(p, round_number, absent)}
    problems = _coverage(pairing, present)
    if len(pairing.byes) > 1 or (len(pairing.byes) == 1) != (len(present) % 2 == 1):
        problems.append(f"byes {pairing.byes} for {len(present)} players present")
    for bye in pairing.byes:
        if bye in states and not states[bye].bye_eligible:
            problems.append(
                f"C2: player {bye} gets a second bye or a bye after a win without playing"
            )
    threshold = max(points.win, points.draw) * (round_number - 1) / 2
    last_round = round_number == total_rounds
    forbidden = {frozenset(f) for f in forbidden_pairs}
    for game in pairing.pairs:
        white, black = states.get(game.orange), states.get(game.blue)
        if white is None or black is None:
            continue
        problems += _game_problems(white, black, forbidden)
        topscorers = max(white.score, black.score) > threshold and last_round
        if not topscorers:
            problems += _colour_limits(white, Colour.ORANGE) + _colour_limits(black, Colour.BLUE)
        problems += _preferences_granted(white, black)
    return problems


def _present(player: PlayerRecord, round_number: int, absent: Collection[int]) -> bool:
    if player.number in absent:
        return False
    if player.withdrawn_after is not None and player.withdrawn_after < round_number:
        return False
    return not any(
        r.round == round_number and r.outcome is not Outcome.NOT_PLAYED for r in player.rounds
    )


def _coverage(pairing: RoundPairing, present: set[int]) -> list[str]:
    seen = [n for g in pairing.pairs for n in (g.orange, g.blue)] + list(pairing.byes)
    problems = []
    if len(seen) != len(set(seen)):
        problems.append("a player appears twice in the round")
    if set(seen) != present:
        problems.append(f"paired {sorted(set(seen))} but present are {sorted(present)}")
    return problems


def _game_problems(
    white: PlayerState, black: PlayerState, forbidden: set[frozenset[int]]
) -> list[str]:
    if any(r.played and r.opponent == black.number for r in white.past):
        return [f"C1: {white.number} and {black.number} meet again"]
    if frozenset((white.number, black.number)) in forbidden:
        return [f"C1: {white.number} and {black.number} may not meet"]
    return []


def _colour_limits(player: PlayerState, colour: Colour) -> list[str]:
    """C3 seen from the result: no colour difference beyond ±2, no colour thrice running."""
    difference = player.colour_difference + (1 if colour is Colour.ORANGE else -1)
    problems = []
    if abs(difference) > 2:
        problems.append(f"C3: player {player.number} would reach colour difference {difference:+d}")
    if player.repeated_colour is colour:
        problems.append(f"C3: player {player.number} would get {colour.name} three times in a row")
    return problems


def _preferences_granted(white: PlayerState, black: PlayerState) -> list[str]:
    """4.3.1: when the preferences differ (or one has none), both are granted; when they
    clash, an absolute preference beats a non-absolute one (4.3.2)."""
    problems = []
    wants_w, wants_b = white.preference, black.preference
    if wants_w != wants_b or wants_w is None:
        if wants_w is Colour.BLUE or wants_b is Colour.ORANGE:
            problems.append(f"colours: {white.number}-{black.number} ignore compatible preferences")
        return problems
    loser = white if wants_w is Colour.BLUE else black
    winner = black if loser is white else white
    if loser.absolute_preference and not winner.absolute_preference:
        problems.append(
            f"colours: {loser.number}'s absolute preference lost to {winner.number}'s weaker one"
        )
    if (
        loser.absolute_preference
        and winner.absolute_preference
        and loser.imbalance > winner.imbalance
    ):
        problems.append(
            f"colours: {loser.number} has the larger colour difference and should get their colour"
        )
    return problems
