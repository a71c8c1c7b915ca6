"""The permission matrix: every API endpoint and every admin action, for every role.

The endpoints come from the URL configuration (everything under ``/api/v1/``, each HTTP
method its view answers) and the actions from the admin's registry; each must have exactly
one row in ``tests/security/matrix/`` (one module per app), so a new endpoint or action
without rows fails here. Each cell then runs a real request on a fresh world.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import pytest
from django.contrib import admin
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from accounts.services import api_token_create
from games.models import Game
from tests.security.matrix import (
    ADMIN_ROLES,
    ANONYMOUS,
    COMPETITION_ROLES,
    ROLES,
    AdminRow,
    ApiRow,
    CompetitionRow,
    collect,
    collect_competition_rows,
)
from tests.security.matrix.world import World, build_world

API_PREFIX = "/api/v1/"
HTTP_METHODS = ("get", "post", "put", "patch", "delete")
API_ROWS, ADMIN_ROWS = collect()
COMPETITION_ROWS = collect_competition_rows()


def _routes(patterns: list[Any], prefix: str = "/") -> Iterator[tuple[str, Any]]:
    """``(route, pattern)`` for every URL pattern, converters written ``{name}``."""
    for pattern in patterns:
        route = prefix + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", str(pattern.pattern))
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern


def api_endpoints() -> set[tuple[str, str]]:
    """``(METHOD, route)`` for each method each view under /api/v1/ defines."""
    endpoints = set()
    for route, pattern in _routes(get_resolver().url_patterns):
        if not route.startswith(API_PREFIX):
            continue
        view = getattr(pattern.callback, "cls", None) or pattern.callback.view_class
        endpoints |= {(m.upper(), route) for m in HTTP_METHODS if hasattr(view, m)}
    return endpoints


def admin_actions() -> set[tuple[str, str]]:
    """``(app_label.model_name, action)`` for every action of every registered model admin,
    whoever may use it (Django's ``delete_selected`` included)."""
    return {
        (model._meta.label_lower, name)
        for model, model_admin in admin.site._registry.items()
        for _, name, _ in model_admin._get_base_actions()
    }


def _duplicates(keys: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return sorted({key for key in keys if keys.count(key) > 1})


# --- Every endpoint and action has its rows --------------------------------------------------


def test_every_api_endpoint_has_one_row_and_every_row_an_endpoint():
    rows = [row.key for row in API_ROWS]
    endpoints = api_endpoints()

    assert sorted(endpoints - set(rows)) == [], "endpoints without a row in tests/security/matrix/"
    assert sorted(set(rows) - endpoints) == [], "rows for endpoints that do not exist"
    assert _duplicates(rows) == []


def test_every_admin_action_has_one_row_and_every_row_an_action():
    rows = [row.key for row in ADMIN_ROWS]
    actions = admin_actions()

    assert sorted(actions - set(rows)) == [], (
        "admin actions without a row in tests/security/matrix/"
    )
    assert sorted(set(rows) - actions) == [], "rows for admin actions that do not exist"
    assert _duplicates(rows) == []


def test_an_endpoint_without_rows_is_found(settings):
    settings.ROOT_URLCONF = "tests.security.extra_urls"

    assert api_endpoints() - {row.key for row in API_ROWS} == {
        ("POST", "/api/v1/unlisted/{thing_id}/")
    }


def test_an_admin_action_without_rows_is_found(monkeypatch):
    @admin.action(description="An action nobody wrote rows for")
    def unlisted(model_admin: Any, request: Any, queryset: Any) -> None:
        """Does nothing: only its name matters here."""

    game_admin = admin.site._registry[Game]
    monkeypatch.setattr(game_admin, "actions", [*game_admin.actions, unlisted])

    assert admin_actions() - {row.key for row in ADMIN_ROWS} == {("games.game", "unlisted")}


def test_every_row_names_every_role_and_no_other():
    for row in API_ROWS:
        assert set(row.expect) == set(ROLES), row.key
    for admin_row in ADMIN_ROWS:
        assert admin_row.allowed <= set(ADMIN_ROLES), admin_row.key
    for competition_row in COMPETITION_ROWS:
        assert set(competition_row.expect) == set(COMPETITION_ROLES), competition_row.name
        assert competition_row.changes_for <= set(COMPETITION_ROLES), competition_row.name
    assert _duplicates([(row.name, "") for row in COMPETITION_ROWS]) == []


# --- The cells ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def _shared_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """One world per module (it takes a while to build), in a transaction never committed."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(_shared_world: World, db: None) -> World:
    """The shared world; each cell runs in a savepoint rolled back after it, so every cell
    starts from the same state."""
    return _shared_world


@pytest.mark.parametrize(
    ("row", "role"),
    [
        pytest.param(row, role, id=f"{row.method} {row.route} as {role}")
        for row in API_ROWS
        for role in ROLES
    ],
)
def test_api(world: World, row: ApiRow, role: str) -> None:
    ids = row.ids(world) if row.ids else world.ids
    body = row.body(world) if callable(row.body) else row.body
    client = world.api_client(role)

    response = client.generic(
        row.method,
        row.route.format(**ids),
        data=_json_body(body),
        content_type="application/json",
        QUERY_STRING="&".join(f"{k}={v}" for k, v in row.query.items()),
    )

    assert response.status_code == row.expect[role], response.content[:300]


def _json_body(body: Any) -> str | None:
    """A row's body as the JSON a client sends (Django's encoder, as its test client uses)."""
    return None if body is None else json.dumps(body, cls=DjangoJSONEncoder)


def _admin_client(world: World, role: str) -> Client:
    client = Client()
    if role != ANONYMOUS:
        client.force_login(world.users[role])  # a suspended user's session does not hold
    return client


def _offered(client: Client, changelist: str) -> list[str]:
    page = client.get(changelist)
    form = page.context["action_form"] if page.status_code == 200 else None
    return [] if form is None else [name for name, _ in form.fields["action"].choices if name]


def _posts_back(html: str, action: str) -> bool:
    """Is this the action's reason or confirmation page (a form that posts the action back)?"""
    return f'<input type="hidden" name="action" value="{action}"' in html


@pytest.mark.parametrize(
    ("row", "role"),
    [
        pytest.param(row, role, id=f"{row.model} {row.action} as {role}")
        for row in ADMIN_ROWS
        for role in ADMIN_ROLES
    ],
)
def test_admin_action(world: World, row: AdminRow, role: str) -> None:
    target = row.target(world)
    confirm = row.confirm(world) if callable(row.confirm) else row.confirm
    changelist = reverse(f"admin:{row.model.replace('.', '_')}_changelist")
    client = _admin_client(world, role)

    selected = {"action": row.action, ACTION_CHECKBOX_NAME: [target.pk]}

    offered = row.action in _offered(client, changelist)
    page = client.post(changelist, selected)
    asked = page.status_code == 200 and _posts_back(page.content.decode(), row.action)
    client.post(changelist, {**selected, **confirm})

    after = type(target)._default_manager.filter(pk=target.pk).first()
    allowed = role in row.allowed
    assert (offered, asked, row.done(after)) == (allowed, allowed and row.asks, allowed)


@pytest.mark.parametrize(
    ("row", "role"),
    [
        pytest.param(row, role, id=f"{row.name} as {role}")
        for row in COMPETITION_ROWS
        for role in COMPETITION_ROLES
    ],
)
def test_competition(world: World, row: CompetitionRow, role: str) -> None:
    user = row.actor(world, role)
    path = row.path(world)
    body = row.body(world) if callable(row.body) else row.body
    if row.api:
        api = APIClient()
        if user is not None:
            api.credentials(
                HTTP_AUTHORIZATION=f"Token {api_token_create(user=user, name='cell')[1]}"
            )
        response = api.generic(
            row.method,
            path,
            data=_json_body(body),
            content_type="application/json",
        )
    else:
        client = Client()
        if user is not None:
            client.force_login(user)
        response = client.generic(
            row.method,
            path,
            urlencode(body or {}, doseq=True),
            content_type="application/x-www-form-urlencoded",
        )

    changed = row.changed(world) if row.changed else False
    assert (response.status_code, changed) == (row.expect[role], role in row.changes_for)
