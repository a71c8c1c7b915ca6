"""Errors the games services raise; the API and pages translate them (see celticsite.api)."""

from __future__ import annotations

from celticsite.errors import Conflict, DomainError, NotFound, NotPermitted
from games.kinds import DEFAULT_KIND, get_kind
from games.kinds.base import ChoiceNotationError, GameKind, IllegalChoiceError, KindError

#: How to write a Celtic! move (the default kind's ``notation_help``).
HOW_TO_WRITE_A_MOVE = get_kind(DEFAULT_KIND).notation_help


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


def refused_choice(
    kind: GameKind, error: KindError, *, prefix: str = "", **extra: object
) -> DomainError:
    """The error to answer when ``kind`` refused a choice: text that does not parse says how
    to write one; a choice the rules forbid names the rule it breaks."""
    message = f"{prefix}{error}"
    if isinstance(error, ChoiceNotationError):
        return InvalidNotation(message, expected=kind.notation_help, **extra)
    if isinstance(error, IllegalChoiceError) and error.rule is not None:
        extra = {"rule": error.rule, **extra}
    return IllegalMove(message, **extra)
