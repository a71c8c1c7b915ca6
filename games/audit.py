"""The audit actions games records (registered in ``GamesConfig.ready()``)."""

from __future__ import annotations

GAME_ANNUL = "game_annul"
GAME_ADJUDICATE = "game_adjudicate"
MESSAGE_HIDE = "message_hide"
CHALLENGES_CLOSE = "challenges_close"
TAKEBACK_REQUEST = "takeback_request"
TAKEBACK_ACCEPT = "takeback_accept"
TAKEBACK_DECLINE = "takeback_decline"

ACTIONS = {
    GAME_ANNUL: "Game annulled",
    GAME_ADJUDICATE: "Game adjudicated",
    MESSAGE_HIDE: "Message hidden",
    CHALLENGES_CLOSE: "Open challenges closed (user suspended)",
    TAKEBACK_REQUEST: "Takeback asked",
    TAKEBACK_ACCEPT: "Takeback accepted (move removed)",
    TAKEBACK_DECLINE: "Takeback declined",
}
