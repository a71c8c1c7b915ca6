"""The audit actions leagues records (registered in ``LeaguesConfig.ready()``)."""

from __future__ import annotations

LEAGUE_MOVE = "league_move"
LEAGUE_INVITE = "league_invite"
LEAGUE_ADD = "league_player_add"
LEAGUE_REMOVE = "league_player_remove"

ACTIONS = {
    LEAGUE_MOVE: "League player moved to another tier by the organiser",
    LEAGUE_INVITE: "League player invited to a season by the organiser",
    LEAGUE_ADD: "League player added to a season by the organiser",
    LEAGUE_REMOVE: "League player removed from a season by the organiser",
}
