"""``manage.py tournament_export ID > FILE.trf``: a tournament as a FIDE TRF-2026 file."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from celticsite.errors import DomainError
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.trf import format_trf


class Command(BaseCommand):
    help = "Write a tournament (round robin or Swiss) as a FIDE TRF-2026 file to stdout."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tournament_id", type=int, help="the tournament's id")

    def handle(self, *args: Any, tournament_id: int, **options: Any) -> None:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise CommandError(f"There is no tournament #{tournament_id}.")
        try:
            text = format_trf(selectors.tournament_trf(tournament=tournament))
        except DomainError as error:
            raise CommandError(error.detail) from error
        except ValueError as error:  # a field that does not fit TRF's columns
            raise CommandError(f"Tournament #{tournament_id} cannot be written: {error}") from error
        self.stdout.write(text, ending="")
