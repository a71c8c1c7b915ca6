"""The audit actions tournaments records (registered in ``TournamentsConfig.ready()``).
An organiser's annulment or adjudication of a game is recorded as games' own action."""

from __future__ import annotations

TOURNAMENT_REMOVE = "tournament_remove"
TOURNAMENT_RESULT_FIX = "tournament_result_fix"
TOURNAMENT_PAIRING = "tournament_pairing"
TOURNAMENT_DECIDE = "tournament_decide"
TOURNAMENT_BYE = "tournament_bye"
TOURNAMENT_FORBIDDEN_PAIRS = "tournament_forbidden_pairs"

ACTIONS = {
    TOURNAMENT_REMOVE: "Player removed from a tournament",
    TOURNAMENT_RESULT_FIX: "Tournament result fixed",
    TOURNAMENT_PAIRING: "Tournament round paired by hand",
    TOURNAMENT_DECIDE: "Knockout match decided by the organiser",
    TOURNAMENT_BYE: "Tournament bye or absence entered by the organiser",
    TOURNAMENT_FORBIDDEN_PAIRS: "Tournament forbidden pairs set",
}
