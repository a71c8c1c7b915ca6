"""Forms of the player pages (creating a challenge, submitting a move), and the time control
fields every page that sets one shares (tournaments, leagues, ladders)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from django import forms

from celticsite.errors import DomainError
from games.clock import ClockKind, TimeControl
from games.models import Challenge

CLOCK_CHOICES = [
    (ClockKind.PER_MOVE.value, "Days per move"),
    (ClockKind.FISCHER.value, "Fischer: a bank of days plus an increment"),
    (ClockKind.NONE.value, "No time limit"),
]


TIME_CONTROL_FIELDS = (
    "clock_kind",
    "days_per_move",
    "bank_days",
    "increment_days",
    "max_days",
    "weekends_off",
    "vacation_allowed",
)


class TimeControlForm(forms.Form):
    """The time control fields of a challenge, or of every game of a tournament, league or
    ladder; ``time_control()`` builds the checked time control."""

    clock_kind = forms.ChoiceField(
        choices=CLOCK_CHOICES, initial=ClockKind.PER_MOVE.value, label="Time control"
    )
    days_per_move = forms.IntegerField(min_value=1, max_value=60, initial=3, label="Days per move")
    bank_days = forms.IntegerField(min_value=1, max_value=120, initial=10, label="Bank (days)")
    increment_days = forms.IntegerField(
        min_value=0, max_value=30, initial=2, label="Increment per move (days)"
    )
    max_days = forms.IntegerField(min_value=1, max_value=365, initial=20, label="Bank cap (days)")
    weekends_off = forms.BooleanField(
        required=False,
        label="Weekends off",
        help_text="Each player's clock stops on Saturday and Sunday in their own time zone.",
    )
    vacation_allowed = forms.BooleanField(
        required=False,
        initial=True,
        label="Vacations stop the clock",
        help_text="A player on vacation does not lose time in this game.",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors:
            try:
                self.time_control()
            except ValueError as exc:
                raise forms.ValidationError(str(exc).split("; ")) from None
        return data

    def time_control(self) -> TimeControl:
        """The time control chosen; ValueError says what is wrong with it."""
        data = self.cleaned_data
        return TimeControl(
            kind=ClockKind(data["clock_kind"]),
            days_per_move=data["days_per_move"],
            bank_days=data["bank_days"],
            increment_days=data["increment_days"],
            max_days=data["max_days"],
            weekends_off=data["weekends_off"],
            vacation_allowed=data["vacation_allowed"],
        )


def time_control_initial(owner: Any) -> dict[str, Any]:
    """The time control fields' values stored on ``owner`` (a ``TimeControlFields`` row)."""
    return {name: getattr(owner, name) for name in TIME_CONTROL_FIELDS}


def domain_error_to_form(form: forms.Form, exc: DomainError) -> None:
    """Put a service's refusal on the form: each problem of ``exc.extra['errors']`` on its
    field (on top if the form has no such field), else the whole message on top."""
    problems = exc.extra.get("errors") or {}
    for field, text in problems.items():
        form.add_error(field if field in form.fields else None, text)
    if not problems:
        form.add_error(None, exc.detail)


Saved = TypeVar("Saved")


def form_saved(form: forms.Form, save: Callable[[], Saved]) -> Saved | None:
    """What ``save`` (a service call) returns once ``form`` is bound and valid; None when it
    is not, or when the service refuses (its problems then on the form,
    ``domain_error_to_form``)."""
    if not (form.is_bound and form.is_valid()):
        return None
    try:
        return save()
    except DomainError as exc:
        domain_error_to_form(form, exc)
        return None


class ChallengeForm(TimeControlForm):
    """The options of a new challenge; ``time_control()`` builds the checked time control."""

    field_order = ["opponent", "colour", "rated", "public", "window_forfeit", "takebacks"]

    opponent = forms.CharField(
        max_length=150,
        required=False,
        label="Opponent",
        help_text="A username, or leave empty for an open seek anyone may accept.",
    )
    colour = forms.ChoiceField(
        choices=Challenge.ColourChoice.choices,
        initial=Challenge.ColourChoice.RANDOM,
        label="Your colour",
    )
    rated = forms.BooleanField(required=False, initial=True, label="Rated")
    public = forms.BooleanField(
        required=False, initial=True, label="Public", help_text="Anyone may watch the game."
    )
    window_forfeit = forms.BooleanField(
        required=False,
        label="Window-forfeit variant",
        help_text="A move that breaks the 5x5 window costs the turn instead of being refused.",
    )
    takebacks = forms.BooleanField(
        required=False,
        label="Allow takebacks",
        help_text="A player may ask to take back their last move before the other replies; "
        "the other decides. Unrated games always allow it.",
    )
    message = forms.CharField(
        max_length=300, required=False, label="Message", widget=forms.Textarea(attrs={"rows": 2})
    )


class MoveForm(forms.Form):
    """A move in notation, with the ply the player saw (so a stale page cannot move twice)."""

    notation = forms.CharField(
        max_length=40,
        label="Your move",
        help_text="Cell, open sides, and n for a neutral tile: 'f5 NE' or 'd5 NESW n'.",
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": "f5 NE"}
        ),
    )
    ply = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
