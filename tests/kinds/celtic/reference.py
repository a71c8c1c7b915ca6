"""A slow, obviously-correct reading of RULES.md, written without the engine's tables.

Positions are plain dicts, moves are notation strings, shapes come from counting open sides.
Tests compare the engine's legal moves and scores with these.
"""

from __future__ import annotations

from dataclasses import dataclass, field

STEPS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
FILES = "abcdefghi"
SIDE_SETS = [
    "".join(side for i, side in enumerate("NESW") if mask >> i & 1) for mask in range(1, 16)
]


def shape_letter(sides: str) -> str:
    """The shape with these open sides: four X, three T, one U, two opposite I, two adjacent L."""
    if len(sides) == 2:
        return "I" if sides in ("NS", "EW") else "L"
    return {4: "X", 3: "T", 1: "U"}[len(sides)]


@dataclass
class Position:
    tiles: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)
    supply: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def start(cls) -> Position:
        return cls(
            {(4, 4): ("NESW", "neutral")},
            {
                "orange": dict.fromkeys("XTILU", 2),
                "blue": dict.fromkeys("XTILU", 2),
                "neutral": {"X": 0, "T": 1, "I": 1, "L": 1, "U": 1},
            },
        )


def neighbour(cell: tuple[int, int], side: str) -> tuple[int, int]:
    return cell[0] + STEPS[side][0], cell[1] + STEPS[side][1]


def demand_cells(tiles: dict[tuple[int, int], tuple[str, str]]) -> set[tuple[int, int]]:
    return {
        neighbour(cell, side)
        for cell, (sides, _) in tiles.items()
        for side in sides
        if neighbour(cell, side) not in tiles
    }


def fits_window(tiles: dict[tuple[int, int], tuple[str, str]]) -> bool:
    cells = set(tiles) | demand_cells(tiles)
    files = {f for f, _ in cells}
    ranks = {r for _, r in cells}
    return max(files) - min(files) < 5 and max(ranks) - min(ranks) < 5


def name(cell: tuple[int, int]) -> str:
    return f"{FILES[cell[0]]}{cell[1] + 1}"


def check(position: Position, player: str, cell: tuple[int, int], sides: str, colour: str) -> str:
    """The first of rules 1-4 this move breaks ("" if legal)."""
    if position.supply[colour][shape_letter(sides)] == 0:
        return "supply"
    if cell in position.tiles:
        return "occupied"
    touching = {
        side: position.tiles[neighbour(cell, side)][0]
        for side in "NESW"
        if neighbour(cell, side) in position.tiles
    }
    if not any(OPPOSITE[side] in theirs for side, theirs in touching.items()):
        return "demand"
    for side, theirs in touching.items():
        if (side in sides) != (OPPOSITE[side] in theirs):
            return "mismatch"
    if not fits_window({**position.tiles, cell: (sides, colour)}):
        return "window"
    return ""


def legal_moves(position: Position, player: str) -> set[str]:
    """Every move that breaks none of the rules (cells no open side points at are skipped
    before trying all tiles on them: rule 2 rejects every tile there anyway)."""
    moves = set()
    demand = demand_cells(position.tiles)
    for f in range(9):
        for r in range(9):
            if (f, r) not in demand:
                continue
            for sides in SIDE_SETS:
                for colour, suffix in ((player, ""), ("neutral", " n")):
                    if not check(position, player, (f, r), sides, colour):
                        moves.add(f"{name((f, r))} {sides}{suffix}")
    return moves


def play(position: Position, player: str, move: str) -> Position:
    words = move.split()
    cell = (FILES.index(words[0][0]), int(words[0][1]) - 1)
    colour = "neutral" if len(words) == 3 else player
    supply = {c: dict(counts) for c, counts in position.supply.items()}
    supply[colour][shape_letter(words[1])] -= 1
    return Position({**position.tiles, cell: (words[1], colour)}, supply)


CANONICAL = {
    # shape: (open sides, strands), copied from the table in RULES.md
    "X": ("NESW", "N0-E1 E0-S1 S0-W1 W0-N1"),
    "T": ("ESW", "E0-S1 S0-W1 W0-E1"),
    "I": ("EW", "E0-W0 E1-W1"),
    "L": ("NE", "N0-E0 N1-E1"),
    "U": ("N", "N0-N1"),
}


def turn(side: str, quarter_turns: int) -> str:
    return "NESW"["NESW".index(side) + quarter_turns & 3]


def strands(sides: str) -> list[tuple[str, str]]:
    """The strands of the tile opening ``sides``: the canonical ones, turned to fit."""
    canonical_sides, canonical_strands = CANONICAL[shape_letter(sides)]
    for quarter_turns in range(4):
        if {turn(s, quarter_turns) for s in canonical_sides} == set(sides):
            return [
                (turn(a[0], quarter_turns) + a[1], turn(b[0], quarter_turns) + b[1])
                for a, b in (pair.split("-") for pair in canonical_strands.split())
            ]
    raise AssertionError(sides)


def knot_scores(tiles: dict[tuple[int, int], tuple[str, str]]) -> list[tuple[int, int]]:
    """(orange, blue) distinct-tile counts of every closed path, by union-find over ends."""
    parent: dict[tuple[tuple[int, int], str], tuple[tuple[int, int], str]] = {}

    def find(node: tuple[tuple[int, int], str]) -> tuple[tuple[int, int], str]:
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    degree: dict[tuple[tuple[int, int], str], int] = {}
    for cell, (sides, _) in tiles.items():
        for a, b in strands(sides):
            parent[find((cell, a))] = find((cell, b))
            for end in (a, b):
                degree[cell, end] = degree.get((cell, end), 0) + 1
                other = neighbour(cell, end[0])
                partner = OPPOSITE[end[0]] + ("1" if end[1] == "0" else "0")
                if other in tiles and OPPOSITE[end[0]] in tiles[other][0]:
                    parent[find((cell, end))] = find((other, partner))
                    degree[cell, end] += 1
    groups: dict[tuple[tuple[int, int], str], list[tuple[tuple[int, int], str]]] = {}
    for node in degree:
        groups.setdefault(find(node), []).append(node)
    scores = []
    for nodes in groups.values():
        if all(degree[node] == 2 for node in nodes):
            cells = {cell for cell, _ in nodes}
            colours = [tiles[cell][1] for cell in cells]
            scores.append((colours.count("orange"), colours.count("blue")))
    return scores
