"""The migration history: the models need no new migration, and a database that applied the
old (pre-squash) history upgrades to the squashed one with nothing to apply."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.migration import Migration
from django.db.migrations.recorder import MigrationRecorder

# Every migration a deployment could have applied before the squash (docs/ARCHITECTURE.md,
# "Migrations"). Frozen: the squashed migrations' `replaces` must keep naming all of them.
OLD_HISTORY = {
    "accounts": [
        "0001_initial",
        "0002_reminder_hours_and_vacations",
        "0003_clock_reminder_hours_may_be_empty",
        "0004_moderation_permissions",
        "0005_profile_pending_password",
        "0006_profile_confirm_moves",
    ],
    "games": [
        "0001_initial",
        "0002_move_append_only_trigger",
        "0003_clock_policies_and_messages",
        "0004_game_list_indexes",
        "0004_moderation_permissions",
        "0005_conditional_lines",
        "0005_merge_list_indexes_and_permissions",
        "0006_merge_conditional_lines",
        "0007_cursor_list_indexes",
    ],
    "rankings": [
        "0001_initial",
        "0002_stored_ranking",
        "0003_snapshot_fewer_indexes",
        "0004_cursor_list_indexes",
        "0005_pending_ranking_updates",
    ],
    "tournaments": ["0001_initial", "0002_trf_exchange", "0003_swiss_options"],
    "notifications": [
        "0001_initial",
        "0002_reply_to_and_inbound_email",
        "0003_account_email_events",
        "0003_tournament_events",
        "0004_league_events",
        "0004_merge_account_and_tournament_events",
        "0005_ladder_events",
        "0005_union_of_choices",
        "0006_board_png_and_challenge_replies",
        "0006_merge_ladder_events",
        "0007_choices_after_leagues",
        "0008_merge_leagues_and_player_emails",
        "0009_email_events_all",
        "0010_outbox_context",
        "0011_outbox_challenge_declined",
        "0012_outbox_event_registry",
    ],
    "moderation": [
        "0001_initial",
        "0002_audit_actions_for_user_flags",
        "0002_tournament_audit_actions",
        "0003_league_audit_action",
        "0003_merge_user_flags_and_tournaments",
        "0003_tournament_bye_actions",
        "0004_ladder_audit_action",
        "0004_union_of_choices",
        "0005_merge_tournament_byes",
        "0006_audit_actions_all",
        "0007_merge_ladder_audit_action",
        "0008_choices_after_leagues",
        "0009_action_from_the_registry",
    ],
    "leagues": ["0001_initial"],
    "ladders": ["0001_initial"],
}


SQUASHED_APPS = sorted(app for app, names in OLD_HISTORY.items() if len(names) > 1)


def _squashed(loader: MigrationLoader, app: str) -> Migration:
    """The app's migration that replaces the old history (later migrations replace nothing)."""
    [migration] = [
        m for (label, _), m in loader.disk_migrations.items() if label == app and m.replaces
    ]
    return migration


@pytest.mark.django_db
def test_the_models_need_no_new_migration() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.parametrize("app", SQUASHED_APPS)
def test_the_squashed_migration_replaces_the_whole_old_history(app: str) -> None:
    migration = _squashed(MigrationLoader(None, ignore_no_migrations=True), app)
    assert migration.name.startswith("0001_squashed_")
    assert set(migration.replaces) == {(app, name) for name in OLD_HISTORY[app]}


def test_a_database_that_applied_the_old_history_takes_the_squashed_one_as_applied(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    old = {(app, name) for app, names in OLD_HISTORY.items() for name in names}
    on_disk = MigrationLoader(None, ignore_no_migrations=True).disk_migrations
    other_apps = {key for key in on_disk if key[0] not in OLD_HISTORY}
    applied = dict.fromkeys(old | other_apps)
    monkeypatch.setattr(MigrationRecorder, "applied_migrations", lambda self: applied)

    executor = MigrationExecutor(connection)
    executor.loader.check_consistent_history(connection)
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())

    squashed = {(app, _squashed(executor.loader, app).name) for app in SQUASHED_APPS}
    assert squashed <= set(executor.loader.applied_migrations)
    # Only migrations written after the squash remain to apply.
    assert [m for m, _ in plan if m.replaces or (m.app_label, m.name) in old] == []
