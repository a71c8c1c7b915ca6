"""The size limits of app code: no module over 800 lines, no function or method over 60.

App code is every Django app of this repository (the top-level packages in INSTALLED_APPS)
and ``celticsite``, without their migrations; tests and bench are not app code. A function's
length runs from its ``def`` line to its last line (decorators not counted).
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.apps import apps

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 800
MAX_FUNCTION_LINES = 60


def _app_packages() -> list[Path]:
    """The repository's own Django apps (top-level packages) and celticsite."""
    packages = {
        Path(config.path)
        for config in apps.get_app_configs()
        if Path(config.path).parent == ROOT and "." not in config.name
    }
    return sorted(packages | {ROOT / "celticsite"})


def _app_modules() -> list[Path]:
    return [
        path
        for package in _app_packages()
        for path in sorted(package.rglob("*.py"))
        if "migrations" not in path.relative_to(package).parts
    ]


def _long_functions(path: Path, *, root: Path = ROOT) -> list[str]:
    """Each function or method of ``path`` over the limit, named with its place and length."""
    tree = ast.parse(path.read_text(), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES:
                where = path.relative_to(root)
                found.append(f"{where}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_app_code_is_every_app_of_the_repository_and_celticsite() -> None:
    names = {package.name for package in _app_packages()}
    assert {"games", "rankings", "notifications", "tournaments", "celticsite"} <= names
    assert not names & {"tests", "bench"}
    modules = _app_modules()
    assert ROOT / "games" / "services" / "moves.py" in modules
    assert not [path for path in modules if "migrations" in path.parts]


def test_no_module_of_app_code_is_over_800_lines() -> None:
    too_long = [
        f"{path.relative_to(ROOT)} ({lines} lines)"
        for path in _app_modules()
        if (lines := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    ]
    assert too_long == [], f"modules over {MAX_MODULE_LINES} lines: split them by concern"


def test_no_function_of_app_code_is_over_60_lines() -> None:
    too_long = [found for path in _app_modules() for found in _long_functions(path)]
    assert too_long == [], f"functions over {MAX_FUNCTION_LINES} lines: give their parts names"


def test_the_limits_catch_an_offender(tmp_path: Path) -> None:
    module = tmp_path / "long.py"
    body = "\n".join(f"        x{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    module.write_text(f"def short():\n    pass\n\n\nclass C:\n    def long(self):\n{body}\n")
    assert _long_functions(module, root=tmp_path) == [
        f"long.py:6 long ({MAX_FUNCTION_LINES + 1} lines)"
    ]
