"""Web forms. They check the shape of the input; the services decide what is allowed."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.countries import country_choices
from accounts.models import ApiToken, Profile
from accounts.validators import time_zone_choices


def _country_field(**kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(choices=[("", "—"), *country_choices()], required=False, **kwargs)


def _time_zone_field(**kwargs: Any) -> forms.ChoiceField:
    return forms.ChoiceField(choices=time_zone_choices, initial="UTC", **kwargs)


class SignupForm(forms.Form):
    username = forms.CharField(max_length=150)
    email = forms.EmailField()
    password = forms.CharField(widget=forms.PasswordInput, strip=False)
    password_confirm = forms.CharField(
        label="Password again", widget=forms.PasswordInput, strip=False
    )
    display_name = forms.CharField(
        max_length=50, required=False, help_text="Shown to other players; optional."
    )
    country = _country_field()
    time_zone = _time_zone_field(help_text="Deadlines and times are shown in it.")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        password = cleaned.get("password")
        if password and password != cleaned.get("password_confirm"):
            self.add_error("password_confirm", "The two passwords differ.")
        return cleaned

    def service_kwargs(self) -> dict[str, Any]:
        """The arguments for ``accounts.services.user_create``."""
        return {k: v for k, v in self.cleaned_data.items() if k != "password_confirm"}


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(help_text="Notifications and password resets go here.")
    country = _country_field()
    time_zone = _time_zone_field()

    class Meta:
        model = Profile
        fields = list(Profile.EDITABLE_FIELDS)


class ApiTokenCreateForm(forms.Form):
    name = forms.CharField(
        max_length=ApiToken._meta.get_field("name").max_length,
        help_text="What the token is for, e.g. 'laptop script'.",
    )


class ReasonForm(forms.Form):
    """The reason a moderator gives for an admin action; it goes into the audit log."""

    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        help_text="Required. Recorded in the audit log with your name.",
    )
