"""The security headers on real pages, and no inline script that the policy would block."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE_DIRS = ["accounts", "celticsite", "games", "moderation", "notifications", "rankings"]
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
EVENT_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
JAVASCRIPT_URL = re.compile(r"""=\s*["']?\s*javascript:""", re.IGNORECASE)


def _site_templates() -> list[Path]:
    return [
        path for folder in TEMPLATE_DIRS for path in (ROOT / folder).glob("**/templates/**/*.html")
    ]


def test_the_templates_hold_no_inline_script_or_event_handler():
    templates = _site_templates()
    offenders = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in templates
        for pattern in (INLINE_SCRIPT, EVENT_HANDLER, JAVASCRIPT_URL)
        for match in pattern.finditer(path.read_text())
    ]

    assert len(templates) > 20
    assert offenders == []


@pytest.mark.django_db
@pytest.mark.parametrize("url_name", ["accounts:login", "games:home", "api-docs"])
def test_pages_carry_the_security_headers(client, url_name):
    response = client.get(reverse(url_name))

    assert response.status_code == 200
    policy = response["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"  # no inline scripts, no other origin
    assert directives["frame-ancestors"] == "'none'"
    assert response["Referrer-Policy"] == "same-origin"
    assert "geolocation=()" in response["Permissions-Policy"]


@pytest.mark.django_db
def test_the_api_docs_load_swagger_ui_from_files_only(client):
    page = client.get(reverse("api-docs")).content.decode()
    script = client.get(reverse("api-docs") + "?script=")

    assert INLINE_SCRIPT.findall(page) == []
    assert f'<script src="{reverse("api-docs")}?script="></script>' in page
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content
