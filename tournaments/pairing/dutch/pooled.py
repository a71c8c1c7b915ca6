"""The members' matching with the next score group stood in for by a few of its players.

In a bracket's matching, a pair with a player of the next score group gains only what the
C8 field says (and, with the bye's C9 question open, the unplayed games), never a colour or
float field: every pair within the group gains the same, and a bracket player gains the
same with any of the group it may meet (checked on every solve: the unplayed games may
break it). So the group matters only as a *pool* that takes
the bracket's floaters and pairs the rest among itself. The engine solves the bracket's
players with ``k`` interchangeable stand-ins for the group (the *relaxed* problem: any
stand-in meets any bracket player who may meet someone of the group, and any other
stand-in), and then looks for real partners: each floater that took a stand-in gets a
player of the group it may meet, and the rest of the group pairs among itself.

Why that is the optimum, when it is found:

* The relaxed problem allows every pairing the real one does, with the same gains, and
  more: its optimum bounds the real one from above.
* Stand-ins are alike, so a relaxed optimum that sends ``r <= k`` floaters to the pool
  loses nothing by having only ``k`` of them: the missing ``(size - k) / 2`` pairs within
  the group (``k`` has the size's parity) add the same to every matching.
  ``r <= k`` holds in every optimum once ``k`` is at least the number of bracket players
  a greedy pairing among themselves leaves out: the number of the bracket's own pairs
  (C6) outranks everything below it, so every optimum has the most such pairs, at least
  as many as the greedy pairing.
* The real partners give a real matching of exactly that bound.

When any premise fails (gains that differ within the group, no real partners found), the
caller solves the members in full. ``None`` proves nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tournaments.pairing.dutch.completion import complete_pairing

Edges = Mapping[tuple[int, int], int]
SolvePart = Callable[[Sequence[int], Edges], dict[int, int]]


def pooled_matching(
    core: Sequence[int],
    group: Sequence[int],
    edges: Edges,
    solve_part: SolvePart,
    *,
    pair_floor: int,
) -> dict[int, int] | None:
    """A maximum-weight matching of ``core`` and ``group`` over ``edges`` (keyed
    ``(smaller, larger)``), found with the group pooled; None when that cannot be shown.

    ``pair_floor`` is the one unit of the C6 field (a pair within the core): every such
    pair must gain from ``pair_floor`` to twice that, every pair with the group less. (That
    the fields below C6 never add up to ``pair_floor`` is the weights' layout.)"""
    gains = _pool_gains(core, group, edges, pair_floor)
    if gains is None:
        return None
    inner, reach = gains
    k = _pool_size(len(group), _left_out_greedily(core, edges))
    if k >= len(group):
        return None
    stand_ins = list(group[:k])
    mate = solve_part([*core, *stand_ins], _relaxed_edges(core, stand_ins, edges, inner, reach))
    paired = sum(1 for v in core if mate[v] != v and mate[v] not in stand_ins)
    if len(core) - paired > k:  # more floaters than stand-ins: not shown (cannot happen)
        return None
    return _realise(core, group, stand_ins, mate, edges)


def _pool_gains(
    core: Sequence[int], group: Sequence[int], edges: Edges, pair_floor: int
) -> tuple[int, dict[int, int]] | None:
    """The one gain of every pair within the group, and each core player's one gain with
    the group (only those who may meet someone there); None when they are not uniform or
    the pairs within the core do not outrank them."""
    in_group = set(group)
    inner: set[int] = set()
    reach: dict[int, int] = {}
    for (a, b), gain in edges.items():
        a_in, b_in = a in in_group, b in in_group
        if not (a_in or b_in):
            if not pair_floor <= gain < 2 * pair_floor:
                return None
            continue
        if gain >= pair_floor:
            return None
        if a_in and b_in:
            inner.add(gain)
        elif reach.setdefault(b if a_in else a, gain) != gain:
            return None
    if len(inner) != 1:
        return None
    return inner.pop(), reach


def _pool_size(group_size: int, left_out: int) -> int:
    """At least ``left_out`` stand-ins, as many as the group modulo two."""
    return left_out + (group_size - left_out) % 2


def _left_out_greedily(core: Sequence[int], edges: Edges) -> int:
    """How many core players a greedy pairing among themselves leaves out: at least as
    many as any optimum leaves out, since no pairing has more pairs than the most."""
    free = set(core)
    for a, b in edges:
        if a in free and b in free:
            free.discard(a)
            free.discard(b)
    return len(free)


def _relaxed_edges(
    core: Sequence[int],
    stand_ins: Sequence[int],
    edges: Edges,
    inner: int,
    reach: Mapping[int, int],
) -> dict[tuple[int, int], int]:
    in_core = set(core)
    relaxed = {
        pair: gain for pair, gain in edges.items() if pair[0] in in_core and pair[1] in in_core
    }
    for x, gain in reach.items():
        for s in stand_ins:
            relaxed[(x, s) if x < s else (s, x)] = gain
    for i, s in enumerate(stand_ins):
        for t in stand_ins[i + 1 :]:
            relaxed[(s, t) if s < t else (t, s)] = inner
    return relaxed


def _realise(
    core: Sequence[int],
    group: Sequence[int],
    stand_ins: Sequence[int],
    mate: dict[int, int],
    edges: Edges,
) -> dict[int, int] | None:
    """Real partners for the relaxed optimum: the floaters that took a stand-in each meet a
    player of the group, the rest of the group pairs among itself (one sits out if odd)."""
    pooled = set(stand_ins)
    floaters = [v for v in core if mate[v] in pooled]
    order = floaters + list(reversed(group))
    completion = complete_pairing(
        order,
        lambda a, b: ((a, b) if a < b else (b, a)) in edges,
        sitters=list(reversed(group)),
        apart=floaters,
    )
    if completion is None:
        return None
    result = {v: mate[v] for v in core}
    for v, partner in completion.items():
        result[v] = v if partner is None else partner
    return result


__all__ = ["pooled_matching"]
