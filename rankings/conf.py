"""The ranking's settings, read in one place, each with its documented default.

See docs/RANKINGS.md for what each one means.
"""

from __future__ import annotations

from django.conf import settings

from rankings.rating.elo import EloParams
from rankings.rating.glicko2 import GlickoParams
from rankings.rating.history import RatingParams
from rankings.rating.plackett_luce import SkillParams

ORDER_CHOICES = ("elo", "glicko")

#: The game kinds rated with Elo and Glicko-2 (two seats only); every other kind is rated
#: with openskill's Plackett-Luce model on finishing orders (`rankings.rating.plackett_luce`).
ELO_KINDS: tuple[str, ...] = ("celtic",)

#: The kind whose list `/rankings/` shows when no ``kind`` is asked for, and that imported
#: results belong to.
DEFAULT_KIND = "celtic"

#: What the `rating_system` of a Plackett-Luce list is called in the API.
SKILL_SYSTEM = "openskill-pl"


def uses_elo(kind: str) -> bool:
    """Whether ``kind`` is rated with Elo and Glicko-2 (else with Plackett-Luce)."""
    return kind in ELO_KINDS


def skill_params() -> SkillParams:
    """How Plackett-Luce ratings are shown, from RATING_SKILL_DISPLAY_START and _SCALE."""
    return SkillParams(
        display_start=float(getattr(settings, "RATING_SKILL_DISPLAY_START", 1500.0)),
        display_scale=float(getattr(settings, "RATING_SKILL_DISPLAY_SCALE", 40.0)),
    )


def rating_system(kind: str) -> str:
    """Which rating orders ``kind``'s list: "elo" or "glicko" (RATING_ORDER_BY) for the
    Elo kinds, "openskill-pl" for the others."""
    return order_by() if uses_elo(kind) else SKILL_SYSTEM


def rating_params() -> RatingParams:
    """The Elo and Glicko-2 parameters from the RATING_* settings."""
    return RatingParams(
        elo=EloParams(
            start=float(getattr(settings, "RATING_ELO_START", 1500.0)),
            k_new=float(getattr(settings, "RATING_ELO_K_NEW", 40.0)),
            k_established=float(getattr(settings, "RATING_ELO_K_ESTABLISHED", 20.0)),
            k_master=float(getattr(settings, "RATING_ELO_K_MASTER", 10.0)),
            new_games=int(getattr(settings, "RATING_ELO_NEW_GAMES", 30)),
            master_threshold=float(getattr(settings, "RATING_ELO_MASTER_THRESHOLD", 2400.0)),
            max_diff=float(getattr(settings, "RATING_ELO_MAX_DIFF", 400.0)),
        ),
        glicko=GlickoParams(
            start_rating=float(getattr(settings, "RATING_GLICKO_START_RATING", 1500.0)),
            start_rd=float(getattr(settings, "RATING_GLICKO_START_RD", 350.0)),
            start_volatility=float(getattr(settings, "RATING_GLICKO_START_VOLATILITY", 0.06)),
            tau=float(getattr(settings, "RATING_GLICKO_TAU", 0.5)),
        ),
    )


def order_by() -> str:
    """Which rating orders the public ranking: "elo" or "glicko"."""
    value = str(getattr(settings, "RATING_ORDER_BY", "elo")).lower()
    if value not in ORDER_CHOICES:
        raise ValueError(f"RATING_ORDER_BY must be one of {ORDER_CHOICES}, not {value!r}")
    return value


def active_days() -> int:
    """A player is listed if their last rated game is at most this many days old."""
    return int(getattr(settings, "RATING_ACTIVE_DAYS", 365))


def provisional_games() -> int:
    """A rating from fewer rated games than this is marked provisional."""
    return int(getattr(settings, "RATING_PROVISIONAL_GAMES", 10))


#: Rank changes compare today's list with the list this many days ago.
RANK_CHANGE_DAYS = 30
