"""Events stored without tie-breaks get their format's default, as a new event does
(``TournamentFormat.default_tiebreaks``), unless they are over: a finished event keeps the
ranking it published (its players level on points share the place), and so does a
cancelled one."""

from __future__ import annotations

from typing import Any

from django.db import migrations

# The defaults when this migration was written (FIDE C.07's recommendations); a later change
# to the formats' defaults does not reach back to events already given these.
DEFAULTS = {"swiss": ["bh_c1", "bh", "de"], "round_robin": ["de", "win", "sb", "ks"]}
OVER = ("finished", "cancelled")


def tiebreaks_format_default(apps: Any, schema_editor: Any) -> None:
    Tournament = apps.get_model("tournaments", "Tournament")
    for format, codes in DEFAULTS.items():
        Tournament.objects.filter(format=format, tiebreaks=[]).exclude(status__in=OVER).update(
            tiebreaks=codes
        )


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0002_tiebreaks_once_each")]

    operations = [
        migrations.RunPython(tiebreaks_format_default, migrations.RunPython.noop, elidable=True),
    ]
