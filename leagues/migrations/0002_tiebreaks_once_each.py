"""League tie-break lists with a code repeated (accepted before the rules refused them) keep
the first of each code."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def _once_each(codes: Any) -> Any:
    if not isinstance(codes, list) or not all(isinstance(c, str) for c in codes):
        return codes
    return list(dict.fromkeys(codes))


def tiebreaks_once_each(apps: Any, schema_editor: Any) -> None:
    League = apps.get_model("leagues", "League")
    for league in League.objects.only("pk", "tiebreaks").iterator():
        codes = _once_each(league.tiebreaks)
        if codes != league.tiebreaks:
            League.objects.filter(pk=league.pk).update(tiebreaks=codes)


class Migration(migrations.Migration):
    dependencies = [("leagues", "0001_initial")]

    operations = [
        migrations.RunPython(tiebreaks_once_each, migrations.RunPython.noop, elidable=True),
    ]
