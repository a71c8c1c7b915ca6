"""Rows for the games app: challenges, games, moves, messages, and their admin actions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games import selectors, services
from games.models import ConditionalLine
from tests.security.matrix import (
    MODERATORS,
    NOBODY,
    OPPONENT,
    SUPERUSERS,
    AdminRow,
    ApiRow,
    delete_row,
    expect,
)

if TYPE_CHECKING:
    from tests.security.matrix.world import World

V1 = "/api/v1"
GAME = f"{V1}/games/{{game_id}}"
CHALLENGE = f"{V1}/challenges/{{challenge_id}}"
MESSAGE = f"{GAME}/messages/{{message_id}}"

# Who sees the private game: its players, and moderators holding games.view_game. Anyone
# else (anonymous, another user, staff without the permission) is told it does not exist.
SEES_PRIVATE_GAME = expect(404, player=200, opponent=200, moderator=200, superuser=200)
OPEN_TO_ALL = expect(200)
LOGGED_IN = {"anonymous": 401}

API_ROWS = [
    # --- challenges (the world's challenge: open, from the opponent to the player) ---
    ApiRow("GET", f"{V1}/challenges/", OPEN_TO_ALL),
    ApiRow("POST", f"{V1}/challenges/", expect(201, **LOGGED_IN), body={"rated": False}),
    ApiRow("GET", f"{CHALLENGE}/", expect(404, player=200, opponent=200)),
    ApiRow("POST", f"{CHALLENGE}/accept/", expect(403, **LOGGED_IN, player=201)),
    ApiRow("POST", f"{CHALLENGE}/decline/", expect(403, **LOGGED_IN, player=200)),
    ApiRow("POST", f"{CHALLENGE}/cancel/", expect(403, **LOGGED_IN, opponent=200)),
    # --- game kinds: public ---
    ApiRow("GET", f"{V1}/game-kinds/", OPEN_TO_ALL),
    ApiRow("GET", f"{V1}/game-kinds/{{kind_id}}/", OPEN_TO_ALL),
    # --- games (the world's game: private, active, the player to move) ---
    ApiRow("GET", f"{V1}/games/", OPEN_TO_ALL),
    ApiRow("GET", f"{GAME}/", SEES_PRIVATE_GAME),
    ApiRow("GET", f"{GAME}/moves/", SEES_PRIVATE_GAME),
    ApiRow(
        "POST",
        f"{GAME}/moves/",
        # The opponent is told it is not their turn; moderators see the game but do not play.
        expect(404, **LOGGED_IN, player=201, opponent=409, moderator=403, superuser=403),
        body=lambda world: {"ply": 0, "move": world.first_move},
    ),
    ApiRow("GET", f"{GAME}/legal-moves/", SEES_PRIVATE_GAME),
    ApiRow("GET", f"{GAME}/positions/{{ply}}/", SEES_PRIVATE_GAME),
    ApiRow(
        "POST",
        f"{GAME}/resign/",
        expect(404, **LOGGED_IN, player=200, opponent=200, moderator=403, superuser=403),
    ),
    ApiRow("GET", f"{GAME}/record/", SEES_PRIVATE_GAME),
    # --- live status, polled by the pages ---
    ApiRow("GET", f"{GAME}/live/", SEES_PRIVATE_GAME),
    ApiRow("GET", f"{V1}/games/live/", expect(200, **LOGGED_IN)),
    # --- conditional moves: their owner's only; to anyone but a player the list is absent ---
    ApiRow("GET", f"{GAME}/conditional-moves/", expect(404, **LOGGED_IN, player=200, opponent=200)),
    ApiRow(
        "POST",
        f"{GAME}/conditional-moves/",
        # The player is to move, so they play instead (409); the opponent may queue replies.
        expect(404, **LOGGED_IN, player=409, opponent=201),
        body=lambda world: {"ply": 0, "moves": [world.first_move, _reply_to_first_move(world)]},
    ),
    ApiRow(
        "DELETE",
        f"{GAME}/conditional-moves/{{line_id}}/",
        # Only the opponent owns the line; even the other player is told it does not exist.
        expect(404, **LOGGED_IN, opponent=204),
        ids=lambda world: {**world.ids, "line_id": _opponents_line(world).pk},
    ),
    # --- private notes: their owner's only; to anyone else (moderators too) they are absent ---
    ApiRow("GET", f"{GAME}/note/", expect(404, **LOGGED_IN, player=200, opponent=200)),
    ApiRow(
        "PUT",
        f"{GAME}/note/",
        expect(404, **LOGGED_IN, player=200, opponent=200),
        body={"body": "My plan"},
    ),
    # --- takebacks (the world's game is rated without takebacks, no move played yet) ---
    ApiRow("GET", f"{GAME}/takeback/", {**SEES_PRIVATE_GAME, **LOGGED_IN}),
    ApiRow(
        "POST",
        f"{GAME}/takeback/",
        expect(404, **LOGGED_IN, player=403, opponent=403, moderator=403, superuser=403),
        body={"ply": 0},
    ),
    ApiRow(
        "POST",
        f"{GAME}/takeback/accept/",
        # Nothing was asked: the players are told so; moderators see the game but do not play.
        expect(404, **LOGGED_IN, player=409, opponent=409, moderator=403, superuser=403),
    ),
    ApiRow(
        "POST",
        f"{GAME}/takeback/decline/",
        expect(404, **LOGGED_IN, player=409, opponent=409, moderator=403, superuser=403),
    ),
    # --- messages (the world's message: the player's, reported by the opponent) ---
    ApiRow("GET", f"{GAME}/messages/", SEES_PRIVATE_GAME),
    ApiRow(
        "POST",
        f"{GAME}/messages/",
        expect(404, **LOGGED_IN, player=201, opponent=201, moderator=403, superuser=403),
        body={"body": "Good game"},
    ),
    ApiRow(
        "POST",
        f"{MESSAGE}/report/",
        # The author cannot report their own message; the opponent already has (409).
        expect(404, **LOGGED_IN, player=403, opponent=409, moderator=201, superuser=201),
        body={"reason": "Spam"},
    ),
    ApiRow(
        "POST",
        f"{MESSAGE}/hide/",
        expect(403, **LOGGED_IN, moderator=200, superuser=200),
        body={"reason": "Insults"},
    ),
]


def _reply_to_first_move(world: World) -> str:
    """A legal reply of the opponent (Blue) to the player's first move."""
    state = selectors.game_position(game=world.game)
    state.play(world.first_move)
    return str(sorted(state.legal_choices(), key=str)[0])


