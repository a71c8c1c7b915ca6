"""League pages: the list, a league's page, a season's division tables, the history, and
the organiser's pages to create a league and change its rules.

Thin: reads through ``leagues.selectors``, writes through ``leagues.services``; a refused
request's ``DomainError.detail`` is shown as a message before going back to the page (or on
the form). A division's games, withdrawals and adjudications are on its round robin's
tournament page.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.views.decorators.http import require_POST

from celticsite.errors import DomainError
from games.forms import form_saved
from leagues import invitations, selectors, services
from leagues.forms import LeagueCreateForm, LeagueForm, MoveForm
from leagues.models import League, Season


def _league(request: HttpRequest, league_id: int) -> League:
    try:
        return selectors.league_get(league_id=league_id, user=request.user)
    except DomainError as exc:
        raise Http404(exc.detail) from None


def _season(request: HttpRequest, season_id: int) -> Season:
    try:
        return selectors.season_get(season_id=season_id, user=request.user)
    except DomainError as exc:
        raise Http404(exc.detail) from None


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = [
        (league, selectors.season_current(league=league))
        for league in selectors.league_list(user=request.user)
    ]
    return render(
        request,
        "leagues/list.html",
        {
            "leagues": leagues,
            "invitations": selectors.invitations_of(user=request.user),
            "can_create": selectors.league_can_create(user=request.user),
        },
    )


def league_detail(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    current = selectors.season_current(league=league)
    return render(
        request,
        "leagues/detail.html",
        {
            "league": league,
            "rules": selectors.league_rules(league=league),
            "current": current,
            "seasons": selectors.league_seasons(league=league),
            "membership": current
            and selectors.season_membership_of(season=current, user=request.user),
            "can_edit": selectors.league_can_organise(league=league, user=request.user),
        },
    )


def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season(request, season_id)
    can_manage = selectors.season_can_manage(season=season, user=request.user)
    return render(
        request,
        "leagues/season.html",
        {
            "season": season,
            "league": season.league,
            "tables": selectors.season_tables(season=season),
            "members": selectors.season_memberships(season=season),
            "membership": selectors.season_membership_of(season=season, user=request.user),
            "can_manage": can_manage,
            "before_start": season.status in invitations.BEFORE_THE_START,
            "invited": selectors.season_invitations(season=season) if can_manage else (),
            "move_form": MoveForm(season=season) if can_manage else None,
        },
    )


def league_history(request: HttpRequest, league_id: int) -> HttpResponse:
    league = _league(request, league_id)
    winners, paths = selectors.league_history(league=league)
    return render(
        request, "leagues/history.html", {"league": league, "winners": winners, "paths": paths}
    )


@require_POST
@login_required
def season_action(request: HttpRequest, season_id: int, action: str) -> HttpResponse:
    """Register, cancel, answer an invitation, or choose whether to play the next season
    too."""
    season = _season(request, season_id)
    user = request.user
    try:
        if action == "register":
            services.season_register(
                season_id=season.pk,
                user=user,
                this_season_only=request.POST.get("this_season_only") == "on",
            )
            messages.success(request, f"You are registered for {season}.")
        elif action == "cancel":
            services.season_registration_cancel(season_id=season.pk, user=user)
            messages.success(request, "Your registration is cancelled.")
        elif action in ("accept", "decline"):
            invitations.season_invitation_answer(
                season_id=season.pk, user=user, accept=action == "accept"
            )
            messages.success(
                request,
                f"You are registered for {season}."
                if action == "accept"
                else "You declined the invitation.",
            )
        elif action in ("carry", "this-season-only"):
            services.season_carry_over_set(
                season_id=season.pk, user=user, carry_over=action == "carry"
            )
            messages.success(
                request,
                "You will be carried into the next season."
                if action == "carry"
                else "You play this season only: you will not be carried into the next one.",
            )
        else:
            raise Http404(f"No action {action!r}.")
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect("leagues:season", season_id=season.pk)


@require_POST
@login_required
def season_move(request: HttpRequest, season_id: int) -> HttpResponse:
    """The organiser places a registered player in a tier (audited)."""
    season = _season(request, season_id)
    form = MoveForm(request.POST, season=season)
    if not form.is_valid():
        messages.error(request, "; ".join(e for errs in form.errors.values() for e in errs))
        return redirect("leagues:season", season_id=season.pk)
    try:
        moved = services.season_player_move(
            season_id=season.pk,
            actor=request.user,
            player_id=form.cleaned_data["player"],
            tier=form.cleaned_data["tier"],
            reason=form.cleaned_data["reason"],
        )
        name = selectors.player_name(user=moved.player)
        tier = moved.tier_requested
        messages.success(
            request,
            f"{name} starts in division {tier}." if tier else f"{name} is placed by the rules.",
        )
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect("leagues:season", season_id=season.pk)


PLAYER_ACTIONS = ("invite", "add", "remove")


@require_POST
@login_required
def season_players(request: HttpRequest, season_id: int, action: str) -> HttpResponse:
    """The organiser invites a player, registers one directly, or removes one (audited)."""
    if action not in PLAYER_ACTIONS:
        raise Http404(f"No action {action!r}.")
    season = _season(request, season_id)
    try:
        user = invitations.user_by_username(username=request.POST.get("username", ""))
        name = selectors.player_name(user=user)
        if action == "invite":
            invitations.season_invite(season_id=season.pk, actor=request.user, user=user)
            messages.success(request, f"{name} is invited and told by email.")
        elif action == "add":
            invitations.season_player_add(season_id=season.pk, actor=request.user, user=user)
            messages.success(request, f"{name} is registered for {season} and told by email.")
        else:
            invitations.season_player_remove(
                season_id=season.pk,
                actor=request.user,
                user=user,
                reason=request.POST.get("reason", ""),
            )
            messages.success(request, f"{name} is removed from {season}.")
    except DomainError as exc:
        messages.error(request, exc.detail)
    return redirect("leagues:season", season_id=season.pk)


# --- Organisers ---------------------------------------------------------------------------------


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    """A new league and its first season."""
    try:
        selectors.league_creator_require(user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("leagues:list")
    form = LeagueCreateForm(request.POST if request.method == "POST" else None)
    league = form_saved(
        form, lambda: services.league_create(organiser=request.user, **form.service_kwargs())
    )
    if league is not None:
        messages.success(request, f"{league.name} is created. {_first_season(league)}")
        return redirect("leagues:detail", league_id=league.pk)
    return _form_page(request, form, league=None)


def _first_season(league: League) -> str:
    """When the new league's first season takes registrations, in the viewer's time zone."""
    season = selectors.season_current(league=league)
    if season is not None and season.status == Season.Status.PLANNED:
        opens = timezone.localtime(season.registration_opens_at)
        return f"Season 1 opens for registration on {date_format(opens, 'j M Y, H:i')}."
    return "Registration for season 1 is open."


@login_required
def league_edit(request: HttpRequest, league_id: int) -> HttpResponse:
    """The league's name and rules; the next season's start uses them."""
    league = _league(request, league_id)
    try:
        selectors.league_organiser_require(league=league, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("leagues:detail", league_id=league.pk)
    form = LeagueForm(request.POST if request.method == "POST" else None, league=league)
    saved = form_saved(
        form,
        lambda: services.league_update(
            league_id=league.pk, actor=request.user, **form.service_kwargs()
        ),
    )
    if saved is not None:
        messages.success(request, "The rules are saved; the next season's start uses them.")
        return redirect("leagues:detail", league_id=league.pk)
    return _form_page(request, form, league=league)


def _form_page(request: HttpRequest, form: LeagueForm, *, league: League | None) -> HttpResponse:
    """The form's page: 400 after a refused post (what was typed, and why), else 200."""
    status = 400 if form.is_bound else 200
    return render(request, "leagues/form.html", {"form": form, "league": league}, status=status)
