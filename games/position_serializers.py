"""The shapes of a game's position in the API: each kind answers its own position data
(``GameKind.position_data``), and the OpenAPI document describes it as one of these, the
game's ``kind`` saying which (docs/API.md, "Positions per kind")."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_serializer
from rest_framework import serializers

__all__ = ["POSITION", "CelticPositionSerializer", "KnotPositionSerializer"]


class TileSerializer(serializers.Serializer):
    cell = serializers.CharField(help_text="Cell a1 to i9.")
    sides = serializers.CharField(help_text="Open sides in N E S W order, e.g. 'NE'.")
    shape = serializers.CharField(help_text="X cross, T tee, I straight, L bend, U cap.")
    colour = serializers.ChoiceField(choices=["orange", "blue", "neutral"])


class KnotSerializer(serializers.Serializer):
    cells = serializers.ListField(child=serializers.CharField(), help_text="Cells it visits.")
    orange = serializers.IntegerField(help_text="Orange tiles it visits (its score for Orange).")
    blue = serializers.IntegerField(help_text="Blue tiles it visits (its score for Blue).")


class SupplySerializer(serializers.Serializer):
    orange = serializers.DictField(child=serializers.IntegerField(), help_text="Shape → count.")
    blue = serializers.DictField(child=serializers.IntegerField())
    neutral = serializers.DictField(child=serializers.IntegerField())


class ScoresSerializer(serializers.Serializer):
    orange = serializers.ListField(child=serializers.IntegerField())
    blue = serializers.ListField(child=serializers.IntegerField())


@extend_schema_serializer(component_name="Position")  # its name since 1.0: clients use it
class CelticPositionSerializer(serializers.Serializer):
    """A Celtic! position (a game of `kind` celtic): the tiles on the board, the cells a
    tile must fill, the supplies and the closed knots with what they score."""

    ply = serializers.IntegerField(help_text="Turns played to reach this position.")
    to_move = serializers.CharField(
        allow_null=True, help_text="The colour to move (orange, blue); null once over."
    )
    is_over = serializers.BooleanField(help_text="True when neither player can move.")
    tiles = TileSerializer(many=True)
    demand_cells = serializers.ListField(
        child=serializers.CharField(), help_text="Empty cells where a path end points."
    )
    supply = SupplySerializer()
    knots = KnotSerializer(many=True, help_text="Closed paths and what each scores.")
    scores = ScoresSerializer(help_text="Each player's knot scores, highest first.")
    board_result = serializers.CharField(
        help_text="Who the knots favour now: 1-0, 0-1 or 1/2-1/2 (the game's result once over)."
    )


KNOT_PHASES = ["square", "route", "extra", "over"]
"""Celtic Knot's `phase` values (the schema's KnotPhaseEnum)."""


class KnotPositionSerializer(serializers.Serializer):
    """A Celtic Knot position (a game of `kind` knot): where every seat's coins stand on the
    strand, whose turn it is and where that turn stands. Seats are numbers from 1 (as text
    when they are keys), spaces are names such as `c3` (and `c3u` for the lower space of a
    crossing)."""

    seat_count = serializers.IntegerField(min_value=2, max_value=6, help_text="Players: 2 to 6.")
    seat_names = serializers.ListField(
        child=serializers.CharField(), help_text="The seats' names, seat 1 first (Red, Blue, ...)."
    )
    seat_colours = serializers.ListField(
        child=serializers.CharField(),
        help_text="The seats' colours as #rrggbb, seat 1 first, for drawing their coins.",
    )
    to_act = serializers.IntegerField(
        allow_null=True,
        help_text="The seat to choose now (it keeps choosing until its turn ends); null once "
        "the game is over.",
    )
    phase = serializers.ChoiceField(
        choices=KNOT_PHASES,
        help_text="Where the turn stands, and what the seat to act sends next (one of "
        "`choices`, as a move): `square`: a space holding its coins (the flips are drawn at "
        "once); `route`: the stack on `stack` is flipped (`flips`), a destination from "
        "`destinations`; `extra`: a landing earned an extra move whose flips are still to "
        "come (rare: a replayed record that stores those flips apart): `stack`'s space, to "
        "flip it; `over`: nothing, the game is over.",
    )
    choices = serializers.ListField(
        child=serializers.CharField(),
        help_text="What the seat to act may send now (the game's legal moves); empty once over.",
    )
    stack = serializers.CharField(
        allow_null=True,
        help_text="The space of the stack being moved (phases `route` and `extra`), else null.",
    )
    flips = serializers.CharField(
        allow_null=True,
        help_text="Phase `route`: the stack's flips, one letter a coin, H (heads, 1 point) or "
        "T (tails, 2 points), e.g. `HT`; their sum is the move's length. Null in other phases.",
    )
    destinations = serializers.ListField(
        child=serializers.CharField(),
        help_text="Phase `route`: the spaces the flipped stack may move to (`e5` is the exit, "
        "the diamond); empty in other phases.",
    )
    spaces = serializers.DictField(
        child=serializers.DictField(child=serializers.IntegerField(min_value=1)),
        help_text="The occupied spaces: space → seat (as text) → its coins there, e.g. "
        '`{"a1": {"1": 2, "3": 1}}`. Spaces without coins are left out.',
    )
    coins = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=6),
        help_text="Seat (as text) → its coins still on the board (6 at the start; 0 once they "
        "have all left by the exit, which wins, or when the seat has left the game).",
    )
    distance = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="Seat (as text) → the sum over its coins of the fewest points each needs to "
        "reach the exit: lower is nearer to winning.",
    )
    playing = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="The seats still in the game, in seat order.",
    )
    departed = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        help_text="The seats that resigned or timed out, in the order they left.",
    )
    flippings = serializers.IntegerField(
        min_value=0,
        help_text="Stacks flipped so far in the game: the next flipping is number flippings + 1 "
        "(how flips are drawn from the seed: docs/KNOT.md).",
    )
    turns = serializers.IntegerField(
        min_value=0, help_text="Turns played to their end (a turn may take several moves)."
    )
    finishing_order = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        allow_null=True,
        help_text="Once over: the seats from first to last; null while the game runs.",
    )
    distances = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="Space → the fewest points from it to the exit (the same in every game).",
    )


POSITION = PolymorphicProxySerializer(
    component_name="GamePosition",
    serializers=[CelticPositionSerializer, KnotPositionSerializer],
    resource_type_field_name=None,
    many=False,
)
"""A game's position is its kind's own data: one of these shapes (the game's `kind` says
which)."""
