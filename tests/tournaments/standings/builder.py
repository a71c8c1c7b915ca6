"""A small builder of consistent round records for hand-made test events."""

from __future__ import annotations

from tournaments.standings.records import Colour, Outcome, PlayerRecord, RoundRecord

_GAME_RESULTS = {
    "1-0": (Outcome.WIN, Outcome.LOSS),
    "=": (Outcome.DRAW, Outcome.DRAW),
    "0-1": (Outcome.LOSS, Outcome.WIN),
    "+-": (Outcome.FORFEIT_WIN, Outcome.FORFEIT_LOSS),
    "-+": (Outcome.FORFEIT_LOSS, Outcome.FORFEIT_WIN),
}


class EventBuilder:
    """``game(round, orange, blue, "1-0")`` records both sides; ``bye(round, player, code)``
    one player's round without a game."""

    def __init__(self, ratings: dict[int, int | None]) -> None:
        self.ratings = ratings
        self.records: dict[int, list[RoundRecord]] = {n: [] for n in ratings}
        self.withdrawn: dict[int, int] = {}

    def game(self, round_: int, orange: int, blue: int, result: str) -> EventBuilder:
        first, second = _GAME_RESULTS[result]
        self.records[orange].append(RoundRecord(round_, first, blue, Colour.ORANGE))
        self.records[blue].append(RoundRecord(round_, second, orange, Colour.BLUE))
        return self

    def bye(self, round_: int, player: int, outcome: Outcome) -> EventBuilder:
        self.records[player].append(RoundRecord(round_, outcome))
        return self

    def withdraw(self, player: int, after: int) -> EventBuilder:
        self.withdrawn[player] = after
        return self

    def players(self) -> list[PlayerRecord]:
        return [
            PlayerRecord(
                number=n,
                name=f"Player {n}",
                rating=rating,
                rounds=tuple(sorted(self.records[n], key=lambda r: r.round)),
                withdrawn_after=self.withdrawn.get(n),
            )
            for n, rating in self.ratings.items()
        ]
