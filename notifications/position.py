"""The position a turn email shows: drawn by the worker when it renders the email.

A "your turn" email is queued with the ply it was queued at (``POSITION_PLY`` in its
context); the worker replays the game to that ply and adds what the templates show of the
position, and the board picture the HTML part shows inline. Turns already played never
change, so the email shows the position as it was when queued, however late it is rendered.

Everything here reads a game through its kind (``game.game_kind``): the text drawing, the
SVG (sent as a PNG), the stored steps, and its words for the player: what each seat has
left (Celtic!'s tiles, Celtic Knot's coins), what the seat to act drew and how to reply
(Celtic Knot's flips and destinations).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from accounts.selectors import profile_get
from games.kinds.base import State, Step, StepKind
from games.models import Game
from games.selectors import game_position
from games.turns import Turn, group_turns

# The Content-ID of the board picture in a turn email's HTML part.
BOARD_CID = "board@celtic"
# The context key that asks the worker to show the game's position after this many turns.
POSITION_PLY = "position_ply"
# The context key that asks the worker only how a reply moves after this many turns (a
# reminder: no board, but the square or destination a reply names).
REPLY_PLY = "reply_ply"

_LEFT_BY = {"resign": "resigned", "timeout": "ran out of time"}


def position_for_email(
    context: Mapping[str, Any], *, user: Any, board: bool = True
) -> tuple[dict[str, Any], str]:
    """What the templates show of the position ``context`` asks for (``POSITION_PLY`` turns
    into its ``game``), seen by ``user``, and the board's SVG (empty without ``board``: for
    an email that is never sent on its own); with ``REPLY_PLY`` instead, only what a reply
    names then; nothing when it asks for neither."""
    ply = context.get(POSITION_PLY)
    game = context.get("game")
    if ply is None and context.get(REPLY_PLY) is not None:
        state = game_position(game=game, ply=context[REPLY_PLY])
        return {"reply_instruction": game.game_kind.choice_prompt(state)}, ""
    if ply is None:
        return {}, ""
    state = game_position(game=game, ply=ply)
    svg = position_svg(game, state=state, seat=game.seat_of(user)) if board else ""
    return position_context(game, state=state, user=user), svg


def position_svg(game: Game, *, state: State, seat: int | None = None) -> str:
    """The board as the kind draws it for the game page (``seat``'s pieces marked, when the
    kind marks a viewer's)."""
    return game.game_kind.svg(state, viewer_seat=seat)


def position_context(game: Game, *, state: State, user: Any) -> dict[str, Any]:
    """What a turn email shows of the position: the other seats' turns since ``user``'s
    last one, the kind's text drawing (for the plain text), what each seat has left, what
    the player drew and must now choose and how to reply (the kind's words), the number of
    the turn (for a kind that counts turns apart from steps), and ``board_cid`` (the inline
    PNG the HTML part shows, see ``position_svg``)."""
    seat = game.seat_of(user)
    kind = game.game_kind
    left_title, left = kind.holdings(
        state, viewer_seat=seat, player_name=lambda other: _player_name(game, other)
    )
    return {
        "opponent_turns": turns_since(game, state.steps, seat=seat, to_act=state.to_act),
        "position": kind.text(state),
        "left_title": left_title,
        "tiles_left": [{"name": h.name, "count": h.count, "shapes": h.detail} for h in left],
        "flips_line": (
            kind.pending_choice_line(state) if seat is not None and seat == state.to_act else ""
        ),
        "reply_instruction": kind.choice_prompt(state),
        "move_number": kind.turn_number(state),
        "board_cid": BOARD_CID,
    }


# --- the turns since the player's last ----------------------------------------------------------


def turns_since(
    game: Game, steps: Sequence[Step], *, seat: int | None, to_act: int | None
) -> list[str]:
    """The other seats' turns since ``seat`` last moved, oldest first: a turn of one step
    as a sentence ("Blue played f5 NE", "Blue passed (no legal move)", "Green resigned"), a
    turn of several as the record writes its line, then the seat ("2 b1 T c2 (Blue)").
    ``seat``'s own turn still going on (``to_act``) is skipped. Empty at the start."""
    turns = group_turns(steps)
    if turns and to_act is not None and turns[-1].seat == to_act == seat:
        turns.pop()  # the turn being played: its flips are shown apart
    shown: list[str] = []
    for turn in reversed(turns):
        if turn.seat == seat and any(step.kind == StepKind.MOVE for step in turn.steps):
            break
        shown.append(_turn_text(turn, who=game.seat_name(turn.seat)))
    return shown[::-1]


def _turn_text(turn: Turn, *, who: str) -> str:
    if len(turn.steps) > 1:
        line = " ".join(step.notation or step.kind.value for step in turn.steps)
        return f"{turn.seat} {line} ({who})"
    step = turn.steps[0]
    if step.kind == StepKind.MOVE:
        return f"{who} played {step.notation}"
    if step.kind == StepKind.FORFEIT:
        return f"{who} forfeited {step.notation} (it broke the 5x5 window)"
    if step.kind == StepKind.LEAVE:
        return f"{who} {_LEFT_BY.get(step.notation, 'left the game')}"
    return f"{who} passed (no legal move)"


# --- what each seat has left ---------------------------------------------------------------------


def _player_name(game: Game, seat: int) -> str:
    """The name the player in ``seat`` shows (what each seat has left names them)."""
    return profile_get(user=game.user_at(seat)).name
