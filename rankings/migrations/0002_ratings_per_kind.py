"""Ratings per game kind, results as finishing orders.

Every existing result, rating, history row and ranking row becomes one of the kind "celtic";
each result gets its two placings (seat 1 = player 1). `PlayerRating` and `RankingPosition`
were keyed by the player alone: they are rebuilt under a temporary name, copied, and renamed,
so no index or key name clashes with the old tables on any backend.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F, Q

KIND = "celtic"


def kind_field():
    return models.CharField(default=KIND, help_text="The game kind's id.", max_length=20)


def placings_from_pairs(apps, schema_editor):
    """Each two-player result's finishing order: seat 1 is player 1; a draw shares first."""
    RatedResult = apps.get_model("rankings", "RatedResult")
    RatedPlacing = apps.get_model("rankings", "RatedPlacing")
    rows = RatedResult.objects.values_list("pk", "player1_id", "player2_id", "score1")
    batch = []
    for result_id, player1, player2, score1 in rows.iterator(chunk_size=5000):
        place1, place2 = {1.0: (1, 2), 0.0: (2, 1), 0.5: (1, 1)}[score1]
        batch += [
            RatedPlacing(result_id=result_id, player_id=player1, seat=1, place=place1),
            RatedPlacing(result_id=result_id, player_id=player2, seat=2, place=place2),
        ]
        if len(batch) >= 5000:
            RatedPlacing.objects.bulk_create(batch)
            batch = []
    RatedPlacing.objects.bulk_create(batch)


def snapshot_places(apps, schema_editor):
    """A lost two-player game is second place; wins and draws share first."""
    apps.get_model("rankings", "RatingSnapshot").objects.filter(score=0.0).update(place=2)


RATING_FIELDS = (
    "elo", "games", "elo_peak", "elo_master", "glicko_rating", "glicko_rd",
    "glicko_volatility", "last_played",
)  # fmt: skip


