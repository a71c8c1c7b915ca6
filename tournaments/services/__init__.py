"""Tournament writes: create, register, start, pair, withdraw, adjudicate, finish.

Every write runs in ``transaction.atomic()`` with the tournament row locked
(``select_for_update``), so a registration, a game ending and the beat task cannot race
each other into a double start or a double round. Games are created and ended through the
games services; emails are outbox rows sent after the commit (``tournaments.emails``).
Every service is keyword-only and safe to call twice where a task may call it twice.

One module per concern: ``setup`` (create, update, validation), ``registration``
(entries, invitations, late entries), ``start`` (seeding, the rounds), ``rounds`` (which
round is due, pairing and starting it, completing it, the finish), ``knockout`` (brackets
and matches), ``swiss`` (byes ahead, forbidden pairs, forfeits), ``results`` (games ended,
adjudication, result fixes, withdrawals), ``organiser`` (round dates, pairing by hand,
cancelling), ``clock`` (the beat task) and ``trf_import``. What differs by format is asked
of the tournament's format object (``formats``: round robin, knockout, Swiss). This module
is the public API: callers import from here, never from the modules.
"""

from tournaments.services.clock import tournament_advance, tournaments_advance, tournaments_due
from tournaments.services.common import (
    ADJUDICATE_PERMISSION,
    MANAGE_ENTRIES_PERMISSION,
    ORGANISE_PERMISSION,
    Result,
    User,
)
from tournaments.services.formats.base import SWISS_ONLY_DEFAULTS
from tournaments.services.knockout import knockout_match_decide
from tournaments.services.limits import SETTING_RANGES
from tournaments.services.organiser import round_dates_set, round_pair_manually, tournament_cancel
from tournaments.services.registration import (
    entry_approve,
    entry_decline,
    entry_invite,
    registration_cancel,
    tournament_register,
    tournament_registration_open,
)
from tournaments.services.results import (
    entry_remove,
    entry_withdraw,
    result_of_game,
    tournament_game_adjudicate,
    tournament_game_ended,
    tournament_result_fix,
)
from tournaments.services.rounds import (
    rounds_paired_in_process,
    tournament_pairings_resume,
    tournament_round_pair,
)
from tournaments.services.setup import (
    SETTING_FIELDS,
    TIEBREAKS_HELP,
    tournament_create,
    tournament_round_robin_start_with,
    tournament_update,
)
from tournaments.services.start import tournament_start
from tournaments.services.swiss import (
    bye_enter,
    bye_request,
    bye_request_cancel,
    forbidden_pairs_set,
)
from tournaments.services.trf_import import tournament_import_trf

__all__ = [
    "ADJUDICATE_PERMISSION",
    "MANAGE_ENTRIES_PERMISSION",
    "ORGANISE_PERMISSION",
    "SETTING_FIELDS",
    "SETTING_RANGES",
    "SWISS_ONLY_DEFAULTS",
    "TIEBREAKS_HELP",
    "Result",
    "User",
    "bye_enter",
    "bye_request",
    "bye_request_cancel",
    "entry_approve",
    "entry_decline",
    "entry_invite",
    "entry_remove",
    "entry_withdraw",
    "forbidden_pairs_set",
    "knockout_match_decide",
    "registration_cancel",
    "result_of_game",
    "round_dates_set",
    "round_pair_manually",
    "rounds_paired_in_process",
    "tournament_advance",
    "tournament_cancel",
    "tournament_create",
    "tournament_game_adjudicate",
    "tournament_game_ended",
    "tournament_import_trf",
    "tournament_pairings_resume",
    "tournament_register",
    "tournament_registration_open",
    "tournament_result_fix",
    "tournament_round_pair",
    "tournament_round_robin_start_with",
    "tournament_start",
    "tournament_update",
    "tournaments_advance",
    "tournaments_due",
]
