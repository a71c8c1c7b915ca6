"""Store a CSV of past results as rated results: all rows or none."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rankings.management.commands._files import results_from_file
from rankings.services import results_import


class Command(BaseCommand):
    help = (
        "Import past results from a CSV file (date,player1,player2,result) as rated results "
        "and recompute every rating. A file with any bad row imports nothing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="CSV file with rows date,player1,player2,result")

    def handle(self, *args: Any, **options: Any) -> None:
        results = results_from_file(options["file"])
        summary = results_import(results=results)
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {summary.results} results ({summary.new_players} new players); "
                f"{summary.recompute.players} players rated from "
                f"{summary.recompute.results} results."
            )
        )
