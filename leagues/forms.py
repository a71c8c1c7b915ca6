"""The organiser's forms: a league's name and rules (creating or changing it), and placing a
player in a tier before the season starts. They check shape; the services check the rules."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.forms.models import fields_for_model
from django.utils import timezone

from games.forms import TimeControlForm, time_control_initial
from leagues import selectors
from leagues.models import League, Membership, Season
from leagues.services import RULE_FIELDS, RULE_LIMITS, first_opening_refusal
from tournaments.forms import DATE_INPUT, KindField, TiebreaksField
from tournaments.standings import EDITIONS, TIEBREAKS

LABELS = {
    "division_min_size": "Smallest division",
    "season_days": "Season length (days)",
    "registration_days": "Registration period (days)",
    "promotion_percent": "Promotion (%)",
    "relegation_percent": "Relegation (%)",
}
# What the model's help texts do not say, or the page says better.
HELP_TEXTS = {
    "division_min_size": "From 3 to 30. Fewer players left over join the division above.",
    "promotion_count": "How many go up from each division (not from the top one); empty it "
    "to give a percent instead.",
    "promotion_percent": "Instead of a count: a share of the division, from 0 to 49 %.",
    "relegation_count": "How many go down from each division (not from the bottom one); "
    "empty it to give a percent instead.",
    "relegation_percent": "Instead of a count: a share of the division, from 0 to 49 %.",
    "rated": "The games count for the rating.",
    "public": "Anyone may see the league; a private one only its organiser and its players.",
    "season_days": "Days from a season's start to its end date (from 7 to 365).",
    "registration_days": "Days registration is open before each season starts (from 1 to 90).",
}


class LeagueForm(TimeControlForm):
    """A league's name, its rules (``services.RULE_FIELDS``) and the time control of its
    games; with ``league``, that league's values to start from."""

    kind = KindField(
        help_text="The game every division plays; a change applies from the next season."
    )
    tiebreaks = TiebreaksField(
        required=False,
        label="Tie-breaks",
        help_text=f"In order, separated by commas. Known: {', '.join(TIEBREAKS)}.",
    )
    tiebreak_edition = forms.ChoiceField(
        choices=[(edition, edition) for edition in EDITIONS],
        initial=EDITIONS[0],
        label="Tie-break edition",
        help_text="The edition of FIDE C.07 the tie-breaks follow.",
    )

    def __init__(self, *args: Any, league: League | None = None, **kwargs: Any) -> None:
        if league is not None:
            initial = {name: getattr(league, name) for name in ("name", *RULE_FIELDS)}
            kwargs.setdefault("initial", {**initial, **time_control_initial(league)})
        super().__init__(*args, **kwargs)

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned data as ``league_create``/``league_update`` take them."""
        data = {name: self.cleaned_data[name] for name in ("name", *RULE_FIELDS)}
        data["time_control"] = self.time_control()
        return data


LeagueForm.base_fields.update(
    fields_for_model(
        League,
        fields=["name", *(f for f in RULE_FIELDS if f not in LeagueForm.base_fields)],
        widgets={"description": forms.Textarea(attrs={"rows": 3})},
        labels=LABELS,
        help_texts=HELP_TEXTS,
    )
)

for _name, (_low, _high, _unit) in RULE_LIMITS.items():
    # The service refuses a value out of range, naming the range and the value given; the
    # browser's number input knows the range too.
    _field = LeagueForm.base_fields[_name]
    _field.min_value = _field.max_value = None  # type: ignore[attr-defined]
    _field.validators = []
    _field.widget.attrs.update(min=_low, max=_high)


class LeagueCreateForm(LeagueForm):
    """A new league: its rules and when its first season opens for registration."""

    first_registration_opens_at = forms.DateTimeField(
        widget=DATE_INPUT,
        label="Season 1 opens for registration",
        help_text="In your time zone; at once if that time has come. The season starts "
        "the registration days later.",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"promotion_count": 2, "relegation_count": 2})
        super().__init__(*args, **kwargs)

    def clean_first_registration_opens_at(self) -> datetime:
        opens_at: datetime = self.cleaned_data["first_registration_opens_at"]
        problem = first_opening_refusal(opens_at=opens_at, now=timezone.now())
        if problem:
            raise forms.ValidationError(problem, code="invalid_date")
        return opens_at

    def service_kwargs(self) -> dict[str, Any]:
        data = super().service_kwargs()
        data["first_registration_opens_at"] = self.cleaned_data["first_registration_opens_at"]
        return data


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
            "player", "player__profile"
        )
        self.fields["player"].choices = [
            (m.player_id, selectors.player_name(user=m.player)) for m in members
        ]
