"""Maximum-weight matching over the players still to be paired.

The Dutch engine states every criterion as a part of an integer edge weight, so one optimum
of the weighted matching is a pairing that best satisfies the criteria in their order of
priority. Weights are exact Python integers, so no criterion is lost to rounding.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import networkx as nx


def _max_weight_matching(
    vertices: Iterable[int], edges: Iterable[tuple[int, int, int]]
) -> set[tuple[int, int]]:
    """networkx's maximum-weight matching over a graph built through its public API."""
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_weighted_edges_from(edges)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph)
    return matching


class MatchingGraph:
    """A complete graph of vertices 0..n-1 whose edge weights change between solves.

    A weight of 0 means the two players may not meet. Pairs fixed with :meth:`fix` leave the
    graph: a fixed pair is matched in every optimum, so solving without them is the same.
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._weights: dict[tuple[int, int], int] = {}
        self._fixed: dict[int, int] = {}

    def set(self, a: int, b: int, weight: int) -> None:
        key = (a, b) if a < b else (b, a)
        if weight:
            self._weights[key] = weight
        else:
            self._weights.pop(key, None)

    def get(self, a: int, b: int) -> int:
        return self._weights.get((a, b) if a < b else (b, a), 0)

    def is_fixed(self, vertex: int) -> bool:
        return vertex in self._fixed

    def edges_among(self, vertices: Sequence[int]) -> Iterator[tuple[tuple[int, int], int]]:
        """The non-zero edges between two of ``vertices``, keyed ``(smaller, larger)``."""
        ordered = sorted(vertices)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                weight = self._weights.get((a, b))
                if weight:
                    yield (a, b), weight

    def partners(self) -> list[int]:
        """Each vertex's fixed partner, itself if it has none."""
        mate = list(range(self.size))
        for a, b in self._fixed.items():
            mate[a] = b
        return mate

    def solve_part(
        self, vertices: Sequence[int], edges: Mapping[tuple[int, int], int]
    ) -> dict[int, int]:
        """A maximum-weight matching of ``vertices`` over ``edges`` alone (not the graph's):
        each vertex's partner, itself if unmatched."""
        matching = _max_weight_matching(vertices, ((a, b, w) for (a, b), w in edges.items()))
        mate = {v: v for v in vertices}
        for a, b in matching:
            mate[a] = b
            mate[b] = a
        return mate

    def fix(self, a: int, b: int) -> None:
        """Pair ``a`` with ``b`` for good."""
        self._fixed[a] = b
        self._fixed[b] = a

    def solve(self, bonus: Mapping[tuple[int, int], int] | None = None, bits: int = 0) -> list[int]:
        """The partner of each vertex in a maximum-weight matching (itself if unmatched).

        With ``bonus`` (keyed by ``(smaller, larger)`` vertex), every weight is first shifted
        left by ``bits`` and the bonus added: a tie-break below everything the weights say.
        """
        bonus = bonus or {}
        matching = _max_weight_matching(
            (v for v in range(self.size) if v not in self._fixed),
            (
                (a, b, (w << bits) + bonus.get((a, b), 0))
                for (a, b), w in self._weights.items()
                if a not in self._fixed and b not in self._fixed
            ),
        )
        mate = list(range(self.size))
        for a, b in matching:
            mate[a] = b
            mate[b] = a
        for a, b in self._fixed.items():
            mate[a] = b
        return mate
