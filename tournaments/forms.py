"""Forms of the tournament pages. They check shape; the services check the rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.forms.models import fields_for_model
from django.utils.text import format_lazy

from games.forms import TimeControlForm, time_control_initial
from games.kinds import DEFAULT_KIND
from games.kinds.pairs import kind_choices
from tournaments.models import Tournament, TournamentGame
from tournaments.services import SETTING_FIELDS, TIEBREAKS_HELP
from tournaments.standings import TIEBREAKS

DATE_FIELDS = ("registration_opens_at", "registration_closes_at", "starts_at", "ends_at")
DATE_INPUT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class TiebreaksField(forms.CharField):
    """Tie-break codes separated by commas or spaces, e.g. "de, sb, win"."""

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        text = super().to_python(value)
        return [code.lower() for code in text.replace(",", " ").split()]

    def prepare_value(self, value: Any) -> Any:
        return ", ".join(value) if isinstance(value, list) else value


class KindField(forms.ChoiceField):
    """The game kind, a select of those a competition may play; Celtic! when left out (a
    form from before kinds)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            choices=kind_choices, required=False, initial=DEFAULT_KIND, label="Game", **kwargs
        )

    def to_python(self, value: Any) -> str:
        return super().to_python(value) or DEFAULT_KIND


class TournamentForm(TimeControlForm):
    """Every setting of ``services.SETTING_FIELDS`` and the time control of the games."""

    kind = KindField(help_text="The game every pairing plays.")
    tiebreaks = TiebreaksField(
        required=False,
        label="Tie-breaks",
        help_text=format_lazy(
            "{} Separated by commas; known: {}.", TIEBREAKS_HELP, ", ".join(TIEBREAKS)
        ),
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        if tournament is not None:
            kwargs.setdefault("initial", initial_settings(tournament))
        super().__init__(*args, **kwargs)

    def settings(self) -> dict[str, Any]:
        """The cleaned settings as ``tournament_create``/``tournament_update`` take them.

        Each format's own settings are in a fieldset of their own; those of the formats not
        chosen are not taken (a browser without the page's script sends them all), and the
        chosen format's left empty take the model's default.
        """
        data = {name: self.cleaned_data[name] for name in SETTING_FIELDS}
        for fmt, names in FORMAT_SETTINGS.items():
            for name in names:
                if fmt != data["format"] or data[name] in (None, ""):
                    data[name] = Tournament._meta.get_field(name).get_default()
        data["time_control"] = self.time_control()
        return data


TournamentForm.base_fields.update(
    fields_for_model(
        Tournament,
        fields=[f for f in SETTING_FIELDS if f not in TournamentForm.base_fields],
        widgets={name: DATE_INPUT for name in DATE_FIELDS},
    )
)
TournamentForm.base_fields["name"].validators = []  # the service checks it with the others
# The settings only one format uses, each format's in a fieldset of its own
# (``_settings_fields.html``); a browser may leave out the fieldsets of the formats not chosen.
FORMAT_SETTINGS: dict[str, tuple[str, ...]] = {
    Tournament.Format.ROUND_ROBIN: ("cycles", "section_size", "withdrawal_policy"),
    Tournament.Format.KNOCKOUT: ("knockout_extra_pairs", "knockout_decider"),
    Tournament.Format.SWISS: (
        "rounds_planned",
        "late_entry_last_round",
        "late_entry_bye",
        "half_point_byes_max",
        "forfeits_to_withdraw",
        "accelerated",
    ),
}
for _names in FORMAT_SETTINGS.values():
    for _name in _names:
        TournamentForm.base_fields[_name].required = False


def initial_settings(tournament: Tournament) -> dict[str, Any]:
    values = {name: getattr(tournament, name) for name in SETTING_FIELDS}
    values.update(time_control_initial(tournament))
    return values


class RegisterForm(forms.Form):
    entry_code = forms.CharField(max_length=50, required=False, label="Entry code")


class ReasonForm(forms.Form):
    reason = forms.CharField(
        max_length=2000, label="Reason", help_text="Shown to the players and kept in the log."
    )


class InviteForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")


class ResultForm(ReasonForm):
    result = forms.ChoiceField(
        choices=[(value, label) for value, label in TournamentGame.Result.choices if value],
        label="Result",
    )

    def __init__(self, *args: Any, colour_names: Sequence[str] = (), **kwargs: Any) -> None:
        """``colour_names``: the event's names for Orange and Blue (its kind's seat names),
        written into the results' labels."""
        super().__init__(*args, **kwargs)
        if colour_names:
            field: forms.ChoiceField = self.fields["result"]  # type: ignore[assignment]
            field.choices = [
                (value, _label_in_colours(str(label), colour_names))
                for value, label in field.choices
            ]


def _label_in_colours(label: str, colour_names: Sequence[str]) -> str:
    orange, blue = colour_names
    return label.replace("Orange", orange).replace("Blue", blue)


class ManualPairingForm(ReasonForm):
    """The next round as lines of seed numbers: "1 4" (1 has Orange against 4), "bye 5"."""

    pairs = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false"}),
        label="Pairings",
        help_text='One game per line, Orange\'s seed first: "1 4". A bye: "bye 5".',
    )

    def __init__(self, *args: Any, colour_names: Sequence[str] = (), **kwargs: Any) -> None:
        """``colour_names`` as for ``ResultForm``."""
        super().__init__(*args, **kwargs)
        if colour_names:
            field = self.fields["pairs"]
            field.help_text = _label_in_colours(str(field.help_text), colour_names)

    def clean_pairs(self) -> tuple[list[tuple[int, int]], list[int]]:
        pairs: list[tuple[int, int]] = []
        byes: list[int] = []
        for number, line in enumerate(self.cleaned_data["pairs"].splitlines(), start=1):
            words = line.replace("-", " ").split()
            if not words:
                continue
            try:
                if words[0].lower() == "bye" and len(words) == 2:
                    byes.append(int(words[1]))
                elif len(words) == 2:
                    pairs.append((int(words[0]), int(words[1])))
                else:
                    raise ValueError
            except ValueError:
                raise forms.ValidationError(
                    f'Line {number} ("{line.strip()}") is not "orange blue" or "bye seed".'
                ) from None
        if not pairs and not byes:
            raise forms.ValidationError("Give at least one pairing.")
        return pairs, byes


class ByeForm(ReasonForm):
    """The organiser enters a bye or an absence for a Swiss round not paired yet."""

    entry = forms.IntegerField(label="Player")
    kind = forms.ChoiceField(
        choices=[("Z", "Absent (no points)"), ("H", "Half-point bye"), ("F", "Full-point bye")],
        label="Kind",
    )
    round = forms.IntegerField(min_value=1, label="Round")


class ForbiddenPairsForm(forms.Form):
    """Pairs who must never meet, one per line: two usernames."""

    pairs = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false"}),
        label="Forbidden pairs",
        help_text='One pair per line, two usernames: "ann ben" (same club or family).',
    )
    reason = forms.CharField(
        required=False, max_length=2000, label="Reason", help_text="Required once running."
    )

    def clean_pairs(self) -> list[tuple[str, str]]:
        pairs = []
        for number, line in enumerate(self.cleaned_data["pairs"].splitlines(), start=1):
            words = line.split()
            if not words:
                continue
            if len(words) != 2:
                raise forms.ValidationError(
                    f"Line {number}: expected two usernames, found {line.strip()!r}."
                )
            pairs.append((words[0], words[1]))
        return pairs
