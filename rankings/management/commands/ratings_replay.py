"""Compute ratings from a CSV of results without touching the database."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rankings.conf import DEFAULT_KIND, rating_params, skill_params, uses_elo
from rankings.csvimport import PAIR_PLACES, ImportedResult, chronological
from rankings.management.commands._files import results_from_file
from rankings.rating.history import GameRecord, replay
from rankings.rating.plackett_luce import FinishRecord, replay_finish
from rankings.selectors import known_kinds


class Command(BaseCommand):
    help = (
        "Replay a CSV of results (date,player1,player2,result) from scratch and print every "
        "player's rating as the given kind rates it: Elo and Glicko-2 for Celtic!, "
        "Plackett-Luce (mu, sigma, rating) for the other kinds. Reads no database."
    )
    # No system checks: they may query the database, and this command must run without one.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="CSV file with rows date,player1,player2,result")
        parser.add_argument("--json", action="store_true", help="print JSON")
        parser.add_argument(
            "--kind", default=DEFAULT_KIND, help="rate as this game kind does (default celtic)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        kind = options["kind"]
        if kind not in known_kinds():
            raise CommandError(
                f"{kind!r} is not a game kind: expected one of {', '.join(known_kinds())}."
            )
        results = results_from_file(options["file"])
        if not uses_elo(kind):
            self._skill(chronological(results), as_json=options["json"])
            return
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

    def _skill(self, results: list[ImportedResult], *, as_json: bool) -> None:
        """Print the Plackett-Luce ratings of a kind outside the Elo kinds."""
        params = skill_params()
        states = replay_finish(
            FinishRecord((r.player1, r.player2), PAIR_PLACES[r.score1], r.played_on)
            for r in results
        )
        if as_json:
            players = {
                name: {
                    "mu": state.mu,
                    "sigma": state.sigma,
                    "rating": state.display(params),
                    "games": state.games,
                }
                for name, state in sorted(states.items())
            }
            self.stdout.write(json.dumps({"players": players}, indent=2, ensure_ascii=False))
            return
        ranked = sorted(states.items(), key=lambda item: (-item[1].display(params), item[0]))
        width = max(len(name) for name in states)
        header = f"{'player':<{width}}  {'rating':>6}  {'games':>5}  {'mu':>6}  {'sigma':>5}"
        self.stdout.write(header)
        for name, state in ranked:
            self.stdout.write(
                f"{name:<{width}}  {state.display(params):>6.0f}  {state.games:>5}  "
                f"{state.mu:>6.2f}  {state.sigma:>5.2f}"
            )
