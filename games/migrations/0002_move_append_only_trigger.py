"""Database triggers: a move row must be the next ply of a game in progress, and never changes.

Unique (game, ply) already forbids two moves at one ply; these triggers also forbid gaps, a
move stored after the game ended, and rewriting history, whatever code talks to the database.
"""

from django.db import migrations

SQLITE_FORWARD = [
    """
    CREATE TRIGGER games_move_append_only BEFORE INSERT ON games_move
    BEGIN
        SELECT RAISE(ABORT, 'games_move: the game is not in progress')
        WHERE (SELECT status FROM games_game WHERE id = NEW.game_id) IS NOT 'active';
        SELECT RAISE(ABORT, 'games_move: ply is not the next ply of the game')
        WHERE NEW.ply != (SELECT COUNT(*) FROM games_move WHERE game_id = NEW.game_id);
    END;
    """,
    """
    CREATE TRIGGER games_move_immutable BEFORE UPDATE ON games_move
    BEGIN
        SELECT RAISE(ABORT, 'games_move: recorded moves are never changed');
    END;
    """,
]
SQLITE_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_move_append_only;",
    "DROP TRIGGER IF EXISTS games_move_immutable;",
]

POSTGRES_FORWARD = [
    """
    CREATE FUNCTION games_move_check_append() RETURNS trigger AS $$
    BEGIN
        IF (SELECT status FROM games_game WHERE id = NEW.game_id) IS DISTINCT FROM 'active' THEN
            RAISE EXCEPTION 'games_move: game % is not in progress', NEW.game_id
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.ply <> (SELECT COUNT(*) FROM games_move WHERE game_id = NEW.game_id) THEN
            RAISE EXCEPTION 'games_move: ply % is not the next ply of game %', NEW.ply, NEW.game_id
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$ LANGUAGE plpgsql;
    """,
    """
    CREATE FUNCTION games_move_refuse_update() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'games_move: recorded moves are never changed'
            USING ERRCODE = 'check_violation';
    END $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER games_move_append_only BEFORE INSERT ON games_move
        FOR EACH ROW EXECUTE FUNCTION games_move_check_append();
    """,
    """
    CREATE TRIGGER games_move_immutable BEFORE UPDATE ON games_move
        FOR EACH ROW EXECUTE FUNCTION games_move_refuse_update();
    """,
]
POSTGRES_BACKWARD = [
    "DROP TRIGGER IF EXISTS games_move_append_only ON games_move;",
    "DROP TRIGGER IF EXISTS games_move_immutable ON games_move;",
    "DROP FUNCTION IF EXISTS games_move_check_append();",
    "DROP FUNCTION IF EXISTS games_move_refuse_update();",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise NotImplementedError(
                f"no move triggers for database {schema_editor.connection.vendor!r}; "
                "expected sqlite or postgresql"
            )
        for statement in statements:
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_FORWARD, "postgresql": POSTGRES_FORWARD}),
            _run({"sqlite": SQLITE_BACKWARD, "postgresql": POSTGRES_BACKWARD}),
        )
    ]
