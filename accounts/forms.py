"""Web forms. They check the shape of the input; the services decide what is allowed."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import PasswordResetForm

from accounts.countries import country_choices
from accounts.login_limits import client_address, lockout_message, login_lock_wait
from accounts.models import ApiToken, Profile
from accounts.services import password_reset_request
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
        """The arguments for ``accounts.services.signup_request``."""
        return {k: v for k, v in self.cleaned_data.items() if k != "password_confirm"}


class ReminderHoursField(forms.CharField):
    """Whole hours written as text, ``24, 2``; blank for none. The model checks the range."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(str(hours) for hours in value)
        return value

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value)
        parts = [part for part in text.replace(",", " ").split() if part]
        try:
            return [int(part) for part in parts]
        except ValueError:
            raise forms.ValidationError(
                f"{text!r} is not a list of whole hours: expected numbers separated by commas, "
                "such as '24, 2', or blank for no reminders.",
                code="invalid_reminder_hours",
            ) from None


class ProfileForm(forms.ModelForm):
    email = forms.EmailField(help_text="Notifications and password resets go here.")
    country = _country_field()
    time_zone = _time_zone_field(
        help_text="Deadlines are shown in it, and weekends off are counted in it."
    )
    reminder_hours = ReminderHoursField(
        required=False,
        label="Deadline reminders (hours before)",
        help_text="Email me when this many hours of my clock are left, e.g. '24, 2'. "
        "Blank for no reminders.",
    )

    class Meta:
        model = Profile
        fields = list(Profile.EDITABLE_FIELDS)


class VacationStartForm(forms.Form):
    days = forms.DecimalField(
        min_value=Decimal("0.01"),
        max_digits=5,
        decimal_places=2,
        label="Days",
        help_text="How long; fractions allowed (1.5 is a day and a half). Starts now.",
    )


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


class PasswordResetRequestForm(PasswordResetForm):
    """Django's reset form, but saving only asks for the emails: a worker looks the address up
    and queues them in the outbox (``accounts.services.password_reset_request``)."""

    def save(self, **_: Any) -> None:  # type: ignore[override]
        password_reset_request(email=self.cleaned_data["email"])


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's login form, saying that failed logins lock the account or the client's
    address (``accounts.login_limits``), as the login page does, instead of "enter the correct
    username and password". ``lock_wait`` is then the seconds to wait, for Retry-After."""

    lock_wait: int | None = None

    def clean(self) -> dict[str, Any]:
        self._refuse_if_locked()
        try:
            return super().clean()
        except forms.ValidationError:
            self._refuse_if_locked()  # the failure that reached the limit
            raise

    def _refuse_if_locked(self) -> None:
        if self.request is None:
            return
        self.lock_wait = login_lock_wait(
            username=self.data.get("username", ""), address=client_address(self.request)
        )
        if self.lock_wait is not None:
            raise forms.ValidationError(lockout_message(self.lock_wait), code="login_locked")
