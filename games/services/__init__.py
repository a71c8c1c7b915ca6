"""Writes for challenges and games. Every rule of a game is its kind's (``games.kinds``).

Each write that touches a game runs in ``transaction.atomic()`` with the game row locked by
``select_for_update`` and, for moves, the ply the client expects: two racing submissions are
serialised by the lock and the second one finds the ply moved on.

One module per concern: ``common`` (the locked read and the checks every write shares),
``challenges``, ``start`` (one game or a round's many), ``moves`` (a move, its turns, the
queued reply), ``clocks`` (deadlines, and keeping them fair when a player's pauses change),
``endings`` (finish, resign, annul, adjudicate), ``conditional`` (queuing and withdrawing
conditional lines), ``messages``, ``notes`` (a player's private notes) and ``takebacks``.
This module is the public API: callers import from here, never from the modules.
"""

from games.services.challenges import (
    challenge_accept,
    challenge_cancel,
    challenge_close_all_for_suspended,
    challenge_create,
    challenge_decline,
)
from games.services.clocks import VacationsByUser, clock_pauses_changing
from games.services.common import User
from games.services.conditional import conditional_line_create, conditional_line_delete
from games.services.endings import (
    game_adjudicate,
    game_annul,
    game_finish,
    game_resign,
    game_seat_leave,
)
from games.services.messages import message_hide, message_post, message_report
from games.services.moves import MoveOutcome, move_submit
from games.services.notes import game_note_save
from games.services.start import game_start, games_start_many
from games.services.takebacks import takeback_answer, takeback_request

__all__ = [
    "MoveOutcome",
    "User",
    "VacationsByUser",
    "challenge_accept",
    "challenge_cancel",
    "challenge_close_all_for_suspended",
    "challenge_create",
    "challenge_decline",
    "clock_pauses_changing",
    "conditional_line_create",
    "conditional_line_delete",
    "game_adjudicate",
    "game_annul",
    "game_finish",
    "game_note_save",
    "game_resign",
    "game_seat_leave",
    "game_start",
    "games_start_many",
    "message_hide",
    "message_post",
    "message_report",
    "move_submit",
    "takeback_answer",
    "takeback_request",
]
