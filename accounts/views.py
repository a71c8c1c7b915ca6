"""Web pages for accounts: sign-up, login, profile, API tokens. Login and password reset are
Django's views, extended here with the failed-login limits, the outbox and the email budget;
the rest of the reset flow is Django's own, wired in ``accounts/urls.py``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import (
    ApiTokenCreateForm,
    PasswordResetRequestForm,
    ProfileForm,
    SignupForm,
    VacationStartForm,
)
from accounts.login_limits import client_address, lockout_message, login_lock_wait
from accounts.selectors import (
    api_token_list,
    calendar_feed_get,
    profile_get,
    push_device_list,
    vacation_allowance,
    vacation_list_recent,
)
from accounts.services import (
    api_token_create,
    api_token_revoke,
    calendar_feed_delete,
    calendar_feed_renew,
    profile_update,
    push_device_add,
    push_device_remove,
    signup_confirm,
    signup_request,
    vacation_end,
    vacation_start,
)
from accounts.throttles import (
    PasswordResetThrottle,
    SignupThrottle,
    too_many_requests_message,
    web_throttle_wait,
)
from celticsite.errors import DomainError

# Where the tokens page keeps a new key between the POST that makes it and the one GET
# that shows it.
NEW_TOKEN_SESSION_KEY = "accounts_new_api_token"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Sign up; the account works once the emailed link confirms the address. The answer is
    the same whether or not the address already has an account (its owner is told by email)."""
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        wait = web_throttle_wait(request, SignupThrottle)
        if wait is not None:
            message = too_many_requests_message(wait)
            return _too_many(request, "accounts/signup.html", {"form": form}, wait, message)
        try:
            signup_request(**form.service_kwargs())
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("accounts:signup_sent")
    return render(request, "accounts/signup.html", {"form": form})


def _too_many(
    request: HttpRequest, template: str, context: dict[str, Any], wait: int, message: str
) -> HttpResponse:
    """The page again with ``message`` on top: status 429, and Retry-After in seconds."""
    response = render(request, template, {**context, "limit_message": message}, status=429)
    response["Retry-After"] = str(wait)
    return response


class PasswordResetView(auth_views.PasswordResetView):
    """Django's page, within the API's per-address budget for reset emails."""

    form_class = PasswordResetRequestForm  # the email goes through the outbox
    template_name = "accounts/password_reset_form.html"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: PasswordResetRequestForm) -> HttpResponse:
        wait = web_throttle_wait(self.request, PasswordResetThrottle)
        if wait is not None:
            context = self.get_context_data(form=form)
            message = too_many_requests_message(wait)
            return _too_many(self.request, self.template_name, context, wait, message)
        return super().form_valid(form)


def signup_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/signup_sent.html")


@require_http_methods(["GET", "POST"])
def signup_confirm_page(request: HttpRequest, uidb64: str, token: str) -> HttpResponse:
    """GET shows a button, so a mail scanner fetching the link changes nothing; POST confirms
    the address and logs in."""
    if request.method == "GET":
        return render(request, "accounts/signup_confirm.html")
    try:
        user = signup_confirm(uidb64=uidb64, token=token)
    except DomainError as exc:
        return render(request, "accounts/signup_confirm.html", {"error": exc.detail}, status=400)
    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    messages.success(request, f"Welcome, {user.get_username()}! Your account is ready.")
    return redirect(settings.LOGIN_REDIRECT_URL)


class LoginView(auth_views.LoginView):
    """Django's login page, answering 429 with Retry-After while the account or the client's
    address is locked after failed logins (``accounts.login_limits``)."""

    template_name = "accounts/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        locked = self._locked_response(request)
        if locked is not None:
            return locked
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form was refused: did this failure lock it?
            return self._locked_response(request) or response
        return response

    def _locked_response(self, request: HttpRequest) -> HttpResponse | None:
        username = request.POST.get("username", "")
        wait = login_lock_wait(username=username, address=client_address(request))
        if wait is None:
            return None
        form = self.get_form_class()(request, initial={"username": username})
        context = self.get_context_data(form=form)
        return _too_many(request, self.template_name, context, wait, lockout_message(wait))


