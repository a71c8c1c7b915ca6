"""How to log in to the demo: printed by ``seed_demo``, or by ``demo_banner`` once the
server answers (``make run``), with the links of ``settings.SITE_URL``."""

from __future__ import annotations

from django.conf import settings

DEMO_PASSWORD = "celtic-demo"


def login_banner() -> str:
    """The demo's accounts and where to open the site (its host and port as served)."""
    return (
        f"Open {settings.SITE_URL}/ and log in as alice, bob or carol "
        f"(password {DEMO_PASSWORD!r}); moderator/{DEMO_PASSWORD} for /admin/.\n"
        f"API docs: {settings.SITE_URL}/api/docs/"
    )
