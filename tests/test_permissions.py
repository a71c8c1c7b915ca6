"""Who may call the API is said once: every view states ``permission_classes`` (the matrix in
tests/security checks each cell); none decides in its own ``get_permissions``."""

from __future__ import annotations

import pytest
from django.urls import get_resolver
from drf_spectacular.generators import SchemaGenerator
from rest_framework.views import APIView

from tests.security.test_permission_matrix import _routes

pytestmark = pytest.mark.django_db


def _api_views() -> list[type[APIView]]:
    views = []
    for route, pattern in _routes(get_resolver().url_patterns):
        view = getattr(pattern.callback, "cls", None)
        if route.startswith("/api/v1/") and view is not None:
            views.append(view)
    return views


def test_no_api_view_overrides_get_permissions():
    views = _api_views()

    assert len(views) > 50
    assert [v.__qualname__ for v in views if v.get_permissions is not APIView.get_permissions] == []


@pytest.mark.parametrize("path", ["/api/v1/tournaments/", "/api/v1/leagues/", "/api/v1/ladders/"])
def test_a_list_is_read_by_anyone_and_written_only_when_logged_in(client, path):
    assert client.get(path).status_code == 200
    assert client.post(path, {}, content_type="application/json").status_code == 401
    # A method the view does not answer is refused as such, login or not.
    assert client.patch(path, {}, content_type="application/json").status_code == 405


def test_the_document_says_reading_is_open_and_writing_needs_credentials():
    schema = SchemaGenerator().get_schema(public=True)
    listing = schema["paths"]["/api/v1/tournaments/"]

    assert {} in listing["get"]["security"]
    assert {} not in listing["post"]["security"]
    assert {} not in schema["paths"]["/api/v1/tournaments/{tournament_id}/"]["patch"]["security"]
