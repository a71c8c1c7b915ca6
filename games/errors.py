"""Errors the games services raise; the API and pages translate them (see celticsite.api)."""

from __future__ import annotations

from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted

HOW_TO_WRITE_A_MOVE = (
    "Write a move as its cell, its open sides in N E S W order and an optional n for a "
    "neutral tile, like 'f5 NE' or 'd5 NESW n'."
)


class InvalidNotation(DomainError):
    code = "invalid_notation"


class IllegalMove(DomainError):
    """A well-formed move that the rules forbid here; ``rule`` names the rule it breaks."""

    code = "illegal_move"


class NotAPlayer(NotPermitted):
    code = "not_a_player"


class NotYourTurn(Conflict):
    code = "not_your_turn"


class StalePly(Conflict):
    code = "stale_ply"


class GameNotActive(Conflict):
    code = "game_not_active"


class ChallengeNotOpen(Conflict):
    code = "challenge_not_open"


class ChallengerSuspended(Conflict):
    """The challenge is still listed as open but its author is suspended."""

    code = "challenger_suspended"


class AccountSuspended(NotPermitted):
    code = "account_suspended"


class GameNotFound(NotFound):
    code = "game_not_found"


class ConditionalLineNotFound(NotFound):
    code = "conditional_line_not_found"


class ChallengeNotFound(NotFound):
    code = "challenge_not_found"


class MessageNotFound(NotFound):
    code = "message_not_found"


class MessageAlreadyHidden(Conflict):
    code = "message_hidden"


class AlreadyReported(Conflict):
    code = "already_reported"
