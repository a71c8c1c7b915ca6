"""The promises of the project's set-up: deployable settings, compose file, CI services."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_profile_passes_check_deploy() -> None:
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_ENV="production",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "k7Qx9!" * 8,
        DJANGO_ALLOWED_HOSTS="celtic.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_profile_refuses_to_start_without_a_secret_key() -> None:
    result = _manage("check", DJANGO_ENV="production")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in result.stderr


def test_docker_compose_runs_every_service_the_site_needs() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"web", "worker", "clock", "beat", "db", "redis", "mail"}
    assert "gunicorn" in services["web"]["command"]
    assert "worker" in services["worker"]["command"]
    assert "beat" in services["beat"]["command"]
    assert services["web"]["environment"]["DATABASE_URL"].startswith("postgres://")
    assert services["worker"]["environment"]["REDIS_URL"].startswith("redis://")


def test_readme_starts_with_the_two_commands() -> None:
    head = (ROOT / "README.md").read_text().split("\n", 6)[:6]
    assert any(line.startswith("make run") for line in head)
    assert any(line.startswith("make test") for line in head)


@pytest.mark.skipif(
    not os.environ.get("CELTIC_REQUIRE_SERVICES"),
    reason="only CI (.ci/run sets CELTIC_REQUIRE_SERVICES) promises PostgreSQL and Redis",
)
def test_ci_runs_against_postgresql_and_redis() -> None:
    assert connection.vendor == "postgresql"
    assert settings.CELERY_BROKER_URL.startswith("redis://")


PRODUCTION_HEADERS_SCRIPT = """
from django.test import Client
response = Client().get("/no-such-page/", secure=True, HTTP_HOST="celtic.example")
for name in ("Content-Security-Policy", "Referrer-Policy", "Permissions-Policy"):
    print(f"{name}: {response.headers.get(name)}")
"""


def test_production_responses_carry_the_security_headers() -> None:
    result = _manage(
        "shell",
        "--no-imports",
        "-c",
        PRODUCTION_HEADERS_SCRIPT,
        DJANGO_ENV="production",
        DJANGO_SECRET_KEY="a-long-random-production-secret-" + "k7Qx9!" * 8,
        DJANGO_ALLOWED_HOSTS="celtic.example",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    headers = dict(line.split(": ", 1) for line in result.stdout.splitlines() if ": " in line)

    directives = headers["Content-Security-Policy"].split(";")
    policy = dict(directive.strip().split(" ", 1) for directive in directives)
    assert policy == {
        "default-src": "'self'",
        "script-src": "'self'",  # no 'unsafe-inline', no nonce: every script is a file
        "style-src": "'self' 'unsafe-inline'",
        "img-src": "'self' data:",
        "connect-src": "'self'",
        "font-src": "'self'",
        "object-src": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
        "frame-ancestors": "'none'",
    }
    assert headers["Referrer-Policy"] == "same-origin"
    assert headers["Permissions-Policy"] == (
        "camera=(), geolocation=(), microphone=(), payment=(), usb=()"
    )
