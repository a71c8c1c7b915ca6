"""An event's long lists, a bounded part at a time: the API's detail and its entries and
games endpoints (docs/API.md, "Large events").

A 5,000-player event has 5,000 entries and 27,500 games; a 60-player round robin started
all at once has 1,770 games. The detail lists the first :data:`DETAIL_ENTRIES` entries and
the games of its rounds in order while their total stays within :data:`DETAIL_GAMES` (a
round whose games would pass it, and every round after, lists none); ``entries/`` and
``games/`` give every one a page at a time.
"""

from __future__ import annotations

from django.db.models import Count, Prefetch, QuerySet

from tournaments import selectors
from tournaments.models import Bye, Entry, KnockoutMatch, Round, Tournament, TournamentGame

DETAIL_ENTRIES = 200
DETAIL_GAMES = 200


def detail_entries(*, tournament: Tournament) -> list[Entry]:
    """The first :data:`DETAIL_ENTRIES` entries (seed order, then by registration)."""
    return list(selectors.tournament_entries(tournament=tournament)[:DETAIL_ENTRIES])


def detail_rounds(*, tournament: Tournament) -> list[Round]:
    """The rounds in order with their byes and matches (``selectors.tournament_rounds``),
    each with its ``game_count`` and ``games_listed``: the games of the first rounds, while
    their total stays within :data:`DETAIL_GAMES`, the others none."""
    counts = dict(
        tournament.games.order_by()
        .values("round_id")
        .annotate(games=Count("id"))
        .values_list("round_id", "games")
    )
    listed: list[int] = []
    total = 0
    for round_id in tournament.rounds.order_by("number").values_list("pk", flat=True):
        total += counts.get(round_id, 0)
        if total > DETAIL_GAMES:
            break
        listed.append(round_id)
    games = TournamentGame.objects.filter(round_id__in=listed).select_related(
        "game", "orange__player", "blue__player"
    )
    rounds = list(
        tournament.rounds.prefetch_related(
            Prefetch("games", queryset=games.order_by("section", "board")),
            Prefetch("byes", queryset=Bye.objects.select_related("entry")),
            Prefetch(
                "matches",
                queryset=KnockoutMatch.objects.select_related("higher", "lower", "winner"),
            ),
        ).order_by("number")
    )
    for rnd in rounds:
        rnd.game_count = counts.get(rnd.pk, 0)  # type: ignore[attr-defined]
        rnd.games_listed = rnd.pk in listed  # type: ignore[attr-defined]
    return rounds


def tournament_games(
    *, tournament: Tournament, round_number: int | None
) -> QuerySet[TournamentGame]:
    """The event's games by round, section and board; only round ``round_number``'s if given."""
    games = tournament.games.select_related("game", "orange", "blue", "round").order_by(
        "round__number", "section", "board", "pk"
    )
    if round_number is not None:
        games = games.filter(round__number=round_number)
    return games


def round_exists(*, tournament: Tournament, round_number: int) -> bool:
    return tournament.rounds.filter(number=round_number).exists()