def admin_login(request: HttpRequest) -> HttpResponse:
    """The admin's login page (``admin.site.login``, whose form is ``AdminLoginForm``),
    answering 429 with Retry-After while failed logins lock the account or the address."""
    response = admin.site.login(request)
    context = getattr(response, "context_data", None) or {}
    wait = getattr(context.get("form"), "lock_wait", None)
    if wait is not None:
        response.status_code = 429
        response["Retry-After"] = str(wait)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    current = profile_get(user=request.user)
    form = ProfileForm(
        request.POST or None, instance=current, initial={"email": request.user.email}
    )
    if request.method == "POST" and form.is_valid():
        try:
            profile_update(user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            messages.success(request, "Profile saved.")
            return redirect("accounts:profile")
    return _profile_page(request, form=form, profile=current)


def _profile_page(
    request: HttpRequest,
    *,
    form: ProfileForm | None = None,
    vacation_form: VacationStartForm | None = None,
    profile: object = None,
    status: int = 200,
) -> HttpResponse:
    profile = profile or profile_get(user=request.user)
    context = {
        "form": form or ProfileForm(instance=profile, initial={"email": request.user.email}),
        "profile": profile,
        "vacation_form": vacation_form or VacationStartForm(),
        "allowance": vacation_allowance(user=request.user, now=timezone.now()),
        "vacations": vacation_list_recent(user=request.user),
        "calendar_url": _calendar_url(request.user),
        "push_devices": push_device_list(user=request.user),
        "vapid_public_key": settings.WEBPUSH_VAPID_PUBLIC_KEY,
    }
    return render(request, "accounts/profile.html", context, status=status)


def _calendar_url(user: Any) -> str | None:
    """The address of ``user``'s private calendar, or None if they have none."""
    feed = calendar_feed_get(user=user)
    if feed is None:
        return None
    return settings.SITE_URL + reverse("calendar:feed", args=[feed.secret])


@login_required
@require_POST
def calendar_renew(request: HttpRequest) -> HttpResponse:
    """Make the player's calendar address, or a new one that replaces (and kills) the old."""
    had_one = calendar_feed_get(user=request.user) is not None
    calendar_feed_renew(user=request.user)
    if had_one:
        messages.success(request, "New calendar address made: the old one no longer works.")
    else:
        messages.success(request, "Your calendar address is ready: add it to your calendar.")
    return redirect(reverse("accounts:profile") + "#calendar")


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    """Keep the push subscription this browser made (``push.js`` fills the form)."""
    fields = {name: request.POST.get(name, "").strip() for name in ("endpoint", "p256dh", "auth")}
    try:
        push_device_add(user=request.user, name=request.POST.get("name", ""), **fields)
    except ValidationError as exc:
        problems = "; ".join(f"{field}: {' '.join(m)}" for field, m in exc.message_dict.items())
        messages.error(request, f"This browser's subscription was not kept ({problems}).")
    else:
        messages.success(request, "Notifications are on for this device.")
    return redirect(reverse("accounts:profile") + "#push")


@login_required
@require_POST
def push_device_delete(request: HttpRequest, device_id: int) -> HttpResponse:
    try:
        push_device_remove(user=request.user, device_id=device_id)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "That device gets no more notifications.")
    return redirect(reverse("accounts:profile") + "#push")


@login_required
@require_POST
def calendar_off(request: HttpRequest) -> HttpResponse:
    calendar_feed_delete(user=request.user)
    messages.success(request, "Calendar address turned off: it no longer works.")
    return redirect(reverse("accounts:profile") + "#calendar")


@login_required
@require_POST
def vacation_begin(request: HttpRequest) -> HttpResponse:
    form = VacationStartForm(request.POST)
    if form.is_valid():
        try:
            vacation = vacation_start(user=request.user, days=form.cleaned_data["days"])
        except DomainError as exc:
            form.add_error("days", exc.detail)
        else:
            messages.success(
                request,
                "Your vacation has started: your clocks are stopped until "
                f"{timezone.localtime(vacation.ends_at):%a %d %b %Y, %H:%M %Z}.",
            )
            return redirect("accounts:profile")
    return _profile_page(request, vacation_form=form, status=400)


@login_required
@require_POST
def vacation_finish(request: HttpRequest) -> HttpResponse:
    try:
        vacation_end(user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "Your vacation has ended: your clocks are running again.")
    return redirect("accounts:profile")


@login_required
@require_http_methods(["GET", "POST"])
def tokens(request: HttpRequest) -> HttpResponse:
    form = ApiTokenCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            token, key = api_token_create(user=request.user, name=form.cleaned_data["name"])
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            request.session[NEW_TOKEN_SESSION_KEY] = {"name": token.name, "key": key}
            return redirect("accounts:tokens")
    context = {
        "form": form,
        "tokens": api_token_list(user=request.user),
        "new_token": request.session.pop(NEW_TOKEN_SESSION_KEY, None),
    }
    return render(request, "accounts/tokens.html", context)


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    try:
        token = api_token_revoke(user=request.user, token_id=token_id)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, f"Token “{token.name}” revoked: its key no longer works.")
    return redirect("accounts:tokens")