def _opponents_line(world: World) -> ConditionalLine:
    """A conditional line the opponent queued in the world's game (made for the row)."""
    return services.conditional_line_create(
        game_id=world.game.pk,
        user=world.users[OPPONENT],
        expected_ply=0,
        moves=[world.first_move, _reply_to_first_move(world)],
    )


REASON = {"confirm": "yes", "reason": "Matrix"}

ADMIN_ROWS = [
    AdminRow(
        "games.game",
        "annul",
        MODERATORS,
        lambda world: world.game,
        lambda game: game.status == "annulled",
        REASON,
    ),
    AdminRow(
        "games.game",
        "adjudicate",
        MODERATORS,
        lambda world: world.game,
        lambda game: game.status == "finished",
        {**REASON, "result": "1-0"},
    ),
    AdminRow(
        "games.gamemessage",
        "hide",
        MODERATORS,
        lambda world: world.message,
        lambda message: message.hidden_at is not None,
        REASON,
    ),
    # History is never deleted: games, moves and messages are annulled or hidden instead.
    delete_row("games.game", lambda world: world.game, NOBODY),
    delete_row("games.move", lambda world: world.targets["move"], NOBODY),
    delete_row("games.gamemessage", lambda world: world.message, NOBODY),
    delete_row("games.challenge", lambda world: world.challenge, SUPERUSERS),
    delete_row("games.messagereport", lambda world: world.report, SUPERUSERS),
]
