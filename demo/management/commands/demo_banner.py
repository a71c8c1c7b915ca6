"""``manage.py demo_banner``: wait until the site answers, then print how to log in.

``make run`` starts it beside the web server and the workers, so the banner comes once and
last, after their start-up output, with the links of ``settings.SITE_URL`` (its port that of
``make run PORT=…``).
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.banner import login_banner

#: Seconds between two knocks while the server starts, and the most one knock may take.
KNOCK_INTERVAL = 0.5
KNOCK_TIMEOUT = 2.0


def site_answers(url: str, *, within: float) -> bool:
    """Whether ``url`` answers (with any HTTP status) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while True:
        try:
            with urllib.request.urlopen(url, timeout=KNOCK_TIMEOUT):
                return True
        except urllib.error.HTTPError:
            return True  # an error page is an answer too
        except (urllib.error.URLError, OSError):
            if time.monotonic() >= deadline:
                return False
            time.sleep(KNOCK_INTERVAL)


class Command(BaseCommand):
    help = "Wait until the site answers at SITE_URL, then print the demo's logins."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--wait",
            type=float,
            default=120.0,
            help="seconds to wait for the server to answer (default 120)",
        )

    def handle(self, *args: Any, wait: float, **options: Any) -> None:
        if wait < 0:
            raise CommandError(f"--wait takes a number of seconds, 0 or more, not {wait:g}.")
        url = f"{settings.SITE_URL}/"
        if not site_answers(url, within=wait):
            raise CommandError(
                f"{settings.SITE_URL}/ did not answer within {wait:g} seconds; is the server "
                "running on that host and port (SITE_URL, or make run HOST=… PORT=…)?"
            )
        self.stdout.write(self.style.SUCCESS("The site is up."))
        self.stdout.write(login_banner())
