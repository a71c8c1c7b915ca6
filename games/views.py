"""Web pages for players: home, challenges, the game page with its board, and player lists.

Views stay thin: they read through ``games.selectors``, write through ``games.services``, and
show a refused request's ``DomainError.detail`` as a message before redirecting back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.text import slugify
from django.views.decorators.http import require_POST
from rest_framework.throttling import ScopedRateThrottle

from accounts.selectors import profile_get
from celticsite.errors import DomainError, NotFound
from celtictext import and_join
from games import selectors, services
from games.boards import BoardRequest, kind_pages
from games.clock import ClockReading
from games.forms import ChallengeForm, MoveForm
from games.kinds.base import State, StepKind
from games.models import (
    Challenge,
    ChallengeEntrant,
    ChallengeInvitation,
    Game,
    Move,
    TakebackRequest,
)
from games.turns import ReplayNav, Turn, group_turns, ply_of_turn

RECENT = 10


# --- home and lists ---------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    """A player's overview (their turn first), or a welcome and recent public games."""
    if not request.user.is_authenticated:
        recent = selectors.game_list_public()[:RECENT]
        return render(request, "games/home.html", {"public_games": recent})
    user = request.user
    now = timezone.now()
    my_turn = list(selectors.game_list_my_turn(user=user))
    clocks = selectors.game_clocks(games=my_turn, now=now)  # one query for the whole list
    for game in my_turn:
        game.clock = clocks[game.pk]  # type: ignore[attr-defined]
    waiting_ids = {game.pk for game in my_turn}
    active = [
        game
        for game in selectors.game_list_for_player(user=user, status=Game.Status.ACTIVE)
        if game.pk not in waiting_ids
    ]
    finished = selectors.game_list_for_player(user=user, status=Game.Status.FINISHED).order_by(
        "-finished_at"
    )[:RECENT]
    incoming = _with_seats(
        selectors.challenge_list_for_user(user=user, scope="incoming").filter(
            status=Challenge.Status.OPEN
        )
    )
    return render(
        request,
        "games/home.html",
        {
            "my_turn": my_turn,
            "active_games": active,
            # the heading says "opponents" once a game of more than two waits for others
            "several_opponents": any(game.seat_count > 2 for game in active),
            "finished_games": finished,
            "incoming": incoming,
            "seated": _seated(user) if incoming else set(),
            "live_signature": _live_signature(selectors.game_list_live_status(user=user)),
        },
    )


def _live_signature(status: dict[str, Any]) -> str:
    """Each active game with its ply, as ``live.js`` writes it to notice a change."""
    return ",".join(f"{row['id']}:{row['ply']}" for row in status["games"])


def live_games(request: HttpRequest) -> HttpResponse:
    """Public games in progress, the newest first, for anyone to watch."""
    games = selectors.game_list_public().filter(status=Game.Status.ACTIVE)
    page = Paginator(games, 25).get_page(request.GET.get("page"))
    return render(request, "games/live.html", {"page": page})


# --- challenges -------------------------------------------------------------------------------


def challenges(request: HttpRequest) -> HttpResponse:
    """Open seeks, the viewer's own challenges, and the form to offer a new one."""
    user = request.user
    form = ChallengeForm(
        request.POST or None,
        initial={"opponent": request.GET.get("opponent", "")[:150]},
        challenger=user if user.is_authenticated else None,
    )
    if request.method == "POST":
        if not user.is_authenticated:
            return redirect(f"{reverse('accounts:login')}?next={request.path}")
        if form.is_valid() and _create_challenge(request, form):
            return redirect("games:challenges")
    seeks = _with_seats(selectors.challenge_list_open(exclude_user=user))
    context: dict[str, Any] = {"form": form, "seeks": seeks}
    if user.is_authenticated:
        mine = _with_seats(selectors.challenge_list_for_user(user=user))
        context["seated"] = _seated(user)
        open_mine = [c for c in mine if c.status == Challenge.Status.OPEN]
        context["incoming"] = [c for c in open_mine if c.challenger_id != user.pk]
        context["outgoing"] = [c for c in open_mine if c.challenger_id == user.pk]
        context["decided"] = [c for c in mine if c.status != Challenge.Status.OPEN][:RECENT]
    status = 400 if form.is_bound and form.errors else 200
    return render(request, "games/challenges.html", context, status=status)


