"""``manage.py tournament_import FILE.trf [--organiser USERNAME] [--name NAME]``: a finished
event from a FIDE TRF file, with its players and results; prints the new tournament's id
last."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from celticsite.errors import DomainError
from tournaments import services
from tournaments.standings import EDITIONS
from tournaments.trf import TrfError, parse_trf


class Command(BaseCommand):
    help = "Import a finished tournament from a TRF file; prints the new tournament's id last."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="a TRF-2026 (or TRF-16) file")
        parser.add_argument(
            "--organiser",
            help="username of the organiser to record (default: the first superuser)",
        )
        parser.add_argument("--name", default="", help="the event's name (default: record 012)")
        parser.add_argument(
            "--tiebreaks",
            default="",
            help="tie-break codes in order, comma-separated (e.g. de,sb,win); default none",
        )
        parser.add_argument("--edition", choices=EDITIONS, default="2026", help="C.07 edition")

    def handle(
        self,
        *args: Any,
        file: str,
        organiser: str | None,
        name: str,
        tiebreaks: str,
        edition: str,
        **options: Any,
    ) -> None:
        path = Path(file)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"{file}: cannot read it as UTF-8 text ({error}).") from error
        try:
            trf = parse_trf(text)
        except TrfError as error:
            raise CommandError(f"{file}: {error}") from error
        user = _organiser(organiser)
        try:
            tournament = services.tournament_import_trf(
                trf=trf,
                organiser=user,
                name=name,
                tiebreaks=[code.strip() for code in tiebreaks.split(",") if code.strip()],
                tiebreak_edition=edition,
            )
        except DomainError as error:
            raise CommandError(f"{file}: {error.detail}") from error
        self.stdout.write(
            f"Imported {tournament.name!r}: {len(trf.players)} players, {trf.rounds} rounds."
        )
        self.stdout.write(str(tournament.pk))


def _organiser(username: str | None) -> Any:
    users = get_user_model().objects
    if username:
        user = users.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no user called {username!r} to be the organiser.")
        return user
    user = users.filter(is_superuser=True, is_active=True).order_by("pk").first()
    if user is None:
        raise CommandError("Give --organiser USERNAME: there is no superuser to default to.")
    return user
