"""Forms of the player pages (creating a challenge, submitting a move), and the time control
fields every page that sets one shares (tournaments, leagues, ladders)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from django import forms
from django.contrib.auth.models import AbstractBaseUser

from celticsite.errors import DomainError
from games import selectors
from games.clock import ClockKind, TimeControl
from games.kinds import DEFAULT_KIND, all_kinds, get_kind
from games.kinds.base import GameKind, KindError

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


RANDOM_SEAT = "random"


def kind_choices() -> list[tuple[str, str]]:
    """Every hosted kind, for the select of the new-game form."""
    return [(kind.id, kind.name) for kind in all_kinds()]


def seat_choices() -> list[tuple[str, str]]:
    """ "Random", then each seat any kind has, named as the kinds name it (Celtic!: "Orange
    (moves first)", "Blue"); kinds that name a seat differently are each named."""
    most = max(kind.seats.max for kind in all_kinds())
    return [(RANDOM_SEAT, "Random")] + [
        (str(seat), _seat_label(seat)) for seat in range(1, most + 1)
    ]


def _seat_label(seat: int) -> str:
    names: dict[str, list[str]] = {}
    for kind in all_kinds():
        if seat <= kind.seats.max:
            name = kind.seat_names(kind.seats.max)[seat - 1]
            names.setdefault(name, []).append(kind.name)
    first = " (moves first)" if seat == 1 else ""
    if len(names) == 1:
        return f"{next(iter(names))}{first}"
    named = ", ".join(f"{name} in {' and '.join(kinds)}" for name, kinds in names.items())
    return f"Seat {seat}{first}: {named}"


class ChallengeForm(TimeControlForm):
    """The options of a new challenge: the kind, its seats (the count only for kinds played by
    more than two) and the challenger's seat; ``time_control()`` builds the time control."""

    field_order = [
        "opponent",
        "kind",
        "seat_count",
        "seat",
        "rated",
        "public",
        "window_forfeit",
        "takebacks",
    ]

    opponent = forms.CharField(
        max_length=800,
        required=False,
        label="Opponents",
        help_text="One username for a game for two; for more players, everyone you invite, "
        "separated by commas or spaces (you take a seat too). Leave empty for an open seek "
        "anyone may accept.",
        widget=forms.TextInput(
            attrs={"autocapitalize": "none", "autocorrect": "off", "spellcheck": "false"}
        ),
    )
    kind = forms.ChoiceField(
        choices=kind_choices, initial=DEFAULT_KIND, required=False, label="Game"
    )
    seat_count = forms.IntegerField(
        required=False,
        min_value=2,
        label="Players",
        help_text="How many play, you included (empty: you and the players you name, or the "
        "fewest the game allows). The game starts when every seat is taken.",
    )
    seat = forms.ChoiceField(
        choices=seat_choices, initial=RANDOM_SEAT, required=False, label="Your seat"
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

    def __init__(
        self, *args: Any, challenger: AbstractBaseUser | None = None, **kwargs: Any
    ) -> None:
        """``challenger``: the player offering the game, who may not name themselves."""
        super().__init__(*args, **kwargs)
        self.challenger = challenger
        if all(kind.seats.max <= 2 for kind in all_kinds()):
            del self.fields["seat_count"]  # every game is for two: nothing to ask

    def clean_opponent(self) -> list[AbstractBaseUser]:
        """The players named (none: an open seek), each an active player named once, not the
        challenger."""
        names = [name for name in re.split(r"[\s,;]+", self.cleaned_data["opponent"]) if name]
        folded = [name.casefold() for name in names]
        for index, name in enumerate(folded):
            if name in folded[:index]:
                raise forms.ValidationError(
                    f"{names[index]} is named twice: name each player once."
                )
        if self.challenger is not None and self.challenger.get_username().casefold() in folded:
            raise forms.ValidationError(
                "You cannot challenge yourself: name only the other players; you take a "
                "seat anyway."
            )
        try:
            return selectors.user_list_by_usernames(usernames=names) if names else []
        except DomainError as error:
            raise forms.ValidationError(error.detail) from None

    def clean(self) -> dict[str, Any]:
        """The seat count (the challenger and the players named, else the count given, else
        the kind's fewest), checked with the kind, the seat chosen (``seat``: a number, or
        None for a random seat) and the kind's options."""
        data = super().clean()
        if "kind" in self.errors:
            return data
        data["kind"] = data.get("kind") or DEFAULT_KIND
        kind = get_kind(data["kind"])
        if data.get("opponent"):
            count = self._seats_named(kind, data["opponent"], data.get("seat_count"))
        else:
            count = data.get("seat_count") or kind.seats.min
            try:
                kind.check_seat_count(count)
            except KindError as error:
                self.add_error("seat_count", str(error))
        data["seat_count"] = count
        seat = data.get("seat")
        data["seat"] = None if seat in (None, "", RANDOM_SEAT) else int(seat)
        if data["seat"] is not None and data["seat"] > count:
            names = ", ".join(kind.seat_names(count)) if count in kind.seats else "its seats"
            self.add_error(
                "seat",
                f"A game of {kind.name} for {count} has no seat {data['seat']}: choose "
                f"Random or one of {names}.",
            )
        if data.get("window_forfeit") and "window_forfeit" not in kind.option_names:
            self.add_error(
                "window_forfeit", f"The window-forfeit variant is not an option of {kind.name}."
            )
        return data

    def _seats_named(
        self, kind: GameKind, named: list[AbstractBaseUser], seat_count: int | None
    ) -> int:
        """The seats of a game for the challenger and the ``named`` players, with an error on
        the form if the kind or ``seat_count`` disagrees."""
        count = len(named) + 1
        if count not in kind.seats:
            everyone = _players(kind.seats.min, kind.seats.max)
            others = _players(kind.seats.min - 1, kind.seats.max - 1)
            self.add_error(
                "opponent",
                f"{kind.name} is played by {everyone}, you included: name {others}, "
                f"not {len(named)}.",
            )
        elif seat_count is not None and seat_count != count:
            self.add_error(
                "seat_count",
                f"You named {_players(len(named))}, so the game is for {count} with you, not "
                f"{seat_count}: name {_players(seat_count - 1)}, or leave Players empty.",
            )
        return count


def _players(fewest: int, most: int | None = None) -> str:
    """``1 player``, ``3 players``, ``1 to 5 players``."""
    if most is not None and most != fewest:
        return f"{fewest} to {most} players"
    return "1 player" if fewest == 1 else f"{fewest} players"


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
