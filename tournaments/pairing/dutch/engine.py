"""The bracket-by-bracket procedure of the Dutch system (C.04.3 article 2 and 3).

Brackets are paired from the top score down (2.1). For each bracket a maximum-weight matching
over every player still unpaired decides, in turn: which moved-down players are paired and
with whom (2.3.1, heterogeneous brackets), which residents swap between S1 and S2 (2.4.2,
exchanges, fewest and with the smallest BSN differences), and each S1 player's opponent in S2
order (2.4.1, transpositions). Each decision is fixed by nudging the low bits of the weights
and solving again, so the pairing never breaks a higher criterion to satisfy a lower one, and
the players below the bracket always stay pairable (C4, completion). Where it provably gives
the same matching, a solve covers only the bracket's members and shows that the players below
can be completed ("How the engine stays fast" in docs/TOURNAMENTS.md). A bracket of one score
group whose colour optimum is plain takes no matching at all: its first transposition is found
by a bipartite search (``transposition.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from tournaments.pairing.base import PairingError
from tournaments.pairing.dutch.completion import SITTER_TRIES, complete_pairing
from tournaments.pairing.dutch.matching import MatchingGraph
from tournaments.pairing.dutch.pooled import pooled_matching
from tournaments.pairing.dutch.state import Float, PlayerState
from tournaments.pairing.dutch.transposition import (
    ColourOptimum,
    Kinds,
    colour_optimal,
    transposition_with_exchanges,
)
from tournaments.pairing.dutch.weights import (
    ByeInfo,
    Floats,
    Layout,
    bye_barred,
    bye_candidate,
    edge_weight,
    top_shift,
)

Compatible = Callable[[PlayerState, PlayerState], bool]


class DutchPairer:
    """One round's pairing. ``players`` are sorted by pairing score, then rank (1.2)."""

    def __init__(
        self,
        players: Sequence[PlayerState],
        *,
        compatible: Compatible,
        floats: Floats,
        played_rounds: int,
        shortcut: bool = True,
    ) -> None:
        self.players = list(players)
        self.compatible = compatible
        self.floats = floats
        self.layout = _layout(self.players, played_rounds)
        self.graph = MatchingGraph(len(self.players))
        self.bye = ByeInfo()
        self.partner: dict[int, int] = {}  # finalised pairs by vertex
        # The shortcut ("How the engine stays fast" in docs/TOURNAMENTS.md): the players from
        # ``tail_start`` on are below every bracket in play, and their edges (weighted with
        # ``tail_bye``, the bye as settled) enter the graph only when a full solve needs them.
        self.shortcut = shortcut
        self.tail_start = len(self.players)
        self.group_start = len(self.players)  # the bracket's next score group
        self.tail_bye = ByeInfo()
        self.tail_loaded = not shortcut

    # --- weights -------------------------------------------------------------------------
    def weight(self, high: int, low: int, *, in_current: bool, in_next: bool) -> int:
        a, b = self.players[high], self.players[low]
        if not self.compatible(a, b):
            return 0
        return edge_weight(
            a,
            b,
            in_current=in_current,
            in_next=in_next,
            bye=self.bye,
            layout=self.layout,
            floats=self.floats,
        )

    def score(self, vertex: int) -> Fraction:
        return self.players[vertex].pairing_score()

    # --- the round -----------------------------------------------------------------------
    def pair(self) -> tuple[list[tuple[int, int]], int | None]:
        """Pairs of vertices and the vertex of the bye (if any)."""
        if not self.players:
            raise PairingError("There is no player to pair.")
        self._settle_bye()
        self._pair_brackets()
        pairs = sorted({(min(a, b), max(a, b)) for a, b in self.partner.items()})
        unpaired = [v for v in range(len(self.players)) if v not in self.partner]
        if len(unpaired) > 1:
            raise PairingError("The round could not be completed.")
        return pairs, (unpaired[0] if unpaired else None)

    def fits(self, a: int, b: int) -> bool:
        """Vertices ``a`` and ``b`` may meet (C1, C3)."""
        return self.compatible(self.players[a], self.players[b])

    def floated(self, vertex: int, kind: Float) -> bool:
        """The player got a float of ``kind`` in one of the last two rounds."""
        number = self.players[vertex].number
        return self.floats.last[number] is kind or self.floats.before_last[number] is kind

    def may_sit_out(self, vertex: int) -> bool:
        return bye_candidate(self.players[vertex], self.bye)

    def floats_into(self, floater: int, group: Sequence[int]) -> int | None:
        """A completion in which ``floater`` meets a player of the next score ``group``, the
        group pairs within itself but for one at most, and everyone below is paired, the
        bye (if any) to a player who may take it: C4 and C8 at their best. The floater's
        partner (itself for the bye), or None, which proves nothing."""
        tail = list(range(len(self.players) - 1, self.tail_start - 1, -1))
        if not group:
            return floater if not tail and self.may_sit_out(floater) else None
        upper = [floater, *reversed(group)]
        going_down = [None] if len(upper) % 2 == 0 else list(reversed(group))[:SITTER_TRIES]
        for down in going_down:
            sitters = [] if down is None else [down]
            above = complete_pairing(upper, self.fits, sitters=sitters)
            lower = tail if down is None else [*tail, down]
            sitters = [v for v in lower if self.may_sit_out(v)]
            if (
                above is not None
                and complete_pairing(lower, self.fits, sitters=sitters) is not None
            ):
                return above[floater]
        return None

    def completes_without(self, excluded: set[int]) -> bool:
        """The unpaired players but ``excluded`` can all be paired (C4), the bye (if any) to
        a player who may take it; False proves nothing (``completion.py``)."""
        order = [
            v
            for v in range(len(self.players) - 1, -1, -1)
            if v not in excluded and not self.graph.is_fixed(v)
        ]
        sitters = [v for v in order if self.may_sit_out(v)]
        return complete_pairing(order, self.fits, sitters=sitters) is not None

    def _settle_bye(self) -> None:
        """Is any legal pairing possible, and what score takes the bye? A quick witness
        answers the usual case; otherwise a first matching over every pair decides."""
        if not (self.shortcut and self._settle_quickly()):
            self._settle_fully()
            self.tail_loaded = True
        self.tail_bye = self.bye

    def _settle_quickly(self) -> bool:
        """With an even field, any complete pairing proves C4. With an odd one, a complete
        pairing that leaves out a bye-eligible player of the lowest score among them proves
        the bye's score (C5), when that score is below the top (else a first matching must
        tell whether the bye's assignee is the single downfloater, see C9)."""
        n = len(self.players)
        order = range(n - 1, -1, -1)  # the lowest first: they have the fewest choices left
        if n % 2 == 0:
            return complete_pairing(order, self.fits) is not None
        eligible = [v for v in range(n) if self.players[v].bye_eligible]
        if not eligible:
            return False
        lowest = self.score(eligible[-1])
        if lowest >= self.score(0):
            return False
        sitters = [v for v in reversed(eligible) if self.score(v) == lowest]
        if complete_pairing(order, self.fits, sitters=sitters) is None:
            return False
        self.bye = _bye_info(self.players, None, lowest)
        return True

    def _settle_fully(self) -> None:
        """A first matching: is any legal pairing possible, and what score takes the bye?"""
        n = len(self.players)
        odd = n % 2 == 1
        for low in range(n):
            for high in range(low):
                if odd:
                    self.graph.set(high, low, self._bye_weight(high, low))
                else:
                    self.graph.set(
                        high, low, self.weight(high, low, in_current=False, in_next=False)
                    )
        mate = self.graph.solve()
        unmatched = [v for v in range(n) if mate[v] == v]
        if len(unmatched) > 1 or (unmatched and not self.players[unmatched[0]].bye_eligible):
            raise PairingError(
                "No pairing satisfies the absolute criteria: players would meet twice, "
                "break an absolute colour preference, or the bye would go to a player "
                "who may not receive it."
            )
        if not odd:
            return
        self.bye = _bye_info(self.players, mate, self.score(unmatched[0]))
        for low in range(n):
            for high in range(low):
                self.graph.set(high, low, self.weight(high, low, in_current=False, in_next=False))

    # --- solving ---------------------------------------------------------------------------
    def solve(self, bonus: Mapping[tuple[int, int], int] | None = None, bits: int = 0) -> list[int]:
        """The partner of each vertex in a maximum-weight matching of every unpaired player
        (see :meth:`MatchingGraph.solve`), by the shortcut when it is sure to give the same."""
        if self.shortcut and self._tail_apart():
            mate = self._solve_groups(bonus or {}, bits)
            if mate is not None:
                return mate
        self._load_tail()
        return self.graph.solve(bonus, bits)

    def _tail_apart(self) -> bool:
        """Every pair with a player of the tail weighs only its top field, and the tail may
        take the bye: then the matching splits into the members' part and a completion."""
        n = len(self.players)
        if self.tail_start >= n or self.tail_bye.single_downfloater_is_assignee:
            return False
        if n % 2 == 0:
            return True
        return not any(
            bye_candidate(self.players[v], self.tail_bye)
            for v in range(self.tail_start)
            if not self.graph.is_fixed(v)
        )

    def _solve_groups(self, bonus: Mapping[tuple[int, int], int], bits: int) -> list[int] | None:
        """The members' matching alone, then any completion of the rest; None when that
        cannot be shown to equal the full matching.

        Every complete pairing weighs the same in the top field, and pairs with a tail player
        weigh nothing below it, so the optimum is the members' matching that gains most below
        the top field, provided the members it leaves out (the floaters) and the tail can be
        paired with no two floaters together."""
        members = [v for v in range(self.tail_start) if not self.graph.is_fixed(v)]
        tail = list(range(self.tail_start, len(self.players)))
        shift = top_shift(self.layout) + bits
        barred = {v: bye_barred(self.players[v], self.bye) for v in members}  # top_value
        edges = {}
        for (a, b), weight in self.graph.edges_among(members):
            top = (1 + barred[a] + barred[b]) << shift
            gain = (weight << bits) + bonus.get((a, b), 0) - top
            if gain > 0:
                edges[a, b] = gain
        mate = self.graph.partners()
        for v, member_mate in self._solve_members(members, edges, shift).items():
            mate[v] = member_mate
        floaters = [v for v in members if mate[v] == v]
        sitters = [v for v in reversed(tail) if bye_candidate(self.players[v], self.tail_bye)]
        completion = complete_pairing(floaters + tail, self.fits, sitters=sitters, apart=floaters)
        if completion is None:
            return None
        for v, partner in completion.items():
            mate[v] = v if partner is None else partner
        return mate

    def _solve_members(
        self, members: list[int], edges: dict[tuple[int, int], int], shift: int
    ) -> dict[int, int]:
        """The members' matching, with the next score group pooled when that is exact
        (``pooled.py``)."""
        core = [v for v in members if v < self.group_start]
        group = [v for v in members if v >= self.group_start]
        pair_floor = 1 << (shift - self.layout.size_bits)  # C6, right below the top field
        mate = pooled_matching(core, group, edges, self.graph.solve_part, pair_floor=pair_floor)
        return self.graph.solve_part(members, edges) if mate is None else mate

    def _load_tail(self) -> None:
        """Put the tail's edges into the graph, as the first matching would have left them."""
        if self.tail_loaded:
            return
        self.tail_loaded = True
        bracket_bye, self.bye = self.bye, self.tail_bye
        try:
            for low in range(self.tail_start, len(self.players)):
                for high in range(low):
                    if not self.graph.is_fixed(high):
                        self.graph.set(
                            high, low, self.weight(high, low, in_current=False, in_next=False)
                        )
        finally:
            self.bye = bracket_bye

    def _bye_weight(self, high: int, low: int) -> int:
        a, b = self.players[high], self.players[low]
        if not self.compatible(a, b):
            return 0
        layout = self.layout
        weight = 1 + (not a.bye_eligible) + (not b.bye_eligible)
        weight = (weight << layout.score_bits) + (
            layout.shifts[self.score(low)] + layout.shifts[self.score(high)]
        )
        top = self.score(0)
        return (weight << layout.size_bits) + int(self.score(low) >= top)

    def _pair_brackets(self) -> None:
        n = len(self.players)
        top = self.score(0)
        members = [v for v in range(n) if self.score(v) >= top]  # MDPs, residents, next group
        next_start = len(members)
        moved_down = 0  # MDPs at the front of members
        group_start_vertex = 0
        while len(members) > 1 or next_start < n:
            bracket_end = len(members)
            next_group_vertex = group_start_vertex + (bracket_end - moved_down)
            if next_start < n:
                group_score = self.score(next_start)
                while next_start < n and self.score(next_start) >= group_score:
                    members.append(next_start)
                    next_start += 1
            self.tail_start = next_start
            self.group_start = next_group_vertex
            bracket = _Bracket(
                self, members, moved_down, bracket_end, group_start_vertex, next_group_vertex
            )
            bracket.pair()
            self._next_bye_flag(members, bracket)
            leftover = [v for v in members if v not in self.partner]
            moved_down = sum(
                1 for i, v in enumerate(members) if i < bracket_end and v not in self.partner
            )
            if leftover == members and bracket_end == len(members):
                raise PairingError("The last bracket could not be paired.")
            members = leftover
            group_start_vertex = next_group_vertex

    def _next_bye_flag(self, members: list[int], bracket: _Bracket) -> None:
        """Whether C9 (fewest unplayed games for the PAB assignee) applies to the next
        bracket: the bye's score reaches it and nobody from it floats further down."""
        n = len(self.players)
        if n % 2 == 0 or bracket.end == len(members):
            flag = False
        else:
            next_score = self.score(members[bracket.end])
            flag = self.bye.score >= next_score
            for i, v in enumerate(members):
                if i < bracket.end and v in self.partner:
                    continue
                if flag and self.score(bracket.mate[v]) < next_score:
                    flag = False
        self.bye = ByeInfo(self.bye.score, flag, self.bye.unplayed_ranks)


