"""The audit actions ladders records (registered in ``LaddersConfig.ready()``)."""

from __future__ import annotations

LADDER_REMOVE = "ladder_remove"

ACTIONS = {LADDER_REMOVE: "Ladder player removed by the organiser"}
