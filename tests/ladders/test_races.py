"""Two writes racing on one ladder: the lock on the ladder row lets one through at a time,
so the second finds the first's challenge and is refused with its code."""

from __future__ import annotations

import pytest

from celticsite.errors import DomainError
from ladders import services
from ladders.models import LadderChallenge
from tests.accounts.factories import make_user
from tests.games.test_api_integrity import on_postgresql, race
from tests.ladders.conftest import names


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_challengers_racing_for_the_one_open_slot_of_a_defender(make_ladder):
    ladder = make_ladder(challenge_range=2, max_open_challenges=1)
    p = {name: make_user(name) for name in ("ann", "bob", "cat")}
    for name in ("ann", "bob", "cat"):
        services.ladder_join(ladder_id=ladder.pk, user=p[name])

    def challenge(name: str):
        return lambda: services.ladder_challenge(
            ladder_id=ladder.pk, challenger=p[name], defender_id=p["ann"].pk
        )

    results = race(challenge("bob"), challenge("cat"))
    made = [r for r in results if isinstance(r, LadderChallenge)]
    refused = [r for r in results if isinstance(r, DomainError)]
    assert len(made) == 1 and len(refused) == 1, results
    assert refused[0].code in {"opponent_too_busy", "too_many_open_challenges"}
    assert LadderChallenge.objects.count() == 1


@on_postgresql
@pytest.mark.django_db(transaction=True)
def test_two_players_joining_at_once_get_different_places(make_ladder):
    ladder = make_ladder()
    users = [make_user(f"p{i}") for i in range(4)]
    race(*[lambda u=u: services.ladder_join(ladder_id=ladder.pk, user=u) for u in users])
    assert sorted(ladder.players.values_list("place", flat=True)) == [1, 2, 3, 4]
    assert sorted(names(ladder)) == ["p0", "p1", "p2", "p3"]
