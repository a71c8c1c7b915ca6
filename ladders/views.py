"""Ladder pages: the list, a ladder's page with its places, the challenges being played
and its history, with join, leave and challenge buttons (and, for whoever may remove players,
a remove form on each place), and the organiser's page to create a ladder.

Thin: reads through ``ladders.selectors``, writes through ``ladders.services``; a refused
request's ``DomainError.detail`` is shown as a message before going back to the page (or on
the form).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from celticsite.errors import DomainError
from games.forms import form_saved
from ladders import selectors, services
from ladders.forms import LadderForm
from ladders.models import Ladder

HISTORY_SHOWN = 50


def _ladder(ladder_id: int) -> Ladder:
    ladder = selectors.ladder_get(ladder_id=ladder_id)
    if ladder is None:
        raise Http404(f"There is no ladder #{ladder_id}.")
    return ladder


def ladder_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "ladders/list.html",
        {
            "ladders": selectors.ladder_list(),
            "can_create": selectors.ladder_can_create(user=request.user),
        },
    )


def ladder_detail(request: HttpRequest, ladder_id: int) -> HttpResponse:
    ladder = _ladder(ladder_id)
    viewer = request.user.pk if request.user.is_authenticated else None
    places = selectors.ladder_places(ladder=ladder, viewer_id=viewer)
    return render(
        request,
        "ladders/detail.html",
        {
            "ladder": ladder,
            "places": places,
            "mine": next((p for p in places if p.player_id == viewer), None),
            "can_manage": selectors.ladder_can_manage(ladder=ladder, user=request.user),
            "challenges": selectors.ladder_challenges_playing(ladder=ladder),
            "events": selectors.ladder_history(ladder=ladder)[:HISTORY_SHOWN],
        },
    )


@require_POST
@login_required
def ladder_action(request: HttpRequest, ladder_id: int, action: str) -> HttpResponse:
    """Join, leave, or challenge the player named in the form; the organiser (or staff with
    the permission) removes one, with a reason."""
    ladder = _ladder(ladder_id)
    try:
        if action == "join":
            row = services.ladder_join(ladder_id=ladder.pk, user=request.user)
            messages.success(request, f"You joined {ladder.name} in place {row.place}.")
        elif action == "leave":
            services.ladder_leave(ladder_id=ladder.pk, user=request.user)
            messages.success(request, f"You left {ladder.name}.")
        elif action == "challenge":
            defender_id = int(request.POST.get("defender", "0") or 0)
            challenge = services.ladder_challenge(
                ladder_id=ladder.pk, challenger=request.user, defender_id=defender_id
            )
            messages.success(
                request,
                f"Challenge made: you play {ladder.challenger_seat_name} against "
                f"{challenge.defender}.",
            )
            return redirect("games:game", game_id=challenge.game_id)
        elif action == "remove":
            event = services.ladder_player_remove(
                ladder_id=ladder.pk,
                actor=request.user,
                player_id=int(request.POST.get("player", "0") or 0),
                reason=request.POST.get("reason", ""),
            )
            messages.success(request, f"{event.player} is removed from {ladder.name}.")
        else:
            raise Http404(f"No action {action!r}.")
    except (DomainError, ValueError) as exc:
        messages.error(request, getattr(exc, "detail", "The player to challenge is missing."))
    return redirect("ladders:detail", ladder_id=ladder.pk)


@login_required
def ladder_create(request: HttpRequest) -> HttpResponse:
    """A new, empty ladder."""
    try:
        selectors.ladder_creator_require(user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("ladders:list")
    form = LadderForm(request.POST if request.method == "POST" else None)
    ladder = form_saved(
        form, lambda: services.ladder_create(organiser=request.user, **form.service_kwargs())
    )
    if ladder is not None:
        messages.success(request, f"{ladder.name} is created: players may join it now.")
        return redirect("ladders:detail", ladder_id=ladder.pk)
    status = 400 if form.is_bound else 200
    return render(request, "ladders/form.html", {"form": form}, status=status)
