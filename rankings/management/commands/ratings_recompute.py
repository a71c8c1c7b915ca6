"""Rebuild every rating (of one game kind, or of all) from the full history of results."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rankings.selectors import known_kinds
from rankings.services import ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute every rating (Elo and Glicko-2 for Celtic!, Plackett-Luce for the other "
        "kinds) and the rating history from all rated results, in order of finish time. "
        "Reports how many players' ratings changed."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--kind", help="only this game kind (default: every kind)")

    def handle(self, *args: Any, **options: Any) -> None:
        kind = options["kind"]
        if kind is not None and kind not in known_kinds():
            raise CommandError(
                f"{kind!r} is not a game kind: expected one of {', '.join(known_kinds())}."
            )
        began = time.perf_counter()
        summary = ratings_recompute(kind=kind)
        elapsed = time.perf_counter() - began
        self.stdout.write(
            self.style.SUCCESS(
                f"Recomputed {summary.results} results ({summary.annulled} annulled left out) "
                f"for {summary.players} players in {elapsed:.2f} s; "
                f"{summary.changed} players' ratings and "
                f"{summary.history_rows_written} rating history rows changed."
            )
        )
