"""The old home of the Celtic! engine, kept as an alias of ``games.kinds.celtic``.

``import games.rules`` and ``python -m games.rules ...`` still work; new code imports
``games.kinds.celtic``. Its submodules (``games.rules.board`` ...) are the same module objects.
"""

import importlib
import sys

from games.kinds.celtic import *  # noqa: F403
from games.kinds.celtic import __all__ as __all__

_SUBMODULES = ("board", "cli", "errors", "notation", "puzzles", "record", "render", "scoring")
for _name in (*_SUBMODULES, "state", "tiles"):
    sys.modules[f"{__name__}.{_name}"] = importlib.import_module(f"games.kinds.celtic.{_name}")
