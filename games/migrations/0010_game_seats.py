"""Games get a kind and seats (issue #24): ``Game.orange``/``blue`` and their clocks become
``GameSeat`` rows, ``to_move`` becomes ``seat_to_move``, ``Move.side`` becomes ``Move.seat``,
and challenges name a kind, a seat count and the challenger's seat. Every existing game is a
Celtic! game: Orange is seat 1, Blue seat 2; a finished game's result gives each seat its
place. The move table's triggers refuse updates, so they are dropped for the copy and created
again after it (both databases). Not reversible: going back would need the seats of games
with more than two players.
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.models import Case, Q, Value, When

_initial = importlib.import_module("games.migrations.0001_squashed_0007_cursor_list_indexes")

#: A Celtic! result as the places of seats 1 and 2.
PLACES = {"1-0": (1, 2), "0-1": (2, 1), "1/2-1/2": (1, 1)}
BATCH = 2000


def _triggers(forward: bool):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        if forward:
            statements = {
                "sqlite": _initial.SQLITE_FORWARD,
                "postgresql": _initial.POSTGRES_FORWARD,
            }
        else:
            statements = {
                "sqlite": _initial.SQLITE_BACKWARD,
                "postgresql": _initial.POSTGRES_BACKWARD,
            }
        for statement in statements[vendor]:
            schema_editor.execute(statement, params=None)

    return run


def seats_from_colours(apps, schema_editor):
    """Two seats per game, the turn as a seat, each move's seat, each challenge's seat."""
    Game = apps.get_model("games", "Game")
    GameSeat = apps.get_model("games", "GameSeat")
    Move = apps.get_model("games", "Move")
    Challenge = apps.get_model("games", "Challenge")
    columns = (
        "pk",
        "orange_id",
        "blue_id",
        "orange_time_left",
        "blue_time_left",
        "status",
        "result",
    )
    seats = []
    for pk, orange, blue, orange_left, blue_left, status, result in (
        Game.objects.order_by("pk").values_list(*columns).iterator(chunk_size=BATCH)
    ):
        places = PLACES.get(result, (None, None)) if status == "finished" else (None, None)
        seats.append(
            GameSeat(game_id=pk, seat=1, user_id=orange, time_left=orange_left, place=places[0])
        )
        seats.append(
            GameSeat(game_id=pk, seat=2, user_id=blue, time_left=blue_left, place=places[1])
        )
        if len(seats) >= BATCH:
            GameSeat.objects.bulk_create(seats)
            seats = []
    GameSeat.objects.bulk_create(seats)
    Game.objects.update(
        seat_to_move=Case(
            When(to_move="orange", then=Value(1)), When(to_move="blue", then=Value(2))
        )
    )
    Move.objects.update(seat=Case(When(side="orange", then=Value(1)), default=Value(2)))
    Challenge.objects.update(
        seat_choice=Case(
            When(colour="orange", then=Value(1)), When(colour="blue", then=Value(2)), default=None
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_takebacks"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(_triggers(forward=False), _triggers(forward=True)),
        # --- new columns and the seats table ---------------------------------------------------
        migrations.AddField(
            model_name="challenge",
            name="kind",
            field=models.CharField(default="celtic", help_text="The game to play.", max_length=20),
        ),
        migrations.AddField(
            model_name="challenge",
            name="seat_count",
            field=models.PositiveSmallIntegerField(default=2, help_text="Players in the game."),
        ),
        migrations.AddField(
            model_name="challenge",
            name="seat_choice",
            field=models.PositiveSmallIntegerField(
                blank=True,
                null=True,
                help_text="The seat the challenger takes; empty: drawn at random.",
            ),
        ),
        migrations.CreateModel(
            name="ChallengeEntrant",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("joined_at", models.DateTimeField(auto_now_add=True)),
                (
                    "challenge",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="entrants",
                        to="games.challenge",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seek_entries",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["joined_at", "id"],
                "constraints": [
                    models.UniqueConstraint(fields=("challenge", "user"), name="seek_entrant_once")
                ],
            },
        ),
        migrations.AddField(
            model_name="game",
            name="kind",
            field=models.CharField(default="celtic", help_text="The game played.", max_length=20),
        ),
        migrations.AddField(
            model_name="game",
            name="seat_count",
            field=models.PositiveSmallIntegerField(default=2, help_text="Players in the game."),
        ),
        migrations.AddField(
            model_name="game",
            name="seat_to_move",
            field=models.PositiveSmallIntegerField(
                blank=True, default=1, null=True, help_text="Whose turn it is; empty once over."
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="chance_seed",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AlterField(
            model_name="game",
            name="result",
            field=models.CharField(
                blank=True, default="", help_text="The kind's result text, e.g. 1-0.", max_length=40
            ),
        ),
        migrations.CreateModel(
            name="GameSeat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "seat",
                    models.PositiveSmallIntegerField(help_text="1 moves first, then 2, and so on."),
                ),
                (
                    "time_left",
                    models.DurationField(blank=True, help_text="The player's bank.", null=True),
                ),
                (
                    "place",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        help_text="Finishing place once the game is over (1 = first).",
                        null=True,
                    ),
                ),
                (
                    "left_at_ply",
                    models.PositiveIntegerField(
                        blank=True,
                        help_text="When the player left a game the others play on.",
                        null=True,
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seats",
                        to="games.game",
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="game_seats",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["game", "seat"],
                "indexes": [models.Index(fields=["user", "game"], name="game_seat_user")],
                "constraints": [
                    models.UniqueConstraint(fields=("game", "seat"), name="game_seat_once"),
                    models.UniqueConstraint(fields=("game", "user"), name="game_player_once"),
                    models.CheckConstraint(condition=Q(seat__gte=1), name="game_seat_from_one"),
                ],
            },
        ),
        migrations.AddField(
            model_name="move",
            name="seat",
            field=models.PositiveSmallIntegerField(
                null=True, help_text="The seat whose turn this was."
            ),
        ),
        migrations.RemoveConstraint(model_name="game", name="game_to_move_only_while_active"),
        # --- the copy ------------------------------------------------------------------------
        migrations.RunPython(seats_from_colours, migrations.RunPython.noop),
        # --- the old columns go ----------------------------------------------------------------
        migrations.AlterField(
            model_name="move",
            name="seat",
            field=models.PositiveSmallIntegerField(help_text="The seat whose turn this was."),
        ),
        migrations.AlterField(
            model_name="move",
            name="kind",
            field=models.CharField(
                choices=[
                    ("move", "Move"),
                    ("pass", "Pass"),
                    ("forfeit", "Forfeited turn"),
                    ("leave", "Left the game"),
                ],
                max_length=7,
            ),
        ),
        migrations.RemoveField(model_name="move", name="side"),
        migrations.RemoveConstraint(model_name="game", name="game_two_players"),
        migrations.RemoveIndex(model_name="game", name="games_game_orange__985d2d_idx"),
        migrations.RemoveIndex(model_name="game", name="games_game_blue_id_a8b44a_idx"),
        migrations.RemoveField(model_name="game", name="orange"),
        migrations.RemoveField(model_name="game", name="blue"),
        migrations.RemoveField(model_name="game", name="orange_time_left"),
        migrations.RemoveField(model_name="game", name="blue_time_left"),
        migrations.RemoveField(model_name="game", name="to_move"),
        migrations.RemoveField(model_name="challenge", name="colour"),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=Q(status="active", seat_to_move__isnull=False)
                | (~Q(status="active") & Q(seat_to_move__isnull=True)),
                name="game_to_move_only_while_active",
            ),
        ),
        migrations.RunPython(_triggers(forward=True), _triggers(forward=False)),
    ]
