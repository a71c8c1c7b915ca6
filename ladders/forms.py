"""The organiser's form to create a ladder. It checks shape; the service checks the limits."""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.models import fields_for_model

from games.forms import TimeControlForm
from games.kinds import DEFAULT_KIND
from games.kinds.pairs import kind_choices
from ladders.models import Ladder
from ladders.services import LIMIT_FIELDS, OTHER_FIELDS

SETTING_FIELDS = ("name", *OTHER_FIELDS, *LIMIT_FIELDS)
LABELS = {
    "max_open_challenges": "Open challenges per player",
    "rematch_days": "Days before a rematch",
    "timeout_drop_places": "Places lost on time",
    "inactivity_days": "Inactivity limit (days)",
}
# What the model's help texts do not say: the bounds the service accepts, what the flags do.
HELP_TEXTS = {
    "challenge_range": "How many places above themselves a player may challenge (1 to 50).",
    "max_open_challenges": "Challenges being played (made or received) a player may have at "
    "once (1 to 20).",
    "rematch_days": "Days after a challenge is decided before the same two may meet again "
    "(0 to 365).",
    "timeout_drop_places": "Extra places a player who loses on time drops (0 to 100; 0: none).",
    "inactivity_days": "A player with no challenge game for this long leaves the ladder "
    "(7 to 365).",
    "rated": "The challenge games count for the rating.",
    "public": "Anyone may watch the challenge games (the ladder itself is always listed).",
}


class KindField(forms.ChoiceField):
    """The game kind, a select of those a ladder may play; Celtic! when left out (a form
    from before kinds)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            choices=kind_choices, required=False, initial=DEFAULT_KIND, label="Game", **kwargs
        )

    def to_python(self, value: Any) -> str:
        return super().to_python(value) or DEFAULT_KIND


class LadderForm(TimeControlForm):
    """A ladder's name, description, limits (``services.LIMIT_FIELDS``), flags and the time
    control of its challenge games."""

    kind = KindField(help_text="The game every challenge plays.")

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned data as ``ladder_create`` takes them."""
        data = {name: self.cleaned_data[name] for name in SETTING_FIELDS}
        data["time_control"] = self.time_control()
        return data


LadderForm.base_fields.update(
    fields_for_model(
        Ladder,
        fields=[f for f in SETTING_FIELDS if f not in LadderForm.base_fields],
        widgets={"description": forms.Textarea(attrs={"rows": 3})},
        labels=LABELS,
        help_texts=HELP_TEXTS,
    )
)

for _name in LIMIT_FIELDS:
    # The service refuses a value out of range and names the range (``LadderRules.problems``).
    _field = LadderForm.base_fields[_name]
    _field.min_value = _field.max_value = None  # type: ignore[attr-defined]
    _field.validators = []
