"""Query plans of the cursor-paged API lists on PostgreSQL (docs/API.md, "Paging").

Seeds a disposable database (players, games over two years, rated results), then asks each
list for its first page and a page further on through the API, and prints PostgreSQL's plan
(EXPLAIN ANALYZE) of the query that read the page: an index scan in the list's order, with
no sort of the whole table and no count.

    .venv/bin/python -m bench.list_plans --database-url postgres://postgres@127.0.0.1/celtic_x
"""

from __future__ import annotations

import argparse
import os
import random
import re
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True, help="an empty PostgreSQL database")
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--games", type=int, default=50_000)
    parser.add_argument("--results", type=int, default=10_000, help="rated results")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reuse", action="store_true", help="a database seeded before")
    args = parser.parse_args()
    os.environ["DATABASE_URL"] = args.database_url
    for scope in ("ANON", "USER"):  # this walks many pages
        os.environ[f"API_THROTTLE_{scope}"] = "100000/minute"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "celticsite.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "postgresql":
        parser.error("--database-url must name a PostgreSQL database")
    call_command("migrate", verbosity=0)
    from django.contrib.auth.models import User

    from games.models import Game

    if Game.objects.exists() and not args.reuse:
        parser.error("the database already has games: give an empty one (or --reuse it)")
    users = (
        list(User.objects.order_by("pk")) if args.reuse else _seed(random.Random(args.seed), args)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    for name, url in _lists(users):
        _show(name, users[0], url)


def _seed(rng: random.Random, args: argparse.Namespace) -> list[Any]:
    """Players, rated results, and games through the games services: started a round's worth
    at a time (``games_start_many``), four in five then finished with a random winner. The
    games are unrated, so finishing them leaves the ratings of ``seed_results`` alone."""
    from django.db import connection, transaction
    from django.utils import timezone

    from bench.scale import seed_players, seed_results
    from notifications.services import outbox_muted

    users = seed_players(args.players)
    now = timezone.now()
    seed_results(rng, users, args.results, today=now.date())
    with outbox_muted():
        for start in range(0, args.games, 1000):
            with transaction.atomic():
                _seed_games(rng, users, min(1000, args.games - start), now=now)
    with connection.cursor() as cursor:  # two years of games, a few a minute at times
        cursor.execute("UPDATE games_game SET created_at = now() - random() * interval '730 days'")
    print(f"seeded {args.players} players, {args.games} games, {args.results} results")
    return users


def _seed_games(rng: random.Random, users: list[Any], count: int, *, now: Any) -> None:
    """``count`` games, nine in ten public, four in five finished by a random seat's
    resignation (the kind says the other seat wins)."""
    from games import services as game_services
    from games.kinds.base import Departure
    from games.models import Game

    pairs = [(tuple(rng.sample(users, 2)), rng.random() < 0.9) for _ in range(count)]
    for public in (True, False):
        chosen = [pair for pair, shown in pairs if shown == public]
        games = game_services.games_start_many(pairs=chosen, rated=False, public=public, now=now)
        for game in games:
            if rng.random() < 0.2:
                continue
            game_services.game_seat_leave(  # in the caller's transaction, as under the lock
                game=game,
                seat=rng.choice([1, 2]),
                how=Departure.RESIGN,
                termination=Game.Termination.RESIGNATION,
                now=now,
            )


def _lists(users: list[Any]) -> list[tuple[str, str]]:
    player = users[1].username
    return [
        ("games, a guest", "/api/v1/games/"),
        ("games, a player (public or theirs)", "/api/v1/games/?as=user"),
        ("games, mine", "/api/v1/games/?mine=true&as=user"),
        ("games, my turn", "/api/v1/games/?my_turn=true&as=user"),
        ("games, of a player", f"/api/v1/games/?player={player}"),
        ("games, finished", "/api/v1/games/?status=finished"),
        ("ranking", "/api/v1/rankings/"),
        ("ranking, everyone", "/api/v1/rankings/?active=false"),
    ]


def _show(name: str, user: Any, url: str) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    client = APIClient()
    if "as=user" in url:
        client.force_authenticate(user)
        url = url.replace("&as=user", "").replace("?as=user", "")
    first = client.get(url)
    assert first.status_code == 200, first.content[:300]
    for page, link in (("first page", url), ("a page on", _deep(client, first.json()))):
        if link is None:
            continue
        with CaptureQueriesContext(connection) as captured:
            response = client.get(link)
        assert response.status_code == 200, response.content[:300]
        sql = next(q["sql"] for q in captured if re.search(r"\bORDER BY\b.*\bLIMIT\b", q["sql"]))
        with connection.cursor() as cursor:
            cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY ON) {sql}")
            plan = [row[0] for row in cursor.fetchall()]
        print(f"\n== {name}, {page}: {len(captured)} queries")
        print("\n".join(plan))


def _deep(client: Any, body: dict[str, Any], pages: int = 20) -> str | None:
    """The next link after following ``pages`` next links (or the last there is)."""
    link = body["next"]
    for _ in range(pages):
        if link is None:
            return None
        following = client.get(link).json()["next"]
        if following is None:
            return link
        link = following
    return link


if __name__ == "__main__":
    main()