def copy_ratings(apps, schema_editor):
    """The old one-per-player rows become the players' "celtic" rows, with their positions."""
    Old = apps.get_model("rankings", "PlayerRating")
    New = apps.get_model("rankings", "PlayerRatingByKind")
    OldPosition = apps.get_model("rankings", "RankingPosition")
    NewPosition = apps.get_model("rankings", "RankingPositionByKind")
    New.objects.bulk_create(
        [
            New(player_id=old.player_id, kind=KIND, **{f: getattr(old, f) for f in RATING_FIELDS})
            for old in Old.objects.all().iterator(chunk_size=5000)
        ],
        batch_size=5000,
    )
    rating_ids = dict(New.objects.values_list("player_id", "pk"))
    NewPosition.objects.bulk_create(
        [
            NewPosition(
                rating_id=rating_ids[old.player_id],
                player_id=old.player_id,
                kind=KIND,
                position=old.position,
                rank=old.rank,
                previous_rank=old.previous_rank,
                glicko_rd=old.glicko_rd,
            )
            for old in OldPosition.objects.all().iterator(chunk_size=5000)
        ],
        batch_size=5000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("rankings", "0001_squashed_0005_pending_ranking_updates"),
    ]

    operations = [
        # --- results: a kind and a finishing order -------------------------------------------
        migrations.AddField(
            model_name="ratedresult",
            name="kind",
            field=models.CharField(
                db_index=True, default=KIND, help_text="The game kind's id.", max_length=20
            ),
        ),
        migrations.AlterField(
            model_name="ratedresult",
            name="player1",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="rankings.player",
            ),
        ),
        migrations.AlterField(
            model_name="ratedresult",
            name="player2",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to="rankings.player",
            ),
        ),
        migrations.AlterField(
            model_name="ratedresult",
            name="score1",
            field=models.FloatField(
                blank=True,
                null=True,
                help_text=(
                    "Player 1's score: 1 win, 0.5 draw, 0 loss; empty for more than two players."
                ),
            ),
        ),
        migrations.AddConstraint(
            model_name="ratedresult",
            constraint=models.CheckConstraint(
                condition=Q(player1__isnull=False, player2__isnull=False, score1__isnull=False)
                | Q(player1__isnull=True, player2__isnull=True, score1__isnull=True),
                name="rated_result_pair_complete",
            ),
        ),
        migrations.CreateModel(
            name="RatedPlacing",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("seat", models.PositiveSmallIntegerField(help_text="1 = the first seat.")),
                (
                    "place",
                    models.PositiveSmallIntegerField(help_text="1 = first; a tie shares a place."),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="placings",
                        to="rankings.player",
                    ),
                ),
                (
                    "result",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="placings",
                        to="rankings.ratedresult",
                    ),
                ),
            ],
            options={
                "ordering": ["result", "seat"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("result", "seat"), name="placing_once_per_seat"
                    ),
                    models.UniqueConstraint(
                        fields=("result", "player"), name="placing_once_per_player"
                    ),
                    models.CheckConstraint(condition=Q(seat__gte=1), name="placing_seat_from_1"),
                    models.CheckConstraint(
                        condition=Q(place__gte=1), name="placing_place_from_1"
                    ),
                ],
            },
        ),
        migrations.RunPython(placings_from_pairs, migrations.RunPython.noop, elidable=True),
        # --- the rating history: per kind, with the place and Plackett-Luce columns ----------
        migrations.AddField(model_name="ratingsnapshot", name="kind", field=kind_field()),
        migrations.AddField(
            model_name="ratingsnapshot",
            name="place",
            field=models.PositiveSmallIntegerField(
                default=1, help_text="Finishing place: 1 = first."
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="ratingsnapshot",
            name="players",
            field=models.PositiveSmallIntegerField(default=2, help_text="Players in the game."),
        ),
        migrations.RunPython(snapshot_places, migrations.RunPython.noop, elidable=True),
        *[
            migrations.AddField(
                model_name="ratingsnapshot",
                name=name,
                field=models.FloatField(blank=True, null=True, help_text=help_text),
            )
            for name, help_text in (
                ("mu", ""),
                ("sigma", ""),
                ("rating_before", "Shown rating before."),
                ("rating_after", "Shown rating after."),
            )
        ],
        *[
            migrations.AlterField(
                model_name="ratingsnapshot",
                name=name,
                field=models.FloatField(blank=True, null=True),
            )
            for name in (
                "elo_before", "elo_after", "opponent_elo_before", "glicko_rating",
                "glicko_rd", "glicko_volatility",
            )  # fmt: skip
        ],
        migrations.AlterField(
            model_name="ratingsnapshot",
            name="opponent",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                help_text="The opponent of a two-player Elo kind's game.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="rankings.player",
            ),
        ),
        migrations.AlterField(
            model_name="ratingsnapshot",
            name="score",
            field=models.FloatField(
                help_text=(
                    "Share of the other players beaten, a tie half: 1 win, 0.5 draw, 0 loss."
                )
            ),
        ),
        migrations.RemoveIndex(model_name="ratingsnapshot", name="snapshot_player_time"),
        migrations.AddIndex(
            model_name="ratingsnapshot",
            index=models.Index(
                fields=["player", "kind", "finished_at"], name="snapshot_player_time"
            ),
        ),
        # --- the stored ranking's bookkeeping: per kind ---------------------------------------
        migrations.AddField(
            model_name="rankingstate",
            name="kind",
            field=models.CharField(default=KIND, max_length=20, unique=True),
        ),
        migrations.AddField(model_name="rankingupdate", name="kind", field=kind_field()),
        # --- current ratings and the stored list: one row per (player, kind) ------------------
        migrations.CreateModel(
            name="PlayerRatingByKind",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", kind_field()),
                ("elo", models.FloatField(blank=True, null=True)),
                ("games", models.PositiveIntegerField(default=0)),
                ("elo_peak", models.FloatField(blank=True, null=True)),
                (
                    "elo_master",
                    models.BooleanField(
                        default=False,
                        help_text="Reached the master threshold: K is the master K for good.",
                    ),
                ),
                ("glicko_rating", models.FloatField(blank=True, null=True)),
                ("glicko_rd", models.FloatField(blank=True, null=True)),
                ("glicko_volatility", models.FloatField(blank=True, null=True)),
                (
                    "mu",
                    models.FloatField(blank=True, help_text="Plackett-Luce skill mean.", null=True),
                ),
                (
                    "sigma",
                    models.FloatField(
                        blank=True, help_text="Its standard deviation.", null=True
                    ),
                ),
                (
                    "last_played",
                    models.DateField(
                        blank=True, help_text="UTC date of the last game.", null=True
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ratings",
                        to="rankings.player",
                    ),
                ),
            ],
        ),
        migrations.CreateModel(
            name="RankingPositionByKind",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("kind", kind_field()),
                (
                    "position",
                    models.PositiveIntegerField(
                        help_text="Place in the list: ranked players first."
                    ),
                ),
                (
                    "rank",
                    models.PositiveIntegerField(
                        blank=True, help_text="None if inactive.", null=True
                    ),
                ),
                (
                    "previous_rank",
                    models.PositiveIntegerField(
                        blank=True,
                        help_text="World rank RANK_CHANGE_DAYS ago, None if unranked.",
                        null=True,
                    ),
                ),
                (
                    "glicko_rd",
                    models.FloatField(
                        blank=True,
                        help_text="Glicko-2 RD grown to the ranking's date (Elo kinds).",
                        null=True,
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ranking_positions",
                        to="rankings.player",
                    ),
                ),
                (
                    "rating",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="ranking_position",
                        to="rankings.playerratingbykind",
                    ),
                ),
            ],
        ),
        migrations.RunPython(copy_ratings, migrations.RunPython.noop, elidable=True),
        migrations.DeleteModel(name="RankingPosition"),
        migrations.DeleteModel(name="PlayerRating"),
        migrations.RenameModel(old_name="PlayerRatingByKind", new_name="PlayerRating"),
        migrations.RenameModel(old_name="RankingPositionByKind", new_name="RankingPosition"),
        migrations.AddConstraint(
            model_name="playerrating",
            constraint=models.UniqueConstraint(
                fields=("player", "kind"), name="rating_once_per_kind"
            ),
        ),
        migrations.AddIndex(
            model_name="rankingposition",
            index=models.Index(
                fields=["kind", "position", "player"], name="ranking_position_order"
            ),
        ),
        migrations.AddConstraint(
            model_name="rankingposition",
            constraint=models.UniqueConstraint(
                fields=("player", "kind"), name="position_once_per_kind"
            ),
        ),
    ]
