"""A player's private notes on one of their games (read by ``selectors.game_note_get``)."""

from __future__ import annotations

from games import errors, selectors
from games.models import GameNote
from games.services.common import User


def game_note_save(*, game_id: int, user: User, body: str) -> GameNote | None:
    """Keep ``body`` as ``user``'s notes on the game (during it or after it); an empty
    ``body`` deletes them (answers None). To anyone but a player the game's notes do not
    exist. The game row is not locked: notes change nothing of the game."""
    game = selectors.game_get_visible(game_id=game_id, user=user)
    selectors.game_note_get(game=game, user=user)  # 404 to anyone but a player
    body = body.strip()
    if len(body) > GameNote.MAX_LENGTH:
        raise errors.DomainError(
            f"The notes are {len(body)} characters long; at most {GameNote.MAX_LENGTH} are "
            "allowed.",
            code="note_too_long",
        )
    if not body:
        GameNote.objects.filter(game=game, owner_id=user.pk).delete()
        return None
    note, _ = GameNote.objects.update_or_create(
        game=game, owner_id=user.pk, defaults={"body": body}
    )
    return note
