"""Compute ratings from a CSV of results without touching the database."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rankings.conf import rating_params
from rankings.csvimport import chronological
from rankings.management.commands._files import results_from_file
from rankings.rating.history import GameRecord, replay


class Command(BaseCommand):
    help = (
        "Replay a CSV of results (date,player1,player2,result) from scratch and print every "
        "player's Elo and Glicko-2 rating. Reads no database."
    )
    # No system checks: they may query the database, and this command must run without one.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="CSV file with rows date,player1,player2,result")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        results = results_from_file(options["file"])
        states = replay(
            (
                GameRecord(r.player1, r.player2, r.score1, r.played_on)
                for r in chronological(results)
            ),
            params=rating_params(),
        )
        if options["json"]:
            players = {
                name: {
                    "elo": state.elo.rating,
                    "games": state.games,
                    "glicko": {"rating": state.glicko.rating, "rd": state.glicko.rd},
                }
                for name, state in sorted(states.items())
            }
            self.stdout.write(json.dumps({"players": players}, indent=2, ensure_ascii=False))
            return
        ranked = sorted(states.items(), key=lambda item: (-item[1].elo.rating, item[0]))
        width = max(len(name) for name in states)
        self.stdout.write(
            f"{'player':<{width}}  {'elo':>6}  {'games':>5}  {'glicko':>6}  {'rd':>5}"
        )
        for name, state in ranked:
            self.stdout.write(
                f"{name:<{width}}  {state.elo.rating:>6.0f}  {state.games:>5}  "
                f"{state.glicko.rating:>6.0f}  {state.glicko.rd:>5.0f}"
            )
