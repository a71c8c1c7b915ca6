"""``manage.py tournament_pair --dutch FILE.trf``: the next round of a Swiss event, printed as
bbpPairings prints it.

The file holds the rounds played so far and the number of rounds (``XXR`` or ``142``). The
first output line is the number of pairs (the bye counts as one), then one ``white black``
line per board using the file's player numbers (Orange is White), the bye as ``N 0``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.pairing.base import PairingError, RoundPairing
from tournaments.pairing.dutch import pair_dutch
from tournaments.pairing.dutch.from_trf import TrfPairingError, next_round
from tournaments.trf import TrfError, parse_trf


class Command(BaseCommand):
    help = "Pair the next round of the Swiss event in a TRF file (FIDE Dutch system)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="a TRF-2026 file with the rounds played so far")
        parser.add_argument(
            "--dutch", action="store_true", required=True, help="pair by the FIDE Dutch system"
        )

    def handle(self, *args: Any, file: str, **options: Any) -> None:
        self.stdout.write(format_pairing(pair_file(Path(file))), ending="")


def pair_file(path: Path) -> RoundPairing:
    """Read, then pair; every failure becomes a :class:`CommandError` naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from error
    except UnicodeDecodeError as error:
        raise CommandError(f"{path}: not UTF-8 text ({error.reason})") from error
    try:
        tournament = parse_trf(text)
        upcoming = next_round(
            tournament.players,
            dict(tournament.header),
            tournament.extra_lines,
            tournament.rounds,
        )
        return pair_dutch(
            tournament.players,
            round_number=upcoming.round_number,
            total_rounds=upcoming.total_rounds,
            absent=upcoming.absent,
            forbidden_pairs=upcoming.forbidden_pairs,
            acceleration=upcoming.acceleration,
            initial_colour=upcoming.initial_colour,
        )
    except (TrfError, TrfPairingError) as error:
        raise CommandError(f"{path}: {error}") from error
    except PairingError as error:
        raise CommandError(f"{path}: cannot pair the next round: {error}") from error


def format_pairing(pairing: RoundPairing) -> str:
    lines = [str(len(pairing.pairs) + len(pairing.byes))]
    lines += [f"{game.orange} {game.blue}" for game in pairing.pairs]
    lines += [f"{bye} 0" for bye in pairing.byes]
    return "\n".join(lines) + "\n"
