"""Tie-break lists with a code repeated (accepted before the settings refused them) keep the
first of each code: a repeated code broke the standings for good."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def _once_each(codes: Any) -> Any:
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        return codes
    return list(dict.fromkeys(codes))


def tiebreaks_once_each(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    for tournament in Tournament.objects.only("pk", "tiebreaks").iterator():
        codes = _once_each(tournament.tiebreaks)
        if codes != tournament.tiebreaks:
            Tournament.objects.filter(pk=tournament.pk).update(tiebreaks=codes)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_squashed_0003_swiss_options")]

    operations = [
        migrations.RunPython(tiebreaks_once_each, migrations.RunPython.noop, elidable=True),
    ]
