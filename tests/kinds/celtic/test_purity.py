"""The engine is pure Python: no module under games/kinds/celtic imports Django or the apps."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import games.kinds.celtic

RULES_DIR = Path(games.kinds.celtic.__file__).parent
ROOT = RULES_DIR.parents[2]
FORBIDDEN = ("django", "rest_framework", "celery", "games.models", "games.services")


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def is_forbidden(name: str) -> bool:
    return any(name == bad or name.startswith(f"{bad}.") for bad in FORBIDDEN)


MODULES = sorted(RULES_DIR.rglob("*.py"))


def test_the_engine_modules_are_found() -> None:
    names = {path.name for path in MODULES}
    assert {"tiles.py", "board.py", "state.py", "scoring.py", "record.py"} <= names


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_module_imports_django(path: Path) -> None:
    bad = sorted(name for name in imported_modules(path) if is_forbidden(name))
    assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


def test_the_checker_would_notice() -> None:
    assert is_forbidden("django.db")
    assert is_forbidden("games.models")
    assert not is_forbidden("djangoish")


def test_importing_the_engine_loads_no_django() -> None:
    code = (
        "import sys, games.kinds.celtic, games.kinds.celtic.record;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_import_linter_contract(tmp_path: Path) -> None:
    """Run the rules-engine contract from pyproject.toml with lint-imports.

    The contract is copied into a config of its own whose root packages are those that exist
    in this checkout, so that an app still being written does not stop the check. Forbidding
    an external package (django) needs ``include_external_packages``, which is set here
    whatever pyproject.toml says.
    """
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    linter = config["tool"]["importlinter"]
    contracts = [c for c in linter["contracts"] if "games.kinds" in c.get("source_modules", ())]
    assert contracts, "pyproject.toml has no import-linter contract for games.kinds"
    roots = [name for name in linter["root_packages"] if (ROOT / name / "__init__.py").exists()]
    lines = [
        "[tool.importlinter]",
        f"root_packages = {json.dumps(roots)}",
        "include_external_packages = true",
    ]
    for contract in contracts:
        lines.append("[[tool.importlinter.contracts]]")
        lines.extend(f"{key} = {json.dumps(value)}" for key, value in contract.items())
    path = tmp_path / "importlinter.toml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lint_imports = Path(sys.executable).parent / "lint-imports"
    done = subprocess.run(
        [str(lint_imports), "--config", str(path), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "The rules engine is pure Python" in done.stdout
    assert "1 kept, 0 broken" in done.stdout
