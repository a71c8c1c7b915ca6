"""The WSGI entry point gunicorn loads."""

from __future__ import annotations

import subprocess
import sys


def test_the_start_up_objects_are_left_out_of_garbage_collection():
    script = "import gc, celticsite.wsgi; print(gc.get_freeze_count())"
    frozen = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert int(frozen.stdout.strip()) > 10_000  # Django and the project, not a handful
