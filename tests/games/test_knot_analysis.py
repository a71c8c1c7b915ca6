"""The analysis board of a game with chance never shows the flips the game will make: tried
moves draw from a public source derived from the seed's commitment, not from the seed."""

from __future__ import annotations

import hashlib

import pytest

from games import selectors, services
from games.kinds.base import SeededChance
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

SEED = bytes(range(32))


def _flips(steps) -> list[str]:
    return [step.notation.split()[1] for step in steps if len(step.notation.split()) == 2]


def _expected(chance: SeededChance, counts: list[int]) -> list[str]:
    """The flips of the m-th flippings (m = 1, 2 ...) of stacks of ``counts`` coins."""
    flips = []
    for m, coins in enumerate(counts, start=1):
        byte = chance.draw(m)[0]
        flips.append("".join("T" if byte >> (7 - j) & 1 else "H" for j in range(coins)))
    return flips


def test_tried_moves_draw_from_the_public_analysis_source_not_the_seed():
    game = services.game_start(players=[make_user("ann"), make_user("ben")], kind="knot")
    game.chance_seed = SEED.hex()
    game.save(update_fields=["chance_seed"])
    tried: list[str] = []
    state = selectors.analysis_position(game=game, moves=tried)
    for _ in range(6):  # three squares and their destinations, first choices each time
        choice = sorted(state.legal_choices())[0]
        tried.append(choice)
        state = selectors.analysis_position(game=game, moves=tried)
    flips = _flips(state.steps)
    public = SeededChance(hashlib.sha256(f"{game.chance_commitment}:analysis".encode()).digest())
    counts = [len(flip) for flip in flips]
    assert flips == _expected(public, counts)
    assert game.chance is not None and public.draw(1) != game.chance.draw(1)
    assert not game.moves.exists()  # nothing was played
