"""Project-wide API plumbing: pagination, the error format, and the JSON 404 for unknown API
paths. The body parser is in ``celticsite.parsers``, the schema class in ``celticsite.schema``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions, serializers, status
from rest_framework.pagination import CursorPagination, PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from celticsite.errors import DomainError
from celtictext import json_kind, quote


class ErrorSerializer(serializers.Serializer):
    """The body of every error answer (for the OpenAPI document)."""

    code = serializers.CharField(help_text="Machine-readable error code, e.g. illegal_move.")
    detail = serializers.CharField(help_text="What was wrong and what is expected.")
    rule = serializers.CharField(required=False, help_text="For illegal_move: the rule broken.")
    current_ply = serializers.IntegerField(required=False, help_text="For stale_ply.")
    expected = serializers.CharField(required=False, help_text="How to write it correctly.")
    errors = serializers.DictField(required=False, help_text="Per-field validation messages.")


def error_responses(
    *, not_found: str, conflict: str, forbidden: str = "You may not do this; see code."
) -> Callable[..., dict[int, OpenApiResponse]]:
    """An app's error answers for ``extend_schema(responses=...)``: the returned function
    gives those of the status codes it is passed, e.g. ``errors(400, 404)``. ``not_found``,
    ``conflict`` and ``forbidden`` say what 404, 409 and 403 mean in the app."""
    described = {
        400: "The request is invalid; see detail.",
        401: "Log in (or send a token) first.",
        403: forbidden,
        404: not_found,
        409: conflict,
    }
    answers = {
        code: OpenApiResponse(ErrorSerializer, description=text) for code, text in described.items()
    }

    def errors(*codes: int) -> dict[int, OpenApiResponse]:
        return {code: answers[code] for code in codes}

    return errors


def validated(serializer_class: type, request: Request, **kwargs: Any) -> Any:
    """``serializer_class`` over the request's body, valid (else DRF's 400); ``kwargs`` go
    to the serializer (e.g. ``context``)."""
    serializer = serializer_class(data=request.data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer


class _StrictPageSize:
    """``?page_size=M``: a size that is not a whole number from 1 to 100 is refused (400)
    rather than silently replaced by the default; the OpenAPI document states the range."""

    page_size: int | None
    page_size_query_param = "page_size"
    max_page_size = 100

    def get_page_size(self, request: Any) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size or 0
        if not raw.isdigit() or not 1 <= int(raw) <= self.max_page_size:
            raise exceptions.ValidationError(
                {
                    self.page_size_query_param: [
                        f"{quote(raw)} is not a page size: expected a whole number "
                        f"from 1 to {self.max_page_size}."
                    ]
                }
            )
        return int(raw)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)  # type: ignore[misc]
        for parameter in parameters:
            if parameter["schema"]["type"] == "integer":
                parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters


class Pagination(_StrictPageSize, PageNumberPagination):
    """``?page=N&page_size=M`` with a total ``count``: for lists that stay small
    (tournaments, leagues, ladders, challenges, a game's messages; docs/API.md)."""

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is not None and (not raw.isdigit() or int(raw) < 1):
            raise exceptions.ValidationError(
                {
                    self.page_query_param: [
                        f"{quote(raw)} is not a page number: expected a whole number from 1."
                    ]
                }
            )
        return super().paginate_queryset(queryset, request, view)


class CursorPage(_StrictPageSize, CursorPagination):
    """``?cursor=...&page_size=M``, following ``next`` and ``previous`` links: for lists
    that can be large (games, the ranking). No total count, so a page costs the same at
    any depth; the query keys on the list's first ordering column, which an index serves.

    The ordering is the queryset's own (its selector's ``order_by``, field names only),
    ending in a unique column so every row has one place (docs/API.md, "Pagination")."""

    cursor_query_description = (
        "Where the page starts: taken from the next or previous link of the page before; "
        "left out for the first page."
    )
    invalid_cursor_message = (
        "The cursor is invalid (changed, cut short or from another list): start again from "
        "the first page, without a cursor, and follow the next links."
    )

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> Any:
        if "page" in request.query_params:  # a page-number client would get page 1 forever
            raise exceptions.ValidationError(
                {"page": ["This list has no page numbers: follow its next link (a cursor)."]}
            )
        try:
            return super().paginate_queryset(queryset, request, view)
        except (DjangoValidationError, ValueError, TypeError):  # a position of the wrong type
            if request.query_params.get(self.cursor_query_param) is None:
                raise
            raise self._invalid() from None

    def decode_cursor(self, request: Any) -> Any:
        try:
            return super().decode_cursor(request)
        except exceptions.NotFound:
            raise self._invalid() from None

    def _invalid(self) -> DomainError:
        return DomainError(self.invalid_cursor_message, code="invalid_cursor")

    def get_ordering(self, request: Any, queryset: Any, view: Any) -> tuple[str, ...]:
        ordering = tuple(queryset.query.order_by)
        if not ordering or not all(isinstance(field, str) for field in ordering):
            raise ImproperlyConfigured(f"A cursor list needs an order_by of names: {ordering}.")
        return ordering


def query_flag(params: Any, name: str, *, default: bool = False) -> bool:
    """A boolean query parameter, as the OpenAPI document writes it: ``true`` or ``false``."""
    value = params.get(name)
    if value is None:
        return default
    if value not in {"true", "false"}:
        raise DomainError(f"{name}={quote(value)}: expected true or false.", code="invalid_flag")
    return value == "true"


# Serializer mixin: refuse a JSON value whose type is not the one the field documents.
# DRF converts loosely (7 becomes "7", "yes" becomes True, "3" becomes 3); the API reads JSON,
# so a value of the wrong type is a mistake worth naming. Nested serializers and list items
# are checked too; null is left to the field. (A comment, not a docstring: drf-spectacular
# would show a docstring as the description of every input schema without one of its own.)
class StrictJsonTypes:
    def to_internal_value(self, data: Any) -> Any:
        errors = _type_errors(self, data) if isinstance(data, Mapping) else None
        if errors:
            raise exceptions.ValidationError(errors)
        return super().to_internal_value(data)  # type: ignore[misc]


def _type_errors(serializer: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    errors: dict[str, Any] = {}
    writable = (field for field in serializer.fields.values() if not field.read_only)
    for field in writable:
        if field.field_name in data:
            problem = _type_problem(field, data[field.field_name])
            if problem:
                errors[field.field_name] = problem
    return errors


def _type_problem(field: Any, value: Any) -> Any:
    """What is wrong with the JSON type of ``value`` for ``field`` (None if nothing)."""
    if value is None:
        return None
    if isinstance(field, serializers.BaseSerializer) and not isinstance(
        field, serializers.ListSerializer
    ):
        if not isinstance(value, Mapping):
            return [f"Expected an object, not {json_kind(value)}."]
        return _type_errors(field, value) or None
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return [f"Expected a list, not {json_kind(value)}."]
        for item in value:
            problem = _type_problem(field.child, item)
            if problem:
                return problem
        return None
    expected = _expected_json_type(field)
    if expected is None:
        return None
    types, description = expected
    wrong_bool = isinstance(value, bool) and bool not in types  # Python's bool is an int
    if not isinstance(value, types) or wrong_bool:
        return [f"Expected {description}, not {json_kind(value)}."]
    if isinstance(field, serializers.ChoiceField) and value not in field.choices:
        # DRF's own message would repeat the whole input.
        choices = ", ".join(str(choice) for choice in field.choices)
        return [f"{quote(value)} is not a choice: expected one of {choices}."]
    return None


def _expected_json_type(field: Any) -> tuple[tuple[type, ...], str] | None:
    if isinstance(field, serializers.BooleanField):
        return (bool,), "true or false"
    if isinstance(field, serializers.IntegerField):
        return (int,), "a whole number"
    if isinstance(field, serializers.DecimalField):
        return (int, float, str), "a number (or a decimal string)"
    if isinstance(field, serializers.FloatField):
        return (int, float), "a number"
    if isinstance(field, serializers.DictField):
        return (Mapping,), "an object"
    if isinstance(field, serializers.CharField | serializers.ChoiceField):
        return (str,), "a string"
    return None


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


@csrf_exempt  # it changes nothing; a CSRF refusal would be an HTML page
def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/ that names no endpoint: the JSON error body, not the HTML page."""
    detail = f"No API endpoint at {quote(request.path, 100)}"
    if not request.path.endswith("/") and _resolves(request.path + "/"):
        detail += f"; the paths end with a slash: {quote(request.path + '/', 100)}"
    return JsonResponse(
        {"code": "not_found", "detail": f"{detail}. The endpoints are listed at /api/docs/."},
        status=status.HTTP_404_NOT_FOUND,
    )


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """Django's ``handler500``: an unexpected error under /api/ answers the JSON error body
    (a client parses every answer as JSON); a page answers Django's own HTML page."""
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "code": "server_error",
                "detail": "The server failed to answer: the error is logged; try again later.",
            },
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    return defaults.server_error(request)


def _resolves(path: str) -> bool:
    try:
        return resolve(path).func is not api_not_found
    except Resolver404:
        return False


__all__ = [
    "CursorPage",
    "ErrorSerializer",
    "Pagination",
    "StrictJsonTypes",
    "api_not_found",
    "exception_handler",
    "query_flag",
    "server_error",
    "status",
]