class _Bracket:
    """One pairing bracket: ``members[:moved_down]`` are MDPs, ``members[moved_down:end]``
    the residents (vertices ``first_vertex`` to ``next_vertex - 1``), the rest the next
    score group, there only to keep the round completable."""

    def __init__(
        self,
        pairer: DutchPairer,
        members: list[int],
        moved_down: int,
        end: int,
        first_vertex: int,
        next_vertex: int,
    ) -> None:
        self.p = pairer
        self.graph = pairer.graph
        self.members = members
        self.moved_down = moved_down
        self.end = end
        self.first_vertex = first_vertex
        self.next_vertex = next_vertex
        self.base: dict[tuple[int, int], int] = {}  # (low index, high index) -> weight
        self.mate: list[int] = []
        self.done: set[int] = set(pairer.partner)

    def pair(self) -> None:
        if self._pair_by_transposition():
            return
        self._set_base_weights()
        if self.moved_down == 0:
            if self._pair_in_one_solve():
                return
            self.solve()
        elif not self._pair_every_moved_down():
            self._choose_moved_down()
            self._pair_moved_down()
        self._pair_remainder()

    def solve(self) -> None:
        self.mate = self.p.solve()

    def _pair_by_transposition(self) -> bool:
        """A bracket of one score group and at most one MDP, paired by its first
        transposition among the pairs with the fewest colour conflicts when that is plain
        and the players below can be completed as well as they can be: what the matching
        would give (``transposition.py``), without it."""
        p = self.p
        bracket = self.members[: self.end]
        odd = len(bracket) % 2 == 1
        if not p.shortcut or self.moved_down > 1 or (odd and not self._bye_alike()):
            return False
        optimum = colour_optimal([p.players[v] for v in bracket])
        if optimum is None:
            return False
        rest = bracket[self.moved_down :]
        pairs = []
        if self.moved_down:
            resident = self._moved_down_partner(optimum)
            if resident is None:
                return False
            pairs.append((bracket[0], resident))
            rest = [v for v in rest if v != resident]
        found = self._first_transposition(rest, optimum, odd)
        if found is None:
            return False
        pairs += found[0]
        below = self._floater_below(bracket, found[1])
        if below is None:
            return False
        for a, b in pairs:
            self.finalise(a, b)
        self.mate = self.graph.partners()
        for floater, partner in below.items():
            self.mate[floater] = partner
        return True

    def _bye_alike(self) -> bool:
        """C9 (fewest unplayed games for the PAB assignee) does not tell the residents apart:
        it does not apply, or they have all played as many games."""
        if not self.p.bye.single_downfloater_is_assignee:
            return True
        residents = self.members[self.moved_down : self.end]
        return len({self.p.players[v].played_games for v in residents}) == 1

    def _floater_below(self, bracket: list[int], floater: int | None) -> dict[int, int] | None:
        """Whether the players below can be paired as well as they can be once the bracket
        is: the floater's partner (itself for the bye) if there is one, else nothing;
        None when that is not shown."""
        if floater is None:
            return {} if self.p.completes_without(set(bracket)) else None
        partner = self.p.floats_into(floater, self.members[self.end :])
        return None if partner is None else {floater: partner}

    def _moved_down_partner(self, optimum: ColourOptimum) -> int | None:
        """The highest resident the one MDP may meet in a pairing best by C10-C13 with no
        resident floating up twice (C15, C17), as far as the counts of preferences tell;
        whether the rest follows is shown after."""
        mdp, residents = self.members[0], self.members[1 : self.end]
        players = self.p.players
        for v in residents:
            if (
                self.p.fits(mdp, v)
                and optimum.allowed(players[mdp], players[v])
                and not self.p.floated(v, Float.UP)
                and optimum.leaves_room([players[u] for u in residents if u != v])
            ):
                return v
        return None

    def _first_transposition(
        self, rest: list[int], optimum: ColourOptimum, odd: bool
    ) -> tuple[list[tuple[int, int]], int | None] | None:
        """The residents ``rest`` paired by their first transposition over the pairs
        ``optimum`` allows, after the fewest exchanges (``transposition.py``), and the one left
        out when ``odd``: one the colours allow to float, who did not float down in the
        last two rounds (C14, C16) and may meet someone below."""
        p = self.p

        def may_meet(v: int, u: int) -> bool:
            return p.fits(v, u) and optimum.allowed(p.players[v], p.players[u])

        floaters = None
        if odd:
            group = self.members[self.end :]
            floaters = {
                u
                for u in rest
                if optimum.may_float(p.players[u])
                and not p.floated(u, Float.DOWN)
                and (any(p.fits(u, g) for g in group) if group else p.may_sit_out(u))
            }
        kinds = Kinds(
            lambda v: (
                p.players[v].preference,
                p.players[v].colour_difference,
                p.players[v].repeated_colour,
            ),
            lambda v, u: optimum.allowed(p.players[v], p.players[u]),
        )
        return transposition_with_exchanges(rest, may_meet, floaters, kinds)

    def set(self, i: int, j: int, weight: int) -> None:
        self.graph.set(self.members[i], self.members[j], weight)

    def _set_base_weights(self) -> None:
        for low in range(self.moved_down, len(self.members)):
            for high in range(low):
                weight = self.p.weight(
                    self.members[high],
                    self.members[low],
                    in_current=low < self.end,
                    in_next=low >= self.end,
                )
                self.base[low, high] = weight
                self.set(low, high, weight)

    def in_bracket(self, vertex: int) -> bool:
        return self.first_vertex <= vertex < self.next_vertex

    def finalise(self, a: int, b: int) -> None:
        self.graph.fix(a, b)
        self.p.partner[a] = b
        self.p.partner[b] = a
        self.done.update((a, b))

    # --- heterogeneous part: 2.3.1 --------------------------------------------------------
    def _choose_moved_down(self) -> None:
        """Which MDPs are paired in this bracket: highest scores first, then by rank."""
        score = self.p.score
        left = matched_left = 0
        group_score = Fraction(-1)
        self.chosen: set[int] = set()
        for i in range(self.moved_down):
            v = self.members[i]
            if i == 0 or score(v) < group_score:
                group_score = score(v)
                same = [u for u in self.members[i : self.moved_down] if score(u) >= group_score]
                left = len(same)
                matched_left = sum(1 for u in same if self.in_bracket(self.mate[u]))
            if not matched_left:
                continue
            if left <= matched_left:
                self.chosen.add(v)
                continue
            left -= 1
            if not self.in_bracket(self.mate[v]):
                for j in range(self.moved_down, self.end):
                    weight = self.base[j, i]
                    if weight:
                        self.set(i, j, weight | 1)
                self.solve()
            if self.in_bracket(self.mate[v]):
                self.chosen.add(v)
                matched_left -= 1
                for j in range(self.moved_down, self.end):
                    weight = self.base[j, i]
                    if weight:
                        self.set(i, j, (weight | (self.end - self.moved_down)) + 1)

    def _pair_every_moved_down(self) -> bool:
        """The common case: every MDP is paired in the bracket. The solve that pairs them
        (:meth:`_pair_moved_down` with all of them chosen) shows it, and then stands; when it
        does not, its matching is an optimum all the same (the choices are a tie-break below
        every criterion) and :meth:`_choose_moved_down` starts from it."""
        self.chosen = set(self.members[: self.moved_down])
        choices = self._moved_down_choices()
        self.mate = self.p.solve(*self._bonus(choices))
        if not all(self.in_bracket(self.mate[v]) for v in self.chosen):
            return False
        self._finalise_choices(choices)
        return True

    def _pair_moved_down(self) -> None:
        """Each chosen MDP, in order, meets the highest resident the criteria allow: one
        solve whose tie-break ranks the first MDP's choice above the second's, and so on."""
        self._choose_in_order(self._moved_down_choices())

    def _moved_down_choices(self) -> list[tuple[int, dict[int, int]]]:
        """Each chosen MDP's residents, the higher preferred."""
        choices = []
        for i in range(self.moved_down):
            if self.members[i] not in self.chosen:
                continue
            options = {}
            bonus = len(self.members)
            for j in range(self.end - 1, self.moved_down - 1, -1):
                if self.members[j] not in self.done and self.base[j, i]:
                    options[j] = bonus
                    bonus += 1
            choices.append((i, options))
        return choices

    def _choose_in_order(self, choices: list[tuple[int, dict[int, int]]]) -> None:
        """Pair each member ``i`` with one of its ``options`` (member -> preference), the
        earlier members' preferences outranking the later ones'; then fix those pairs."""
        if not choices:
            return
        self.mate = self.p.solve(*self._bonus(choices))
        self._finalise_choices(choices)

    def _finalise_choices(self, choices: list[tuple[int, dict[int, int]]]) -> None:
        for i, _ in choices:
            v = self.members[i]
            self.finalise(v, self.mate[v])

    def _bonus(
        self, choices: list[tuple[int, dict[int, int]]]
    ) -> tuple[dict[tuple[int, int], int], int]:
        """Tie-break fields, the first member's the most significant, and their total width."""
        width = max((max(o.values(), default=0) for _, o in choices), default=0).bit_length()
        bonus: dict[tuple[int, int], int] = {}
        for rank, (i, options) in enumerate(choices):
            shift = width * (len(choices) - 1 - rank)
            for j, preference in options.items():
                a, b = sorted((self.members[i], self.members[j]))
                bonus[a, b] = preference << shift
        return bonus, width * len(choices)

    # --- homogeneous part / remainder: 2.4 ------------------------------------------------
    def _pair_remainder(self) -> None:
        mate = self.mate
        self.rest = [
            j
            for j in range(self.moved_down, self.end)
            if mate[self.members[j]] >= self.first_vertex
        ]
        self.pairs = sum(1 for j in self.rest if mate[self.members[j]] < self.members[j])
        self._set_order_weights()
        if self._pair_s1_without_exchange():
            return
        s1 = self.rest[: self.pairs]
        exchanges = sum(1 for j in s1 if not self._leads(j))
        self._exchange_from_s1(exchanges)
        self._exchange_from_s2(exchanges)
        self._fix_exchanges()
        self._pair_s1()

    def _pair_s1_without_exchange(self) -> bool:
        """The usual remainder needs no exchange: one solve with the order of the remainder
        and the S1 choices together shows it and pairs S1 (as :meth:`_fix_exchanges` and
        :meth:`_pair_s1` would). Otherwise its matching is the remainder's optimum all the
        same (the choices are a tie-break below the order), and the exchanges start from it."""
        choices = [(j, self._s2_options(j)) for j in self.rest[: self.pairs]]
        self.mate = self.p.solve(*self._bonus(choices))
        if not all(self._leads(j) for j in self.rest[: self.pairs]):
            return False
        self._fix_exchanges()
        self._finalise_choices(choices)
        return True

    def _pair_in_one_solve(self) -> bool:
        """The common case, no MDPs and no exchange: one solve with the remainder's order
        and the S1 choices together. It stands only if the bracket indeed pairs half its
        players with no exchange; otherwise the weights are put back and the full procedure
        runs (the result is the same either way)."""
        self.rest = list(range(self.moved_down, self.end))
        self.pairs = len(self.rest) // 2
        self._set_order_weights()
        choices = [(j, self._s2_options(j)) for j in self.rest[: self.pairs]]
        self.mate = self.p.solve(*self._bonus(choices))
        paired = sum(
            1
            for j in self.rest
            if self.in_bracket(self.mate[self.members[j]])
            and self.mate[self.members[j]] < self.members[j]
        )
        if paired == self.pairs and all(self._leads(j) for j in self.rest[: self.pairs]):
            self._finalise_choices(choices)
            return True
        for pos_o, o in enumerate(self.rest):
            for p in self.rest[:pos_o]:
                self.set(p, o, self.base[o, p])
        return False

    def _set_order_weights(self) -> None:
        """Every remainder pair weighs its base weight plus the order's preference."""
        for pos_o, o in enumerate(self.rest):
            for pos_p, p in enumerate(self.rest[:pos_o]):
                self.set(p, o, self._ordered(p, o, pos_p))

    def _ordered(self, p: int, o: int, pos_p: int) -> int:
        """The base weight plus the preference for few exchanges, small BSN differences."""
        weight = self.base[o, p]
        if not weight:
            return 0
        s_bits = self.p.layout.size_bits
        return weight + ((int(pos_p < self.pairs) << (2 * s_bits)) - pos_p) * 2

    def _leads(self, j: int) -> bool:
        """Member ``j`` is paired with a lower member of this bracket (acts as S1)."""
        v = self.members[j]
        return self.mate[v] > v and self.mate[v] < self.next_vertex

    def _exchange_from_s1(self, exchanges: int) -> None:
        """Move the lowest possible S1 players to S2 (2.4.2, exchange order)."""
        remaining = exchanges
        pos = self.pairs
        while pos > 0 and remaining:
            pos -= 1
            j = self.rest[pos]
            later = self.rest[pos + 1 :]
            if self._leads(j):
                for o in later:
                    weight = self._ordered(j, o, pos)
                    if weight:
                        self.set(j, o, weight - 1)
                self.solve()
            exchange = not self._leads(j)
            remaining -= exchange
            for o in later:
                if exchange:
                    self.base[o, j] = 0
                self.set(j, o, self._ordered(j, o, pos))

    def _exchange_from_s2(self, exchanges: int) -> None:
        """Move the highest possible S2 players to S1 (2.4.2, exchange order)."""
        remaining = exchanges
        for pos in range(self.pairs, len(self.rest)):
            if remaining <= 1:
                break
            j = self.rest[pos]
            later = self.rest[pos + 1 :]
            already = self._leads(j)
            if not already:
                for o in later:
                    weight = self._ordered(j, o, pos)
                    if weight:
                        self.set(j, o, weight + 1)
                self.solve()
            if self._leads(j):
                remaining -= 1
                for o in self.rest[:pos]:
                    self.base[j, o] = 0
                    self.set(j, o, 0)
                for o in range(self.end, len(self.members)):
                    self.base[o, j] = 0
                    self.set(j, o, 0)
            if not already:
                for o in later:
                    self.set(j, o, self._ordered(j, o, pos))

    def _fix_exchanges(self) -> None:
        """From now on an S1 player may only meet a later S2 player."""
        for pos, j in enumerate(self.rest):
            for o in self.rest[pos + 1 :]:
                if not self._leads(j) or self._leads(o):
                    self.base[o, j] = 0
                self.set(j, o, self.base[o, j])

    def _pair_s1(self) -> None:
        """Each S1 player in order meets the first S2 player the criteria allow (2.4.1)."""
        choices = [(j, self._s2_options(j)) for j in self.rest if self._leads(j)]
        self._choose_in_order(choices)

    def _s2_options(self, j: int) -> dict[int, int]:
        """The later remainder players ``j`` may meet, the higher ranked preferred."""
        options = {}
        bonus = 0
        for o in reversed(self.rest):
            if o <= j or self.members[o] in self.done:
                continue
            if self.base[o, j]:
                options[o] = bonus
            bonus += 1
        return options


