"""The audit actions leagues records (registered in ``LeaguesConfig.ready()``)."""

from __future__ import annotations

LEAGUE_MOVE = "league_move"

ACTIONS = {LEAGUE_MOVE: "League player moved to another tier by the organiser"}
