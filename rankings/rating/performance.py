"""Performance rating over a set of games (per tournament on a player's page)."""

from __future__ import annotations

from collections.abc import Sequence


def performance_rating(*, opponent_ratings: Sequence[float], score: float) -> float:
    """The linear ("algorithm of 400") performance: the opponents' mean rating plus
    400 * (wins - losses) / games. Draws count half a win and half a loss, so
    wins - losses = 2 * score - games."""
    games = len(opponent_ratings)
    if games == 0:
        raise ValueError("a performance needs at least one game")
    if not 0.0 <= score <= games:
        raise ValueError(f"score {score} is outside 0..{games}")
    return sum(opponent_ratings) / games + 400.0 * (2.0 * score - games) / games
