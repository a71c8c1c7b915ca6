"""Standings and tie-breaks as pure functions over round records. No Django, no ORM."""

from tournaments.standings.marks import LEGEND, MARKS, outcome_mark
from tournaments.standings.places import PlaceRange, possible_places
from tournaments.standings.records import (
    Colour,
    Outcome,
    PlayerRecord,
    PointSystem,
    RoundRecord,
)
from tournaments.standings.table import (
    StandingRow,
    all_tiebreak_values,
    compute_standings,
    direct_encounter_ranks,
)
from tournaments.standings.tiebreaks import EDITIONS, TIEBREAKS, TiebreakValue

__all__ = [
    "EDITIONS",
    "LEGEND",
    "MARKS",
    "TIEBREAKS",
    "Colour",
    "Outcome",
    "PlaceRange",
    "PlayerRecord",
    "PointSystem",
    "RoundRecord",
    "StandingRow",
    "TiebreakValue",
    "all_tiebreak_values",
    "compute_standings",
    "direct_encounter_ranks",
    "outcome_mark",
    "possible_places",
]
