"""The range of each number setting of a tournament (docs/TOURNAMENTS.md, "Limits of the
settings"): the service refuses a value outside it with 400 ``invalid_settings`` naming the
field and the range, and the API's input serializer states the same ranges in the OpenAPI
document. Relations between settings (a Swiss event's byes and rounds) are checked where
the settings are checked together (``setup._validate`` and the formats)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tournaments.models import Tournament

#: The most rounds a Swiss may be given at creation; at the start it must also have fewer
#: rounds than players.
SWISS_ROUNDS_MAX = 50
#: The largest count a setting column holds (a PostgreSQL smallint).
PLAYERS_MAX = 32767
#: Above any Elo rating reached: a minimum beyond it would shut everyone out.
RATING_MAX = 4000
#: More than a year between rounds (or for one round) is taken for a typing error.
DAYS_MAX = 365
#: Finished or running games: a threshold above this excludes everyone (or no one).
GAMES_MAX = 1000
#: Extra pairs of games after a tied pair in a knockout match (each one is two more games).
EXTRA_PAIRS_MAX = 10


@dataclass(frozen=True)
class SettingRange:
    """The values a number setting may take, and what it counts."""

    low: int
    high: int
    unit: str

    def text(self, *, may_be_empty: bool) -> str:
        """The range in words, as the refusal says it: "From 1 to 365 days, or empty"."""
        return f"From {self.low} to {self.high} {self.unit}{', or empty' if may_be_empty else ''}"


SETTING_RANGES: dict[str, SettingRange] = {
    "cycles": SettingRange(1, 2, "cycles (1: single round robin, 2: double)"),
    "section_size": SettingRange(3, PLAYERS_MAX, "players per section"),
    "min_players": SettingRange(2, PLAYERS_MAX, "players"),
    "max_players": SettingRange(2, PLAYERS_MAX, "players"),
    "rating_min": SettingRange(0, RATING_MAX, "rating points"),
    "rating_max": SettingRange(0, RATING_MAX, "rating points"),
    "min_finished_games": SettingRange(0, GAMES_MAX, "games"),
    "max_running_games": SettingRange(1, GAMES_MAX, "games"),
    "round_interval_days": SettingRange(1, DAYS_MAX, "days"),
    "round_duration_days": SettingRange(1, DAYS_MAX, "days"),
    "knockout_extra_pairs": SettingRange(0, EXTRA_PAIRS_MAX, "pairs of games"),
    "late_entry_last_round": SettingRange(2, SWISS_ROUNDS_MAX, "(a round number)"),
    "half_point_byes_max": SettingRange(0, SWISS_ROUNDS_MAX, "byes"),
    "forfeits_to_withdraw": SettingRange(1, SWISS_ROUNDS_MAX, "forfeits"),
}


def rounds_schedule_problem(
    tournament: Tournament, *, players: int, rounds: int, start: datetime
) -> str | None:
    """Why rounds on dates would not all start before the event's end (``ends_at``): round
    n starts ``(n - 1) * round_interval_days`` after ``start``. None when they fit, or when
    rounds do not run on dates or there is no end."""
    t = tournament
    on_dates = t.round_start_mode == Tournament.RoundStartMode.ON_DATES
    if not (on_dates and t.ends_at and t.round_interval_days):
        return None
    span = timedelta(days=max(rounds - 1, 0) * t.round_interval_days)
    if span < t.ends_at - start:
        return None
    try:
        last = f"on {_utc(start + span)}"
    except OverflowError:  # 32,767 players a year apart
        last = "after the year 9999"
    return (
        f"With {players} players the event has {rounds} rounds; the last would start "
        f"{last}, not before the end ({_utc(t.ends_at)}): set a later end or fewer "
        "days between rounds."
    )


def _utc(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"
