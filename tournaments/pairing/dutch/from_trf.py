"""The next round to pair, read from a TRF file already parsed by :mod:`tournaments.trf`.

Which round comes next, the initial colour, forbidden pairs and acceleration points are
spread over several TRF records; this module gathers them into the arguments of
:func:`pair_dutch`. Records understood: ``142``/``XXR`` (rounds), ``152``/``XXC`` (initial
colour), ``260``/``XXP`` (forbidden pairs), ``250``/``XXA`` (acceleration), ``240`` (byes
requested for a round).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from tournaments.standings.records import Colour, Outcome, PlayerRecord


class TrfPairingError(ValueError):
    """The file does not say enough, or says something contradictory, to pair a round."""


@dataclass(frozen=True)
class NextRound:
    """Everything :func:`pair_dutch` needs besides the players."""

    round_number: int
    total_rounds: int
    initial_colour: Colour
    absent: frozenset[int] = frozenset()
    forbidden_pairs: tuple[frozenset[int], ...] = ()
    acceleration: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)


def next_round(
    players: tuple[PlayerRecord, ...],
    header: dict[str, str],
    extra_lines: tuple[str, ...],
    total_rounds: int,
) -> NextRound:
    """The round after the last one paired in the file."""
    round_number = _rounds_paired(players) + 1
    if total_rounds < 1:
        raise TrfPairingError("the file gives no number of rounds (record 142 or XXR)")
    if round_number > total_rounds:
        raise TrfPairingError(
            f"all {total_rounds} rounds are already paired (XXR/142 says {total_rounds})"
        )
    return NextRound(
        round_number=round_number,
        total_rounds=total_rounds,
        initial_colour=_initial_colour(players, header, extra_lines),
        absent=_requested_byes(extra_lines, round_number),
        forbidden_pairs=_forbidden(extra_lines, round_number),
        acceleration=_acceleration(extra_lines),
    )


def _participated(record_outcome: Outcome, opponent: int | None) -> bool:
    return opponent is not None or record_outcome in (Outcome.PAIRING_BYE, Outcome.FORFEIT_WIN)


def _rounds_paired(players: tuple[PlayerRecord, ...]) -> int:
    """The last round someone was paired in; an entry after it is an absence entered ahead."""
    paired = 0
    for player in players:
        entered = [r.round for r in player.rounds if r.outcome is not Outcome.NOT_PLAYED]
        if len(entered) > 1:
            paired = max(paired, sorted(entered)[-2])
        for r in player.rounds:
            if _participated(r.outcome, r.opponent):
                paired = max(paired, r.round)
    return paired


def _initial_colour(
    players: tuple[PlayerRecord, ...], header: dict[str, str], extra_lines: tuple[str, ...]
) -> Colour:
    """Record 152 (``W``/``B``) or ``XXC white1``/``black1``; else inferred from the first
    round with colours: the top-ranked player there had the initial colour if odd-numbered."""
    drawn = header.get("152", "").strip().upper()
    if drawn in ("W", "B"):
        return Colour.ORANGE if drawn == "W" else Colour.BLUE
    for line in extra_lines:
        if line.startswith("XXC"):
            words = line[3:].split()
            if "white1" in words:
                return Colour.ORANGE
            if "black1" in words:
                return Colour.BLUE
    coloured = [r.round for p in players for r in p.rounds if r.colour is not None]
    if not coloured:
        return Colour.ORANGE
    first = min(coloured)
    position = 0
    for player in sorted(players, key=lambda p: p.number):
        if not any(
            r.round <= first and _participated(r.outcome, r.opponent) for r in player.rounds
        ):
            continue
        colour = next((r.colour for r in player.rounds if r.round == first), None)
        if colour is not None:
            return colour if position % 2 == 0 else colour.other
        position += 1
    return Colour.ORANGE


def _numbers(text: str, what: str) -> list[int]:
    try:
        return [int(word) for word in text.split()]
    except ValueError:
        raise TrfPairingError(f"{what}: expected player numbers, found {text!r}") from None


def _requested_byes(extra_lines: tuple[str, ...], round_number: int) -> frozenset[int]:
    """``240 T RRR NNNN NNNN ...``: players with a bye of type T requested for round RRR."""
    absent: set[int] = set()
    for line in extra_lines:
        if line.startswith("240 "):
            words = line[4:].split()
            if len(words) < 2 or not (words[1].isascii() and words[1].isdigit()):
                raise TrfPairingError(f"record 240: expected 'type round players', found {line!r}")
            if int(words[1]) == round_number:
                absent.update(_numbers(" ".join(words[2:]), "record 240"))
    return frozenset(absent)


def _forbidden(extra_lines: tuple[str, ...], round_number: int) -> tuple[frozenset[int], ...]:
    """``XXP a b c``: none of a, b, c meet; ``260 FFF LLL a b c``: not in rounds FFF-LLL."""
    groups: list[list[int]] = []
    for line in extra_lines:
        if line.startswith("XXP "):
            groups.append(_numbers(line[4:], "XXP"))
        elif line.startswith("260 "):
            numbers = _numbers(line[4:], "record 260")
            if len(numbers) < 3:
                raise TrfPairingError(f"record 260: expected 'first last players', found {line!r}")
            if numbers[0] <= round_number <= numbers[1]:
                groups.append(numbers[2:])
    return tuple(frozenset((a, b)) for group in groups for a in group for b in group if a < b)


def _acceleration(extra_lines: tuple[str, ...]) -> dict[int, tuple[Fraction, ...]]:
    """``XXA NNNN p1 p2 ...`` per player; ``250 MMMM GGGG FFF LLL AAAA BBBB`` gives game
    points GGGG for rounds FFF-LLL to players AAAA-BBBB."""
    table: dict[int, dict[int, Fraction]] = {}
    for line in extra_lines:
        try:
            if line.startswith("XXA "):
                words = line[4:].split()
                table.setdefault(int(words[0]), {}).update(
                    {i + 1: Fraction(w) for i, w in enumerate(words[1:])}
                )
            elif line.startswith("250 "):
                game_points = Fraction(line[9:13].strip() or "0")
                first, last = int(line[14:17]), int(line[18:21])
                low, high = int(line[22:26]), int(line[27:31])
                for number in range(low, high + 1):
                    for rnd in range(first, last + 1):
                        table.setdefault(number, {})[rnd] = game_points
        except (ValueError, IndexError):
            raise TrfPairingError(f"cannot read the acceleration record {line!r}") from None
    return {
        number: tuple(rounds.get(r, Fraction(0)) for r in range(1, max(rounds) + 1))
        for number, rounds in table.items()
        if rounds
    }
