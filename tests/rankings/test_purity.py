"""The rating maths stays pure Python: no Django, no ORM, no other app."""

import ast
from pathlib import Path

import pytest

RANKINGS = Path(__file__).resolve().parents[2] / "rankings"
PURE = [*sorted(RANKINGS.glob("rating/*.py")), RANKINGS / "csvimport.py", RANKINGS / "chart.py"]
ALLOWED_PREFIXES = ("rankings.rating", "__future__")
#: Pure-Python libraries a module may build on (no Django in them): the Plackett-Luce
#: ratings are openskill's.
LIBRARIES = {"plackett_luce.py": ("openskill",)}


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(RANKINGS)))
def test_pure_module_imports_only_the_standard_library_and_its_libraries(path):
    tree = ast.parse(path.read_text())
    imported = [
        name
        for node in ast.walk(tree)
        for name in (
            [alias.name for alias in node.names] if isinstance(node, ast.Import)
            else [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        )
    ]  # fmt: skip
    allowed = ALLOWED_PREFIXES + LIBRARIES.get(path.name, ())
    for name in imported:
        top = name.split(".")[0]
        assert name.startswith(allowed) or top in _stdlib(), f"{path.name} imports {name}"


def _stdlib() -> frozenset[str]:
    import sys

    return frozenset(sys.stdlib_module_names)
