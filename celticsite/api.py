"""Project-wide API plumbing: pagination and the error format."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from celticsite.errors import DomainError


class ErrorSerializer(serializers.Serializer):
    """The body of every error answer (for the OpenAPI document)."""

    code = serializers.CharField(help_text="Machine-readable error code, e.g. illegal_move.")
    detail = serializers.CharField(help_text="What was wrong and what is expected.")
    rule = serializers.CharField(required=False, help_text="For illegal_move: the rule broken.")
    current_ply = serializers.IntegerField(required=False, help_text="For stale_ply.")
    expected = serializers.CharField(required=False, help_text="How to write it correctly.")
    errors = serializers.DictField(required=False, help_text="Per-field validation messages.")


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 100


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """Answer every error as ``{"code": ..., "detail": ...}`` (plus ``errors`` per field).

    Domain errors keep their own status and code; DRF's validation errors list the fields.
    """
    if isinstance(exc, DomainError):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, DjangoValidationError):
        exc = exceptions.ValidationError(
            exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        )
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        response.data = {
            "code": "invalid",
            "detail": _first_message(exc.detail),
            "errors": exc.detail,
        }
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        response.data = {
            "code": codes if isinstance(codes, str) else "error",
            "detail": str(exc.detail),
        }
    return response


def _first_message(detail: Any) -> str:
    """The first human-readable message in a nested DRF error structure, with its field."""
    if isinstance(detail, dict):
        for field, value in detail.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
    if isinstance(detail, list) and detail:
        return _first_message(detail[0])
    return str(detail)


__all__ = ["ErrorSerializer", "Pagination", "exception_handler", "status"]
