"""Tournament pages: the list, an event's page, and the organiser's create and manage pages.

Thin, like the game pages: reads through ``tournaments.selectors``, writes through
``tournaments.services``, and a refused request's ``DomainError.detail`` is shown as a
message (or on the form) before going back to the page.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from celticsite.errors import DomainError
from games.forms import domain_error_to_form, form_saved
from tournaments import errors, pages, selectors, services, tables
from tournaments.forms import (
    ByeForm,
    ForbiddenPairsForm,
    InviteForm,
    ManualPairingForm,
    ReasonForm,
    RegisterForm,
    ResultForm,
    TournamentForm,
)
from tournaments.models import Entry, Round, Tournament
from tournaments.standings import LEGEND as MARKS_LEGEND

View = Callable[..., HttpResponse]


def _visible(request: HttpRequest, tournament_id: int) -> Tournament:
    try:
        return selectors.tournament_get_visible(tournament_id=tournament_id, user=request.user)
    except DomainError as exc:
        raise Http404(exc.detail) from None


def _managed(
    request: HttpRequest, tournament_id: int, *, permission: str = selectors.ORGANISE
) -> Tournament:
    try:
        return selectors.tournament_get_managed(
            tournament_id=tournament_id, user=request.user, permission=permission
        )
    except errors.TournamentNotFound as exc:
        raise Http404(exc.detail) from None


def _action(view: View) -> View:
    """A POST by a logged-in user that goes back to the event (its manage page if the form
    says so); a refusal becomes an error message."""

    @require_POST
    @login_required
    @wraps(view)
    def wrapper(request: HttpRequest, tournament_id: int, **kwargs: Any) -> HttpResponse:
        try:
            done = view(request, tournament_id, **kwargs)
        except Http404:
            raise
        except DomainError as exc:
            messages.error(request, exc.detail)
        else:
            if done:
                messages.success(request, done)
        page = "manage" if request.POST.get("back") == "manage" else "detail"
        return redirect(f"tournaments:{page}", tournament_id=tournament_id)

    return wrapper


# --- Reading ------------------------------------------------------------------------------------


def tournament_list(request: HttpRequest) -> HttpResponse:
    """The events of their own; league divisions are listed by their seasons under /leagues/
    (their pages stay where they are, linked from games, seasons and players' pages)."""
    user = request.user
    context: dict[str, Any] = {
        "open": selectors.tournament_list_open(user=user, league_division=False),
        "running": selectors.tournament_list_running(user=user, league_division=False),
        "finished": selectors.tournament_list_finished(user=user, league_division=False)[:20],
        "can_create": user.is_authenticated and user.has_perm(selectors.ORGANISE),
    }
    if user.is_authenticated:
        context["drafts"] = selectors.tournament_list(
            user=user, status=Tournament.Status.DRAFT, league_division=False
        )
    return render(request, "tournaments/list.html", context)


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _visible(request, tournament_id)
    all_entries = selectors.tournament_entries(tournament=tournament)
    entries = list(all_entries[: pages.STANDINGS_PER_PAGE])
    user = request.user
    mine = all_entries.filter(player_id=user.pk).first() if user.is_authenticated else None
    started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    late_round = selectors.tournament_late_entry_round(tournament=tournament)
    context: dict[str, Any] = {
        "tournament": tournament,
        "division": tournament.division,
        "entries": entries,
        "entry_total": len(entries)
        if len(entries) < pages.STANDINGS_PER_PAGE
        else all_entries.count(),
        "mine": mine,
        "rounds": pages.rounds_with_boards(
            tournament=tournament,
            round_number=request.GET.get("round"),
            boards=request.GET.get("boards"),
        ),
        "can_manage": bool(selectors.tournament_manager_rights(tournament=tournament, user=user)),
        "can_register": (tournament.status == Tournament.Status.REGISTRATION or late_round)
        and (mine is None or mine.status in (Entry.Status.INVITED, Entry.Status.DECLINED)),
        "late_round": late_round,
        "can_leave": mine is not None
        and mine.status in (*Entry.PLACE_TAKING, Entry.Status.PENDING, Entry.Status.INVITED)
        and tournament.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
        "register_form": RegisterForm(),
    }
    if mine is not None and mine.status == Entry.Status.ACTIVE and tournament.half_point_byes_max:
        context.update(
            bye_rounds=selectors.tournament_rounds_to_come(tournament=tournament),
            my_byes=[
                b
                for b in selectors.tournament_byes_ahead(tournament=tournament)
                if b.entry_id == mine.pk
            ],
        )
    if started:
        context.update(_standings_context(request, tournament, mine))
    return render(request, "tournaments/detail.html", context)


def _standings_context(
    request: HttpRequest, tournament: Tournament, mine: Entry | None
) -> dict[str, Any]:
    """One page of the standings and, for small sections, the crosstables."""
    standings, lines = selectors.tournament_standings_with_places(tournament=tournament)
    page = pages.standings_page(
        lines, number=request.GET.get("page"), entry_id=mine.pk if mine else None
    )
    fits = pages.crosstable_fits(lines)
    wall_chart_fits = pages.round_table_fits(lines)
    return {
        "standings": standings,
        "lines": page.lines,
        "sections": page.sections,
        "standings_page": page,
        "crosstable_max": pages.CROSSTABLE_MAX_PLAYERS,
        "crosstable_left_out": not fits and not tournament.is_knockout,
        "crosstables": selectors.tournament_crosstables(tournament=tournament)
        if fits and not tournament.is_knockout
        else [],
        "round_table_max": pages.ROUND_TABLE_MAX_PLAYERS,
        "round_table_left_out": not wall_chart_fits and not tournament.is_knockout,
        "round_tables": tables.tournament_round_tables(tournament=tournament, standings=standings)
        if wall_chart_fits
        else [],
        "bracket": tables.tournament_bracket(tournament=tournament),
        "marks_legend": MARKS_LEGEND,
    }


# --- Players ------------------------------------------------------------------------------------


@_action
def register(request: HttpRequest, tournament_id: int) -> str:
    tournament = _visible(request, tournament_id)
    form = RegisterForm(request.POST)
    code = form.cleaned_data["entry_code"] if form.is_valid() else ""
    entry = services.tournament_register(
        tournament_id=tournament.pk, user=request.user, entry_code=code
    )
    if entry.status == Entry.Status.PENDING:
        return "Your entry waits for the organiser's approval."
    return f"You are registered in {tournament}."


@_action
def withdraw(request: HttpRequest, tournament_id: int) -> str:
    tournament = _visible(request, tournament_id)
    if tournament.status == Tournament.Status.RUNNING:
        services.entry_withdraw(tournament_id=tournament.pk, user=request.user)
        return f"You withdrew from {tournament}."
    services.registration_cancel(tournament_id=tournament.pk, user=request.user)
    return f"Your registration in {tournament} is cancelled."


@_action
def bye_request(request: HttpRequest, tournament_id: int) -> str:
    tournament = _visible(request, tournament_id)
    number = _round_number(request)
    bye = services.bye_request(tournament_id=tournament.pk, user=request.user, round_number=number)
    return f"You have a half-point bye in round {bye.round.number}."


@_action
def bye_cancel(request: HttpRequest, tournament_id: int) -> str:
    tournament = _visible(request, tournament_id)
    number = _round_number(request) or 0
    services.bye_request_cancel(tournament_id=tournament.pk, user=request.user, round_number=number)
    return f"Your bye in round {number} is taken back: you will be paired."


def _round_number(request: HttpRequest) -> int | None:
    text = request.POST.get("round", "").strip()
    if not text:
        return None
    if not text.isdigit():
        raise DomainError(f"A round number is expected, not {text!r}.")
    return int(text)


# --- Organisers ---------------------------------------------------------------------------------


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not request.user.has_perm(selectors.ORGANISE):
        messages.error(request, "You need the organiser permission to create tournaments.")
        return redirect("tournaments:list")
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        settings = form.settings()
        try:
            tournament = services.tournament_create(
                organiser=request.user, name=settings.pop("name"), **settings
            )
        except errors.InvalidSettings as exc:
            domain_error_to_form(form, exc)
        else:
            messages.success(request, f"{tournament} is saved as a draft; open registration "
                             "when it is ready.")  # fmt: skip
            return redirect("tournaments:manage", tournament_id=tournament.pk)
    status = 400 if form.is_bound else 200
    return render(request, "tournaments/form.html", {"form": form}, status=status)


@login_required
def tournament_manage(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Settings (before the start), entries, rounds and results of one event, with the actions
    the user may take (``selectors.tournament_manager_rights``): its organiser all of them, an
    arbiter those of the permissions they hold."""
    tournament = _visible(request, tournament_id)
    rights = selectors.tournament_manager_rights(tournament=tournament, user=request.user)
    if not rights.organise and (not rights or request.method == "POST"):
        try:  # the settings are the organiser's: an arbiter only looks
            selectors.tournament_manager_require(tournament=tournament, user=request.user)
        except errors.NotOrganiser as exc:
            messages.error(request, exc.detail)
            page = "tournaments:manage" if rights else "tournaments:detail"
            return redirect(page, tournament_id=tournament.pk)
    editable = rights.organise and tournament.status in (
        Tournament.Status.DRAFT,
        Tournament.Status.REGISTRATION,
    )
    if request.method == "POST" and not editable:
        messages.error(request, f"{tournament} has started: its settings can no longer change.")
        return redirect("tournaments:manage", tournament_id=tournament.pk)
    form = TournamentForm(request.POST or None, tournament=tournament)
    saved = form_saved(
        form,
        lambda: services.tournament_update(
            tournament_id=tournament.pk, actor=request.user, **form.settings()
        ),
    )
    if saved is not None:
        messages.success(request, "Settings saved.")
        return redirect("tournaments:manage", tournament_id=tournament.pk)
    context = {
        **_manage_context(tournament, request.GET),
        "rights": rights,
        "form": form if editable else None,
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/manage.html", context, status=status)


def _manage_context(tournament: Tournament, query: Any) -> dict[str, Any]:
    """What the manage page shows of ``tournament`` (the template offers each action only to
    the holders of its ``rights``): the entries 100 a page (``?entries=``), one round's games
    100 a page (``?round=``, ``?boards=``), as the event page does."""
    rounds = pages.rounds_with_boards(
        tournament=tournament, round_number=query.get("round"), boards=query.get("boards")
    )
    pairing = next((r.number for r in rounds if r.status == Round.Status.PAIRING), None)
    to_come = selectors.tournament_rounds_to_come(tournament=tournament)
    next_round = pairing or (to_come[0] if to_come else None)  # paired by hand if wanted
    swiss = tournament.format == Tournament.Format.SWISS
    entries = selectors.tournament_entries(tournament=tournament)
    return {
        "tournament": tournament,
        "entries": Paginator(entries, pages.STANDINGS_PER_PAGE).get_page(query.get("entries")),
        "active_entries": [e for e in entries if e.status == Entry.Status.ACTIVE] if swiss else [],
        "rounds": [r for r in rounds if r.status != Round.Status.PLANNED],
        "to_adjudicate": list(selectors.tournament_games_to_adjudicate(tournament=tournament)),
        "can_pair": tournament.status == Tournament.Status.RUNNING
        and not tournament.is_knockout
        and next_round is not None,
        "next_round": next_round,
        "running_round": next((r for r in rounds if r.status == Round.Status.RUNNING), None),
        "pairing_form": ManualPairingForm(colour_names=tournament.colour_names),
        "reason_form": ReasonForm(),
        "result_form": ResultForm(colour_names=tournament.colour_names),
        "invite_form": InviteForm(),
        "bye_form": ByeForm(),
        "swiss_running": swiss and tournament.status == Tournament.Status.RUNNING,
        "byes_ahead": selectors.tournament_byes_ahead(tournament=tournament),
        "forbidden_form": _forbidden_form(tournament)
        if swiss
        and tournament.status not in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
        else None,
    }


def _forbidden_form(tournament: Tournament) -> ForbiddenPairsForm:
    pairs = selectors.tournament_forbidden_pair_names(tournament=tournament)
    return ForbiddenPairsForm(initial={"pairs": "\n".join(" ".join(pair) for pair in pairs)})


@_action
def open_registration(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id)
    services.tournament_registration_open(tournament_id=tournament.pk, actor=request.user)
    return "Registration is open."


@_action
def start(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id)
    services.tournament_start(tournament_id=tournament.pk, actor=request.user)
    return f"{tournament} has started: round 1 is being paired, its games start in a moment."


@_action
def cancel(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id)
    reason = _reason(request)
    services.tournament_cancel(tournament_id=tournament.pk, actor=request.user, reason=reason)
    return f"{tournament} is cancelled."


@_action
def invite(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
    username = request.POST.get("username", "").strip()
    user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise errors.EntryNotFound(f"There is no player called {username!r}.")
    services.entry_invite(tournament_id=tournament.pk, actor=request.user, user=user)
    return f"{user.get_username()} is invited."


ENTRY_ACTIONS = ("approve", "decline", "remove")


@_action
def entry_action(request: HttpRequest, tournament_id: int, entry_id: int, action: str) -> str:
    if action not in ENTRY_ACTIONS:
        raise Http404(f"No entry action {action!r}.")
    tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
    entry = selectors.tournament_entry_in(tournament=tournament, entry_id=entry_id)
    if action == "approve":
        services.entry_approve(entry_id=entry.pk, actor=request.user)
        return f"{entry.name} is registered."
    if action == "decline":
        services.entry_decline(entry_id=entry.pk, actor=request.user)
        return f"{entry.name}'s entry is declined."
    services.entry_remove(entry_id=entry.pk, actor=request.user, reason=_reason(request))
    return f"{entry.name} is removed."


@_action
def pair_manually(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
    form = ManualPairingForm(request.POST)
    if not form.is_valid():
        raise DomainError(" ".join(e for errs in form.errors.values() for e in errs))
    pairs, byes = form.cleaned_data["pairs"]
    seeds = {e.seed: e.pk for e in selectors.tournament_entries(tournament=tournament) if e.seed}
    unknown = sorted(({n for pair in pairs for n in pair} | set(byes)) - set(seeds))
    if unknown:
        raise DomainError(f"No player has seed {', '.join(map(str, unknown))}.")
    rnd = services.round_pair_manually(
        tournament_id=tournament.pk,
        actor=request.user,
        pairs=[(seeds[a], seeds[b]) for a, b in pairs],
        byes=[seeds[n] for n in byes],
        reason=form.cleaned_data["reason"],
    )
    return f"Round {rnd.number} is paired and started."


@_action
def game_result(
    request: HttpRequest, tournament_id: int, tournament_game_id: int, action: str
) -> str:
    if action not in ("adjudicate", "fix"):
        raise Http404(f"No game action {action!r}.")
    tournament = _managed(request, tournament_id, permission=selectors.ADJUDICATE)
    selectors.tournament_game_in(tournament=tournament, tournament_game_id=tournament_game_id)
    form = ResultForm(request.POST)
    if not form.is_valid():
        raise DomainError(
            "Choose a result and give a reason: "
            + " ".join(f"{field}: {' '.join(errs)}" for field, errs in form.errors.items())
        )
    service = (
        services.tournament_game_adjudicate
        if action == "adjudicate"
        else services.tournament_result_fix
    )
    link = service(
        tournament_game_id=tournament_game_id,
        actor=request.user,
        result=form.cleaned_data["result"],
        reason=form.cleaned_data["reason"],
    )
    return f"Board {link.board} of round {link.round.number}: {link.get_result_display()}."


@_action
def entry_bye(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
    form = ByeForm(request.POST)
    if not form.is_valid():
        raise DomainError(
            "Choose the player, the kind and the round, and give a reason: "
            + " ".join(f"{field}: {' '.join(errs)}" for field, errs in form.errors.items())
        )
    entry = selectors.tournament_entry_in(
        tournament=tournament, entry_id=form.cleaned_data["entry"]
    )
    bye = services.bye_enter(
        tournament_id=tournament.pk,
        actor=request.user,
        entry_id=entry.pk,
        kind=form.cleaned_data["kind"],
        round_number=form.cleaned_data["round"],
        reason=form.cleaned_data["reason"],
    )
    return f"{entry.name}: {bye.get_kind_display().lower()} in round {bye.round.number}."


@_action
def forbidden_pairs(request: HttpRequest, tournament_id: int) -> str:
    tournament = _managed(request, tournament_id, permission=selectors.MANAGE_ENTRIES)
    form = ForbiddenPairsForm(request.POST)
    if not form.is_valid():
        raise DomainError(" ".join(e for errs in form.errors.values() for e in errs))
    by_name = {
        e.player.get_username().lower(): e.pk
        for e in selectors.tournament_entries(tournament=tournament)
        if e.player is not None
    }
    names = [name for pair in form.cleaned_data["pairs"] for name in pair]
    unknown = sorted({n for n in names if n.lower() not in by_name})
    if unknown:
        raise DomainError(f"Not a player of {tournament}: {', '.join(unknown)}.")
    services.forbidden_pairs_set(
        tournament_id=tournament.pk,
        actor=request.user,
        pairs=[(by_name[a.lower()], by_name[b.lower()]) for a, b in form.cleaned_data["pairs"]],
        reason=form.cleaned_data["reason"],
    )
    count = len(form.cleaned_data["pairs"])
    return f"{count} forbidden pair{'s' if count != 1 else ''} saved."


def _reason(request: HttpRequest) -> str:
    form = ReasonForm(request.POST)
    if not form.is_valid():
        raise DomainError("A reason is required: say why, for the players and the audit log.")
    return str(form.cleaned_data["reason"])