def _with_seats(challenges: QuerySet[Challenge]) -> QuerySet[Challenge]:
    """``challenges`` with what their rows show: the seats taken (``entrant_count``), and
    the invited players with who took a seat, read for the whole list at once."""
    return challenges.annotate(entrant_count=Count("entrants")).prefetch_related(
        Prefetch("invitations", queryset=ChallengeInvitation.objects.select_related("user")),
        "entrants",
    )


def _seated(user: Any) -> set[int]:
    """The open challenges where ``user`` holds a seat (an open seek or an invitation)."""
    return set(
        ChallengeEntrant.objects.filter(
            user=user, challenge__status=Challenge.Status.OPEN
        ).values_list("challenge_id", flat=True)
    )


def _create_challenge(request: HttpRequest, form: ChallengeForm) -> bool:
    """Create the challenge the valid ``form`` describes; on refusal, put the reason on it."""
    data = form.cleaned_data
    named = data["opponent"]
    try:
        services.challenge_create(
            challenger=request.user,
            opponent=named[0] if len(named) == 1 else None,
            invited=named if len(named) > 1 else (),
            kind=data["kind"],
            seat_count=data["seat_count"],
            seat_choice=data["seat"],
            rated=data["rated"],
            public=data["public"],
            window_forfeit=data["window_forfeit"],
            takebacks=data["takebacks"],
            time_control=form.time_control(),
            message=data["message"],
        )
    except DomainError as exc:
        form.add_error(None, exc.detail)
        return False
    if not named:
        messages.success(request, "Your open challenge is posted: anyone may accept it.")
    elif len(named) == 1:
        messages.success(request, f"Challenge sent to {named[0].get_username()}.")
    else:
        messages.success(
            request,
            f"Challenge sent to {and_join([u.get_username() for u in named])}. The game "
            f"starts when all {len(named)} have accepted.",
        )
    return True


