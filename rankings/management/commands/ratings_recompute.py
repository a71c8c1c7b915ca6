"""Rebuild every rating from the full history of rated results."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from rankings.services import ratings_recompute


class Command(BaseCommand):
    help = (
        "Recompute every Elo and Glicko-2 rating and the rating history from all rated "
        "results, in order of finish time. Reports how many players' ratings changed."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.perf_counter()
        summary = ratings_recompute()
        elapsed = time.perf_counter() - began
        self.stdout.write(
            self.style.SUCCESS(
                f"Recomputed {summary.results} results ({summary.annulled} annulled left out) "
                f"for {summary.players} players in {elapsed:.2f} s; "
                f"{summary.changed} players' ratings and "
                f"{summary.history_rows_written} rating history rows changed."
            )
        )
