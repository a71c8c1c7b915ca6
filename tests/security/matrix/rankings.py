"""Rows for the rankings app: public read-only API; ratings are derived, never deleted."""

from __future__ import annotations

from tests.security.matrix import NOBODY, SUPERUSERS, ApiRow, delete_row, expect

V1 = "/api/v1/rankings"

API_ROWS = [
    ApiRow("GET", f"{V1}/", expect(200)),
    ApiRow("GET", f"{V1}/export.csv", expect(200)),
    ApiRow("GET", f"{V1}/players/{{player_id}}/", expect(200)),
]

ADMIN_ROWS = [
    delete_row("rankings.player", lambda world: world.targets["ghost_player"], SUPERUSERS),
    # Results change through the games' moderation, which recomputes the ratings.
    delete_row("rankings.ratedresult", lambda world: world.targets["rated_result"], NOBODY),
    delete_row("rankings.playerrating", lambda world: world.targets["player_rating"], NOBODY),
]
