"""Games get a kind and seats (issue #24): ``Game.orange``/``blue`` and their clocks become
``GameSeat`` rows, ``to_move`` becomes ``seat_to_move``, ``Move.side`` becomes ``Move.seat``,
and challenges name a kind, a seat count and the challenger's seat. Every existing game is a
Celtic! game: Orange is seat 1, Blue seat 2; a finished game's result gives each seat its
place. The move table's triggers refuse updates, so they are dropped for the copy and created
again after it (both databases).

Reversible while every game and challenge fits the old columns: Celtic! for two, seat 1 back
to Orange and seat 2 to Blue, with nothing the old schema cannot hold (another kind, another
seat count, a seat that left, a chance seed, a ``leave`` step, places the result does not
give, a seek's entrants). Otherwise going back is refused with ``IrreversibleError``, naming
the rows, before anything changes.
"""

import importlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models
from django.db.migrations.exceptions import IrreversibleError
from django.db.models import Case, Count, Q, Value, When

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


def colours_from_seats(apps, schema_editor):
    """The reverse of ``seats_from_colours``: seat 1 is Orange, seat 2 Blue."""
    Game = apps.get_model("games", "Game")
    GameSeat = apps.get_model("games", "GameSeat")
    Move = apps.get_model("games", "Move")
    Challenge = apps.get_model("games", "Challenge")
    colour = {1: "orange", 2: "blue"}
    rows = GameSeat.objects.order_by("game_id", "seat").values_list(
        "game_id", "seat", "user_id", "time_left"
    )
    batch = {}
    for game_id, seat, user_id, time_left in rows.iterator(chunk_size=BATCH):
        game = batch.setdefault(game_id, Game(pk=game_id))
        setattr(game, f"{colour[seat]}_id", user_id)
        setattr(game, f"{colour[seat]}_time_left", time_left)
        if len(batch) > BATCH:
            _save_colours(Game, batch)
            batch = {}
    _save_colours(Game, batch)
    Game.objects.update(
        to_move=Case(
            When(seat_to_move=1, then=Value("orange")),
            When(seat_to_move=2, then=Value("blue")),
            default=Value(""),
        )
    )
    Move.objects.update(side=Case(When(seat=1, then=Value("orange")), default=Value("blue")))
    Challenge.objects.update(
        colour=Case(
            When(seat_choice=1, then=Value("orange")),
            When(seat_choice=2, then=Value("blue")),
            default=Value("random"),
        )
    )


def _save_colours(Game, games: dict) -> None:
    """Both players and clocks of each game in ``games`` (a game that is one seat short is
    refused before: see ``refuse_what_colours_cannot_hold``)."""
    fields = ["orange", "blue", "orange_time_left", "blue_time_left"]
    Game.objects.bulk_update(list(games.values()), fields, batch_size=BATCH)


def _some(queryset, limit: int = 5) -> str:
    """How many rows, and the first few ids, for an error message."""
    ids = list(queryset.order_by("pk").values_list("pk", flat=True)[:limit])
    more = ", …" if queryset.count() > limit else ""
    return f"{queryset.count()} (#{', #'.join(map(str, ids))}{more})"


def refuse_what_colours_cannot_hold(apps, schema_editor):
    """Going back is refused, before anything changes, while a row does not fit the old
    two-colour columns: the reverse would lose it or turn it into something else."""
    Game = apps.get_model("games", "Game")
    GameSeat = apps.get_model("games", "GameSeat")
    Move = apps.get_model("games", "Move")
    Challenge = apps.get_model("games", "Challenge")
    ChallengeEntrant = apps.get_model("games", "ChallengeEntrant")
    not_celtic_for_two = ~Q(kind="celtic") | ~Q(seat_count=2)
    found = {
        "games of another kind or seat count": Game.objects.filter(not_celtic_for_two),
        "games without exactly seats 1 and 2": Game.objects.annotate(
            seats_1_2=Count("seats", filter=Q(seats__seat__in=[1, 2])), all_seats=Count("seats")
        ).exclude(seats_1_2=2, all_seats=2),
        "games with a chance seed": Game.objects.exclude(chance_seed=""),
        "games with a result Celtic! does not write": Game.objects.exclude(
            result__in=["", *PLACES]
        ),
        "games whose places the result does not give": Game.objects.filter(
            pk__in=_places_off(Game, GameSeat)
        ),
        "seats left before the end": GameSeat.objects.filter(left_at_ply__isnull=False),
        "'leave' steps": Move.objects.filter(kind="leave"),
        "challenges of another kind or seat count": Challenge.objects.filter(not_celtic_for_two),
        "seek entrants": ChallengeEntrant.objects.all(),
    }
    problems = [f"{what}: {_some(rows)}" for what, rows in found.items() if rows.exists()]
    if problems:
        raise IrreversibleError(
            "games/0010_game_seats cannot be reversed: the columns before it hold only Celtic! "
            "games for two (seat 1 as Orange, seat 2 as Blue). Found "
            + "; ".join(problems)
            + ". Remove those rows first, or stay at games/0010 or later."
        )


def _places_off(Game, GameSeat) -> list[int]:
    """Games whose seats' places differ from what ``seats_from_colours`` gives them back:
    a finished game's from its result, none while a game runs or once it is annulled."""
    places: dict[int, list] = {}
    seats = GameSeat.objects.order_by("game_id", "seat").values_list("game_id", "place")
    for game_id, place in seats.iterator(chunk_size=BATCH):
        places.setdefault(game_id, []).append(place)
    off = []
    games = Game.objects.values_list("pk", "status", "result")
    for pk, status, result in games.iterator(chunk_size=BATCH):
        got = places.get(pk, [])
        want = PLACES.get(result) if status == "finished" else None
        if (want is None and any(place is not None for place in got)) or (
            want is not None and tuple(got) != want
        ):
            off.append(pk)
    return off


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
        # The players and sides may be empty for the copy back: a column added NOT NULL to full
        # rows without a default fails.
        migrations.AlterField(
            model_name="move",
            name="side",
            field=models.CharField(
                choices=[("orange", "Orange"), ("blue", "Blue")], max_length=6, null=True
            ),
        ),
        *[
            migrations.AlterField(
                model_name="game",
                name=colour,
                field=models.ForeignKey(
                    null=True,
                    on_delete=django.db.models.deletion.PROTECT,
                    related_name=f"games_as_{colour}",
                    to=settings.AUTH_USER_MODEL,
                ),
            )
            for colour in ("orange", "blue")
        ],
        migrations.RunPython(seats_from_colours, colours_from_seats),
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
        migrations.RunPython(migrations.RunPython.noop, refuse_what_colours_cannot_hold),
    ]
