"""The ladder's rules as pure functions: who may challenge whom, and the order after a
result, a time-forfeit drop, or a player leaving. No Django, no ORM (import-linter checks);
the services load rows, call these, and save what they return.

An order is a tuple of player ids, the top of the ladder first: place ``n`` is ``order[n-1]``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

Order = tuple[int, ...]


@dataclass(frozen=True)
class LadderRules:
    """The limits an organiser sets for a ladder."""

    challenge_range: int = 3
    max_open_challenges: int = 2
    rematch_days: int = 7
    timeout_drop_places: int = 2
    inactivity_days: int = 30

    def problems(self) -> dict[str, str]:
        """Each field that is out of bounds, with what is accepted."""
        found: dict[str, str] = {}
        if not 1 <= self.challenge_range <= 50:
            found["challenge_range"] = "From 1 to 50 places."
        if not 1 <= self.max_open_challenges <= 20:
            found["max_open_challenges"] = "From 1 to 20 challenges."
        if not 0 <= self.rematch_days <= 365:
            found["rematch_days"] = "From 0 to 365 days."
        if not 0 <= self.timeout_drop_places <= 100:
            found["timeout_drop_places"] = "From 0 to 100 places (0: no drop)."
        if not 7 <= self.inactivity_days <= 365:
            found["inactivity_days"] = "From 7 to 365 days."
        return found


@dataclass(frozen=True)
class Refusal:
    """Why a challenge is not allowed: a stable ``code`` and a message for the player."""

    code: str
    message: str


@dataclass(frozen=True)
class ChallengeContext:
    """What the rules need to know beyond the order: the open challenges and past games.

    ``open_pairs`` holds each open challenge as a frozenset of its two players;
    ``last_decided`` maps such a pair to when their last challenge was decided.
    """

    open_pairs: Collection[frozenset[int]] = ()
    last_decided: Mapping[frozenset[int], datetime] | None = None

    def open_count(self, player: int) -> int:
        return sum(1 for pair in self.open_pairs if player in pair)


def place_of(order: Order, player: int) -> int | None:
    """The 1-based place of ``player``, or None if they are not on the ladder."""
    try:
        return order.index(player) + 1
    except ValueError:
        return None


def challenge_refusal(
    order: Order,
    *,
    challenger: int,
    defender: int,
    rules: LadderRules,
    context: ChallengeContext,
    now: datetime,
) -> Refusal | None:
    """Why ``challenger`` may not challenge ``defender`` now, or None if they may.

    A player may challenge anyone from one to ``challenge_range`` places above, unless either
    already has ``max_open_challenges`` open challenges, the two already have one open, or
    their last challenge was decided less than ``rematch_days`` ago.
    """
    if challenger == defender:
        return Refusal("self_challenge", "You cannot challenge yourself.")
    mine, theirs = place_of(order, challenger), place_of(order, defender)
    if mine is None:
        return Refusal("not_on_ladder", "Join the ladder before challenging anyone.")
    if theirs is None:
        return Refusal("opponent_not_on_ladder", "That player is not on this ladder.")
    if theirs >= mine:
        return Refusal(
            "not_above",
            f"You are in place {mine}; you may only challenge players above you, "
            f"not place {theirs}.",
        )
    if mine - theirs > rules.challenge_range:
        return Refusal(
            "out_of_range",
            f"You are in place {mine}; you may challenge places "
            f"{max(1, mine - rules.challenge_range)} to {mine - 1} "
            f"({rules.challenge_range} above you), not place {theirs}.",
        )
    pair = frozenset((challenger, defender))
    if pair in set(context.open_pairs):
        return Refusal(
            "pair_already_playing", "You already have a challenge game with this player."
        )
    if context.open_count(challenger) >= rules.max_open_challenges:
        return Refusal(
            "too_many_open_challenges",
            f"You already have {rules.max_open_challenges} open challenges, the most allowed; "
            "finish one first.",
        )
    if context.open_count(defender) >= rules.max_open_challenges:
        return Refusal(
            "opponent_too_busy",
            f"That player already has {rules.max_open_challenges} open challenges; try later.",
        )
    last = (context.last_decided or {}).get(pair)
    if last is not None and now < last + timedelta(days=rules.rematch_days):
        again = last + timedelta(days=rules.rematch_days)
        return Refusal(
            "rematch_too_soon",
            "You played this player recently; a rematch is allowed from "
            f"{again:%Y-%m-%d %H:%M} UTC ({rules.rematch_days} days after your last challenge).",
        )
    return None


def order_after_result(
    order: Order, *, challenger: int, defender: int, winner: int | None
) -> Order:
    """The order after a challenge game: a challenger who beats a player above takes that
    place and everyone from there down to the challenger's old place moves down one. A win
    by the defender, a draw (``winner`` None), or a challenger already above changes nothing."""
    _require_on(order, challenger, defender)
    mine, theirs = order.index(challenger), order.index(defender)
    if winner != challenger or theirs > mine:
        return order
    rest = [player for player in order if player != challenger]
    rest.insert(theirs, challenger)
    return tuple(rest)


def order_after_drop(order: Order, *, player: int, places: int) -> Order:
    """``player`` moves down ``places`` places (not below the bottom); those passed move up."""
    _require_on(order, player)
    if places < 0:
        raise ValueError(f"places is {places}: expected 0 or more")
    rest = [p for p in order if p != player]
    rest.insert(min(order.index(player) + places, len(rest)), player)
    return tuple(rest)


def order_after_leaving(order: Order, *, player: int) -> Order:
    """``player`` leaves; everyone below moves up one."""
    _require_on(order, player)
    return tuple(p for p in order if p != player)


def order_after_joining(order: Order, *, player: int) -> Order:
    """A newcomer joins at the bottom."""
    if player in order:
        raise ValueError(f"player {player} is already on the ladder")
    return (*order, player)


def inactive_players(
    last_active: Mapping[int, datetime],
    *,
    busy: Collection[int],
    rules: LadderRules,
    now: datetime,
) -> list[int]:
    """Players whose last activity is ``inactivity_days`` or more before ``now`` and who
    have no open challenge (``busy``), in the order of their last activity."""
    limit = now - timedelta(days=rules.inactivity_days)
    idle = [p for p, moment in last_active.items() if moment <= limit and p not in busy]
    return sorted(idle, key=lambda p: (last_active[p], p))


def _require_on(order: Order, *players: int) -> None:
    missing = [p for p in players if p not in order]
    if missing:
        raise ValueError(f"player(s) {missing} are not on the ladder {list(order)}")
