"""The organiser's form to place a player in a tier before the season starts."""

from __future__ import annotations

from typing import Any

from django import forms

from leagues.models import Membership, Season


class MoveForm(forms.Form):
    player = forms.TypedChoiceField(coerce=int, label="Player")
    tier = forms.IntegerField(
        min_value=1,
        required=False,
        label="Division",
        help_text="1 is the top; empty: as the rules say.",
    )
    reason = forms.CharField(max_length=2000, label="Reason (kept in the audit log)")

    def __init__(self, *args: Any, season: Season, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = season.memberships.filter(status=Membership.Status.REGISTERED).select_related(
            "player"
        )
        self.fields["player"].choices = [(m.player_id, m.player.get_username()) for m in members]
