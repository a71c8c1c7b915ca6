"""The members' matching with the next score group pooled (``pooled.py``): the same
optimum as the full matching whenever it answers, and no answer where it cannot show one."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.management.commands.tournament_pair import pair_file
from tournaments.pairing.dutch import engine, pair_dutch, pooled
from tournaments.pairing.dutch.matching import MatchingGraph
from tournaments.pairing.dutch.pooled import pooled_matching
from tournaments.pairing.dutch.simulation import quick_history

FLOOR = 1 << 16  # one C6 unit; every gain below it stays under FLOOR / 16 per pair


def solve_part(vertices, edges):
    return MatchingGraph(0).solve_part(vertices, edges)


def best_weight(vertices, edges):
    graph = nx.Graph()
    graph.add_nodes_from(vertices)
    graph.add_weighted_edges_from((a, b, w) for (a, b), w in edges.items())
    return sum(edges[min(a, b), max(a, b)] for a, b in nx.max_weight_matching(graph))


def weight_of(mate, edges):
    total = 0
    for v, partner in mate.items():
        if partner != v:
            assert mate[partner] == v
            if v < partner:
                total += edges[v, partner]
    return total


def build(core, group, missing, *, bracket=None, to_group=None, within_group=7):
    """Edges of a bracket (``core``) and its next group: ``missing`` pairs may not meet."""
    bracket = bracket or {}
    to_group = to_group or {}
    edges = {}
    players = [*core, *group]
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if (a, b) in missing:
                continue
            if b in core:
                edges[a, b] = FLOOR + bracket.get((a, b), 1)
            elif a in core:
                edges[a, b] = to_group.get(a, 3)
            else:
                edges[a, b] = within_group
    return edges


class TestPooledMatching:
    def test_pairs_the_floater_into_the_group_and_the_group_among_itself(self):
        core, group = [0, 1, 2], list(range(3, 11))
        edges = build(core, group, set(), bracket={(0, 1): 5, (1, 2): 9}, within_group=2)
        sizes = []

        def spy(vertices, edges):
            sizes.append(len(vertices))
            return solve_part(vertices, edges)

        mate = pooled_matching(core, group, edges, spy, pair_floor=FLOOR)
        assert mate is not None
        assert mate[1] == 2 and mate[0] in group  # the best bracket pair, 0 floats
        assert weight_of(mate, edges) == best_weight(core + group, edges)
        assert sum(1 for v in group if mate[v] == v) == 1  # 7 left in the group: one sits out
        assert sizes == [5]  # three bracket players and two stand-ins, not eleven players

    def test_gives_no_answer_when_the_group_is_not_uniform(self):
        core, group = [0, 1, 2], list(range(3, 9))
        edges = build(core, group, set())
        edges[5, 6] = 8  # one pair within the group gains more than the others
        assert pooled_matching(core, group, edges, solve_part, pair_floor=FLOOR) is None

    def test_gives_no_answer_when_a_bracket_player_gains_unevenly_with_the_group(self):
        core, group = [0, 1, 2], list(range(3, 9))
        edges = build(core, group, set())
        edges[0, 4] = 4
        assert pooled_matching(core, group, edges, solve_part, pair_floor=FLOOR) is None

    def test_gives_no_answer_when_the_group_cannot_pair_among_itself(self):
        # Player 3 of the group may meet nobody: the stand-ins promise a pairing the real
        # group does not have, so the pooled solve must fall back to the full one.
        core, group = [0, 1, 2], list(range(3, 11))
        missing = {(a, 3) for a in range(3)} | {(3, b) for b in range(4, 11)}
        edges = build(core, group, missing)
        assert pooled_matching(core, group, edges, solve_part, pair_floor=FLOOR) is None

    def test_gives_no_answer_when_bracket_pairs_do_not_outrank_the_group(self):
        core, group = [0, 1, 2], list(range(3, 11))
        edges = build(core, group, set())
        assert pooled_matching(core, group, edges, solve_part, pair_floor=FLOOR * 2) is None

    def test_gives_no_answer_when_the_group_is_no_bigger_than_its_stand_ins(self):
        core, group = [0, 1, 2, 3, 4], [5, 6]
        edges = build(core, group, {(a, b) for a in range(5) for b in range(5)})
        assert pooled_matching(core, group, edges, solve_part, pair_floor=FLOOR) is None

    @settings(max_examples=300, deadline=None)
    @given(
        core_size=st.integers(1, 9),
        group_size=st.integers(2, 12),
        seed=st.integers(0, 2**32),
        density=st.sampled_from([0.0, 0.1, 0.3, 0.6]),
    )
    def test_any_answer_is_a_maximum_weight_matching(self, core_size, group_size, seed, density):
        rng = random.Random(seed)
        core = list(range(core_size))
        group = list(range(core_size, core_size + group_size))
        players = core + group
        missing = {
            (a, b)
            for i, a in enumerate(players)
            for b in players[i + 1 :]
            if rng.random() < density
        }
        bracket = {(a, b): rng.randint(1, 255) for a in core for b in core if a < b}
        to_group = {a: rng.randint(1, 255) for a in core}
        edges = build(
            core,
            group,
            missing,
            bracket=bracket,
            to_group=to_group,
            within_group=rng.randint(1, 255),
        )
        mate = pooled_matching(core, group, edges, solve_part, pair_floor=FLOOR)
        if mate is not None:
            assert set(mate) == set(players)
            assert weight_of(mate, edges) == best_weight(players, edges)


def test_the_engine_pools_the_next_group_and_pairs_alike_without_it(monkeypatch):
    records = quick_history(random.Random(8), 120, 6)
    answers = []

    def counted(*args, **kwargs):
        mate = pooled.pooled_matching(*args, **kwargs)
        answers.append(mate is not None)
        return mate

    monkeypatch.setattr(engine, "pooled_matching", counted)
    pooled_pairing = pair_dutch(records, round_number=7, total_rounds=9)
    assert any(answers)
    monkeypatch.setattr(engine, "pooled_matching", lambda *args, **kwargs: None)
    assert pair_dutch(records, round_number=7, total_rounds=9) == pooled_pairing


@pytest.mark.parametrize("seed", [2, 3])
def test_the_engine_pairs_a_large_late_round_as_the_full_matching_does(seed):
    records = quick_history(random.Random(seed), 150, 7)
    fast = pair_dutch(records, round_number=8, total_rounds=9)
    assert fast == pair_dutch(records, round_number=8, total_rounds=9, exhaustive=True)


def test_the_bbppairings_cases_take_every_fast_path_and_its_fallback(monkeypatch):
    """The rounds checked against bbpPairings (``test_bbp_agreement.py``) go both ways
    through each shortcut of a bracket: they pin the fast paths and the fallbacks alike."""
    taken: Counter[tuple[str, bool]] = Counter()

    def counting(name, function):
        def counted(*args, **kwargs):
            answer = function(*args, **kwargs)
            taken[name, answer is not None and answer is not False] += 1
            return answer

        return counted

    brackets = (
        "_pair_by_transposition",
        "_pair_every_moved_down",
        "_pair_s1_without_exchange",
        "_pair_in_one_solve",
    )
    for name in brackets:
        monkeypatch.setattr(engine._Bracket, name, counting(name, getattr(engine._Bracket, name)))
    monkeypatch.setattr(engine, "pooled_matching", counting("pooled", pooled.pooled_matching))
    for case in sorted((Path(__file__).parent / "bbp_cases").glob("*.trf")):
        pair_file(case)
    names = (*brackets, "pooled")
    assert all(taken[name, True] and taken[name, False] for name in names), taken