def _layout(players: Sequence[PlayerState], played_rounds: int) -> Layout:
    shifts: dict[Fraction, int] = {}
    sizes: dict[Fraction, int] = {}
    for player in players:
        score = player.pairing_score()
        sizes[score] = sizes.get(score, 0) + 1
    total = 0
    for score in sorted(sizes):
        shifts[score] = total
        total += sizes[score].bit_length()
    biggest = max(sizes.values(), default=0)
    return Layout(
        size_bits=biggest.bit_length(), score_bits=total, shifts=shifts, played_rounds=played_rounds
    )


def _bye_info(
    players: Sequence[PlayerState], mate: Sequence[int] | None, score: Fraction
) -> ByeInfo:
    """The bye goes to a player of ``score``; ``mate`` is the first matching, which tells
    whether the top score group floats nobody down (needed only when ``score`` is the top)."""
    top = players[0].pairing_score()
    single = score >= top
    if single:
        assert mate is not None, "a bye at the top score needs the first matching"
        for v, player in enumerate(players):
            if player.pairing_score() < top:
                break
            if players[mate[v]].pairing_score() < top:
                single = False
                break
    counts = sorted((p.played_games for p in players if p.pairing_score() == score), reverse=True)
    ranks: dict[int, int] = {}
    for rank, count in enumerate(counts):
        ranks[count] = rank
    return ByeInfo(score=score, single_downfloater_is_assignee=single, unplayed_ranks=ranks)


__all__ = ["Compatible", "DutchPairer"]
