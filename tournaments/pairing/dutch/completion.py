"""A quick search for a complete pairing: the witness that lets the engine skip big solves.

The Dutch engine only needs to know that the players below a bracket *can* all be paired (C4);
which pairing they get is decided later, bracket by bracket. A greedy pass, repaired by
swapping partners, finds such a pairing at once in the usual case of a field where most
players may still meet. It may miss one that exists: ``None`` proves nothing, and the engine
then falls back to a full maximum-weight matching.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

Fits = Callable[[int, int], bool]

# How many players the search tries, one after the other, as the one left without a partner.
SITTER_TRIES = 3


def complete_pairing(
    order: Sequence[int],
    fits: Fits,
    *,
    sitters: Sequence[int] = (),
    apart: Collection[int] = (),
) -> dict[int, int | None] | None:
    """Partners for every player in ``order`` (``None`` for the one who sits out), or None.

    ``fits(a, b)`` tells whether two players may meet. With an odd number of players, one of
    ``sitters`` (tried in their order, at most ``SITTER_TRIES``) is left without a partner.
    No two players of ``apart`` are paired together. Earlier players of ``order`` are given
    partners first, so the hardest to place should come first.
    """
    if len(order) % 2 == 0:
        return _perfect(order, fits, apart)
    for sitter in list(sitters)[:SITTER_TRIES]:
        if sitter not in order:
            continue
        mates = _perfect([v for v in order if v != sitter], fits, apart)
        if mates is not None:
            return {**mates, sitter: None}
    return None


def _perfect(
    order: Sequence[int], fits: Fits, apart: Collection[int]
) -> dict[int, int | None] | None:
    """A pairing of everyone in ``order`` (an even number of players), or None."""
    apart = set(apart)

    def may_meet(a: int, b: int) -> bool:
        return a != b and not (a in apart and b in apart) and fits(a, b)

    mate: dict[int, int] = {}
    waiting: list[int] = []
    free = list(order)
    while free:
        v = free.pop(0)
        partner = next((u for u in free if may_meet(v, u)), None)
        if partner is None:
            waiting.append(v)
        else:
            free.remove(partner)
            mate[v], mate[partner] = partner, v
    for v in waiting:
        if v not in mate and not _swap_in(v, order, mate, may_meet):
            return None
    return dict(mate)


def _swap_in(v: int, order: Sequence[int], mate: dict[int, int], may_meet: Fits) -> bool:
    """Pair the unpaired ``v`` by breaking one pair (x, y): v takes x, and y takes another
    unpaired player (or, when the two left over are v and y alone, nobody else is needed)."""
    free = [u for u in order if u not in mate and u != v]
    for x in order:
        y = mate.get(x)
        if y is None or not may_meet(v, x):
            continue
        other = next((u for u in free if may_meet(u, y)), None)
        if other is not None:
            mate[v], mate[x] = x, v
            mate[y], mate[other] = other, y
            return True
    return False


__all__ = ["complete_pairing"]