@require_POST
@login_required
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    """Start the game; for a seek of more than two not yet full, take a seat and go back."""
    try:
        started = services.challenge_accept(challenge_id=challenge_id, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
        return _back(request, "games:challenges")
    if isinstance(started, Challenge):
        taken = f"{started.entrants.count() + 1} of {started.seat_count} seats taken"
        if started.invitations.exists():
            text = f"You accepted: {taken}. The game starts when every invited player has accepted."
        else:
            text = f"You took a seat: {taken}. The game starts when every seat is taken."
        messages.success(request, text)
        return _back(request, "games:challenges")
    seat = started.seat_of(request.user)
    name = started.seat_name(seat) if seat else "?"
    messages.success(request, f"The game has started: you play {name}.")
    return redirect("games:game", game_id=started.pk)


@require_POST
@login_required
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        challenge = services.challenge_decline(challenge_id=challenge_id, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        challenger = challenge.challenger.get_username()
        messages.success(request, f"You declined {challenger}'s challenge.")
    return _back(request, "games:challenges")


@require_POST
@login_required
def challenge_cancel(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        services.challenge_cancel(challenge_id=challenge_id, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "Your challenge is withdrawn.")
    return _back(request, "games:challenges")


def _back(request: HttpRequest, default: str) -> HttpResponse:
    """Redirect to the form's ``next`` field if it is a local address, else to ``default``."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect(default)


# --- the game page ----------------------------------------------------------------------------


def _visible_game(request: HttpRequest, game_id: int) -> Game:
    """The game if the viewer may see it; a private game is a 404 for outsiders."""
    try:
        return selectors.game_get_visible(game_id=game_id, user=request.user)
    except DomainError as exc:
        raise Http404(exc.detail) from None


def game(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board, the players and clocks, the move list with replay, and the move form."""
    game = _visible_game(request, game_id)
    current = selectors.game_position(game=game)
    state, status = current, 200
    turns = group_turns(current.steps)
    try:
        ply = _wanted_ply(request, turns, last=game.ply)
        if ply is not None:
            state = selectors.game_position(game=game, ply=ply)
    except (ValueError, DomainError) as exc:
        messages.error(request, exc.detail if isinstance(exc, DomainError) else str(exc))
        status = 400
    context = _game_context(request, game, state=state, current=current, turns=turns)
    context.update(_messages_context(request, game))
    return render(request, "games/game.html", context, status=status)


def _wanted_ply(request: HttpRequest, turns: Sequence[Turn], *, last: int) -> int | None:
    """The ply the address asks for: ``?ply=N`` (steps), or ``?turn=N`` (the position after
    turn N, the replay slider's when turns take several steps); None for the current one."""
    for name in ("ply", "turn"):
        wanted = request.GET.get(name, "").strip()
        if not wanted:
            continue
        if not re.fullmatch(r"-?\d+", wanted):
            expected = last if name == "ply" else len(turns)
            raise ValueError(f"{name}={wanted!r} is not a number: expected 0 to {expected}.")
        return int(wanted) if name == "ply" else ply_of_turn(turns, int(wanted))
    return None


def _game_context(
    request: HttpRequest, game: Game, *, state: State, current: State, turns: Sequence[Turn]
) -> dict[str, Any]:
    seat = game.seat_of(request.user)
    shown_ply = len(state.steps)
    replaying = shown_ply != len(current.steps)
    can_move = game.is_active and not replaying and seat is not None and game.seat_to_move == seat
    pages = kind_pages(game.kind)
    board = pages.game_board(
        BoardRequest(
            game=game, state=state, viewer_seat=seat, can_move=can_move, replaying=replaying
        )
    )
    clock = selectors.game_clock(game=game, now=timezone.now())
    seats = _seat_rows(game, clock, viewer_seat=seat, scores=board.get("seat_scores", {}))
    return {
        "game": game,
        "board_template": pages.board_template,
        "side_template": pages.side_template,
        **board,
        "seats": seats,
        "viewer_row": seats[seat - 1] if seat else None,
        "to_move_row": seats[game.seat_to_move - 1] if game.seat_to_move else None,
        "players_title": " v ".join(row["player"].get_username() for row in seats),
        "move_list_template": pages.move_list_template,
        "rules_url": pages.rules_url,
        "move_rows": _move_rows(game, turns, shown_ply=shown_ply),
        "shown_ply": shown_ply,
        "replaying": replaying,
        "nav": ReplayNav.of(turns, shown_ply),
        "can_move": can_move,
        "move_form": MoveForm(initial={"ply": game.ply}) if can_move else None,
        "clock": clock,
        "is_player": seat is not None,
        "game_over": not game.is_active,
        **_play_aids_context(request, game, seat=seat, replaying=replaying),
    }


def _play_aids_context(
    request: HttpRequest, game: Game, *, seat: int | None, replaying: bool
) -> dict[str, Any]:
    """What the page's script needs (confirmation, live polling) and the owner's queued
    conditional moves, which only they may see."""
    user = request.user
    your_turn = game.is_active and seat is not None and game.seat_to_move == seat
    confirm = profile_get(user=user).confirm_moves if user.is_authenticated else True
    can_queue = (
        game.is_active
        and seat is not None
        and not your_turn
        and not replaying
        and game.seat_count == 2  # conditional moves answer the one opponent's move
        and not game.game_kind.has_chance
    )
    return {
        "your_turn": your_turn,
        "confirm_moves": confirm,
        "live_url": reverse("games-api:game-live", args=[game.pk]),
        "can_queue_conditional": can_queue,
        "conditional_lines": (
            selectors.conditional_line_list(game=game, user=user) if can_queue else []
        ),
        "note": selectors.game_note_get(game=game, user=user) if seat is not None else None,
        **_takeback_context(game, seat=seat, replaying=replaying),
    }


def _takeback_context(game: Game, *, seat: int | None, replaying: bool) -> dict[str, Any]:
    """For a player of a game that allows takebacks: the request waiting for an answer, or
    the move they may ask to take back (their last, before the opponent has moved)."""
    none: dict[str, Any] = {"takeback_pending": None, "takeback_move": None}
    if not game.is_active or seat is None or replaying or selectors.takeback_refusal(game=game):
        return none
    pending = selectors.takeback_pending(game=game)
    if pending is not None:
        return {**none, "takeback_pending": pending}
    last = game.moves.order_by("-ply").first() if game.seat_to_move != seat else None
    if last is None or last.seat != seat or last.kind == Move.Kind.PASS:
        return none
    asked = TakebackRequest.objects.filter(game=game, ply=game.ply).exists()
    return {**none, "takeback_move": None if asked else last.notation}


_STEP_TEXT: dict[StepKind, Callable[[str], str]] = {
    StepKind.MOVE: lambda notation: notation,
    StepKind.PASS: lambda notation: "pass",
    StepKind.FORFEIT: lambda notation: f"forfeit {notation}",
    StepKind.LEAVE: lambda notation: f"left ({notation})" if notation else "left",
}


def _move_rows(game: Game, turns: Sequence[Turn], *, shown_ply: int) -> list[dict[str, Any]]:
    """The turns in rounds of one per seat, numbered as in the record (``1. f5 NE d5 NESW n``);
    each turn with its number, seat and text, the ply after it, and whether it is shown."""
    entries = []
    for number, turn in enumerate(turns, start=1):
        name = game.seat_name(turn.seat)
        first = turn.steps[0]
        entries.append(
            {
                "number": number,
                "seat": turn.seat,
                "seat_name": name,
                "css": slugify(name),
                "text": " ".join(_STEP_TEXT[step.kind](step.notation) for step in turn.steps),
                "kind": ""
                if len(turn.steps) > 1 or first.kind == StepKind.MOVE
                else first.kind.value,
                "ply": turn.end,
                "shown": turn.start < shown_ply <= turn.end,
            }
        )
    size = game.seat_count
    return [
        {"number": start // size + 1, "turns": entries[start : start + size]}
        for start in range(0, len(entries), size)
    ]


def _seat_rows(
    game: Game, clock: ClockReading | None, *, viewer_seat: int | None, scores: dict[int, str]
) -> list[dict[str, Any]]:
    """Each seat with its name (the kind's), player and time left; for the one to move, the
    running time left, the deadline and why their clock is stopped, if it is."""
    rows = []
    for seat in game.seat_list:
        to_move = game.is_active and game.seat_to_move == seat.seat
        running = clock if to_move else None
        name = game.seat_name(seat.seat)
        rows.append(
            {
                "seat": seat.seat,
                "name": name,
                "css": slugify(name),
                "player": seat.user,
                "is_viewer": seat.seat == viewer_seat,
                "to_move": to_move,
                "left": seat.left_at_ply is not None,
                "deadline": game.deadline if to_move else None,
                "time_left": running.time_left if running else seat.time_left,
                "paused": running.paused if running else None,
                "resumes_at": running.resumes_at if running else None,
                "score": scores.get(seat.seat),
            }
        )
    return rows


@require_POST
@login_required
def game_move(request: HttpRequest, game_id: int) -> HttpResponse:
    """Play the move in the form; a refused move leaves the game as it was."""
    game = _visible_game(request, game_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        messages.error(
            request, f"No move was sent, or the page lost its ply. {game.game_kind.notation_help}"
        )
        return redirect("games:game", game_id=game.pk)
    try:
        outcome = services.move_submit(
            game_id=game.pk,
            user=request.user,
            expected_ply=form.cleaned_data["ply"],
            notation=form.cleaned_data["notation"],
        )
    except DomainError as exc:
        messages.error(request, exc.detail)
        return redirect("games:game", game_id=game.pk)
    seat = game.seat_of(request.user)
    for row in outcome.turns:
        _turn_message(request, game, row, mine=row.seat == seat)
    if not outcome.game.is_active:
        messages.info(request, f"The game is over: {selectors.result_words(game=outcome.game)}.")
    return redirect("games:game", game_id=game.pk)


def _turn_message(request: HttpRequest, game: Game, row: Move, *, mine: bool) -> None:
    """Say what one turn recorded by the viewer's move was."""
    name = game.seat_name(row.seat)
    if row.kind == Move.Kind.MOVE and not mine:
        who = "Your opponent" if game.seat_count == 2 else name
        messages.info(request, f"{who} had queued a reply: {row.notation} was played at once.")
    elif row.kind == Move.Kind.MOVE:
        messages.success(request, f"You played {row.notation}.")
    elif row.kind == Move.Kind.FORFEIT:
        messages.warning(
            request,
            f"{row.notation} breaks the 5x5 window: the tile is taken back and "
            "your turn is forfeited.",
        )
    elif row.kind == Move.Kind.PASS:
        messages.info(request, f"{name} has no legal move: a pass is recorded.")


@login_required
def game_resign(request: HttpRequest, game_id: int) -> HttpResponse:
    """Ask for confirmation (GET), then resign (POST)."""
    game = _visible_game(request, game_id)
    if request.method != "POST":
        if game.seat_of(request.user) is None or not game.is_active:
            messages.error(request, "Only a player can resign, and only while the game is on.")
            return redirect("games:game", game_id=game.pk)
        return render(request, "games/resign_confirm.html", {"game": game})
    try:
        after = services.game_resign(game_id=game.pk, user=request.user)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        if after.is_active:
            messages.info(request, "You resigned: you left the game and the others play on.")
        elif after.seat_count == 2:
            messages.info(request, "You resigned. Your opponent wins this game.")
        else:
            messages.info(request, f"You resigned. {selectors.result_words(game=after)}.")
    return redirect("games:game", game_id=game.pk)


@require_POST
@login_required
def game_conditional_add(request: HttpRequest, game_id: int) -> HttpResponse:
    """Queue a conditional line written as moves separated by commas or new lines."""
    game = _visible_game(request, game_id)
    moves = [m.strip() for m in re.split(r"[,\n]", request.POST.get("moves", "")) if m.strip()]
    try:
        ply = int(request.POST.get("ply", ""))
        line = services.conditional_line_create(
            game_id=game.pk, user=request.user, expected_ply=ply, moves=moves
        )
    except ValueError:
        messages.error(request, "The form lost the game's ply: reload the page and try again.")
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        theirs, yours = line.moves[::2], line.moves[1::2]
        pairs = [f"if they play {a}, you play {b}" for a, b in zip(theirs, yours, strict=True)]
        messages.success(request, f"Queued: {'; then '.join(pairs)}.")
    return redirect(f"{reverse('games:game', args=[game.pk])}#conditional")


@require_POST
@login_required
def game_conditional_delete(request: HttpRequest, game_id: int, line_id: int) -> HttpResponse:
    """Withdraw one of the viewer's conditional lines."""
    game = _visible_game(request, game_id)
    try:
        services.conditional_line_delete(game_id=game.pk, line_id=line_id, user=request.user)
    except NotFound as exc:
        raise Http404(exc.detail) from None
    messages.success(request, "The conditional line is withdrawn.")
    return redirect(f"{reverse('games:game', args=[game.pk])}#conditional")


def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """Download the record as text, or as JSON with ``?as=json`` (served by the API, which
    checks visibility too and answers a clear 400 for any other format)."""
    game = _visible_game(request, game_id)
    kind = request.GET.get("as", "text")
    return redirect(f"{reverse('games-api:game-record', args=[game.pk])}?{urlencode({'as': kind})}")


# --- messages ---------------------------------------------------------------------------------


class _MessageThrottleScope:
    """Web posts count against the API's ``messages`` throttle: one budget per user."""

    throttle_scope = "messages"


def _messages_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The messages panel: what the viewer may read, and whether they may write or report."""
    user = request.user
    return {
        "chat_messages": selectors.message_list_readable(game_id=game.pk, user=user),
        "can_write_message": game.seat_of(user) is not None,
        "can_report_message": user.is_authenticated,
        "can_moderate_messages": selectors.user_moderates_messages(user=user),
    }


def _to_messages(game_id: int) -> HttpResponse:
    return redirect(f"{reverse('games:game', args=[game_id])}#messages")


@require_POST
@login_required
def game_message_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """Write to the opponent; refused (with the reason shown) when too fast, empty or too long."""
    game = _visible_game(request, game_id)
    throttle = ScopedRateThrottle()
    if not throttle.allow_request(request, _MessageThrottleScope()):  # type: ignore[arg-type]
        minutes = max(1, round((throttle.wait() or 0) / 60))
        messages.error(
            request, f"You have written too many messages; try again in {minutes} minute(s)."
        )
        return _to_messages(game.pk)
    try:
        body = request.POST.get("body", "")
        services.message_post(game_id=game.pk, author=request.user, body=body)
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, "Your message is sent.")
    return _to_messages(game.pk)


@require_POST
@login_required
def game_message_report(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    """Report a message to the moderators."""
    return _message_action(
        request,
        game_id,
        lambda reason: services.message_report(
            game_id=game_id, message_id=message_id, reporter=request.user, reason=reason
        ),
        done="Thank you: the moderators will look at this message.",
    )


@require_POST
@login_required
def game_message_hide(request: HttpRequest, game_id: int, message_id: int) -> HttpResponse:
    """A moderator hides a message from the page itself (the admin can do it too)."""
    return _message_action(
        request,
        game_id,
        lambda reason: services.message_hide(
            game_id=game_id, message_id=message_id, moderator=request.user, reason=reason
        ),
        done="The message is hidden; the audit log has your reason.",
    )


def _message_action(
    request: HttpRequest, game_id: int, action: Callable[[str], object], *, done: str
) -> HttpResponse:
    """Run ``action`` with the posted reason; show ``done`` or the refusal on the game page."""
    try:
        action(request.POST.get("reason", ""))
    except NotFound as exc:
        raise Http404(exc.detail) from None
    except DomainError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, done)
    return _to_messages(game_id)
