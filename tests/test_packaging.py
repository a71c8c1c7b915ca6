"""The wheel holds the whole site: every local app in INSTALLED_APPS with its subpackages,
templates and static files, as setuptools finds them from pyproject.toml (the Docker image
installs the wheel; it must not work only because it runs from the source tree)."""

from __future__ import annotations

import fnmatch
import warnings
from pathlib import Path

from django.conf import settings
from setuptools.config.pyprojecttoml import read_configuration

ROOT = Path(__file__).resolve().parent.parent


def _setuptools_config() -> dict:
    with warnings.catch_warnings():  # setuptools calls its [tool.setuptools] support beta
        warnings.simplefilter("ignore")
        return read_configuration(ROOT / "pyproject.toml", expand=True)["tool"]["setuptools"]


#: Top-level packages that are not part of the running site.
_NOT_SHIPPED = {"tests", "bench"}


def _local_apps() -> list[str]:
    """The apps of INSTALLED_APPS that live in this repository, the project package, and any
    other top-level package the site imports (such as the pure ``celtictext``)."""
    names = [app.split(".")[0] for app in settings.INSTALLED_APPS]
    local = [name for name in names if (ROOT / name / "__init__.py").exists()]
    others = sorted(
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in {"celticsite", *local, *_NOT_SHIPPED}
    )
    return ["celticsite", *local, *others]


def _files_below(app: str) -> list[Path]:
    return [
        path
        for path in sorted((ROOT / app).rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    ]


def _dotted(directory: Path) -> str:
    return ".".join(directory.relative_to(ROOT).parts)


def test_the_local_apps_are_found():
    apps = _local_apps()

    some = {"celticsite", "games", "tournaments", "leagues", "ladders", "players", "learn"}
    assert some <= set(apps)
    assert settings.ROOT_URLCONF.split(".")[0] in apps
    assert settings.WSGI_APPLICATION.split(".")[0] in apps


def test_every_local_app_and_its_subpackages_are_in_the_wheel():
    packages = set(_setuptools_config()["packages"])

    missing = sorted(
        {
            _dotted(path.parent)
            for app in _local_apps()
            for path in _files_below(app)
            if path.suffix == ".py"
        }
        - packages
    )
    assert missing == []
    assert not {package.split(".")[0] for package in packages} - set(_local_apps())


def test_every_template_and_static_file_is_in_the_wheel():
    config = _setuptools_config()
    packages = set(config["packages"])
    # Patterns for every package ("*", which setuptools expands to "").
    patterns = [
        p for key, listed in config["package-data"].items() if key in {"", "*"} for p in listed
    ]

    data = [path for app in _local_apps() for path in _files_below(app) if path.suffix != ".py"]
    left_out = [
        str(path.relative_to(ROOT))
        for path in data
        if _dotted(path.parent) not in packages
        or not any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)
    ]
    assert len(data) > 100
    assert left_out == []
