"""The API's body parser: JSON only, with a size limit.

Kept apart from ``celticsite.api`` because DRF imports the parser classes while it defines
``APIView``, so this module must not import anything that imports ``rest_framework.views``.
"""

from __future__ import annotations

import io
from typing import Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.parsers import JSONParser


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"


class JsonBodyParser(JSONParser):
    """The API's only parser: a JSON body of at most ``API_MAX_BODY_BYTES``.

    Any other content type is answered 415 by DRF, so a form or multipart body can never be
    read differently from the same data sent as JSON. The size is checked before parsing.
    """

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        limit = settings.API_MAX_BODY_BYTES
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise _too_large(limit)
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise _too_large(limit)
        return super().parse(io.BytesIO(body), media_type, parser_context)


def _too_large(limit: int) -> RequestTooLarge:
    return RequestTooLarge(f"The request body is larger than {limit:,} bytes.")


class BodyCheckingNegotiation(DefaultContentNegotiation):
    """Content negotiation that also refuses, up front, a request body no parser reads.

    DRF parses a body only when the view first reads ``request.data``, so a form body sent
    to an operation that looks an object up first was answered 404 or 403 before the 415,
    and one sent to an operation that reads no body was silently ignored. Negotiation runs
    before authentication, permissions and the view, so here a non-empty body of another
    content type is answered 415 whatever the path's ids name and whatever the view does.
    """

    def select_renderer(
        self, request: Any, renderers: Any, format_suffix: str | None = None
    ) -> tuple[Any, str]:
        chosen = super().select_renderer(request, renderers, format_suffix)
        if _has_body(request) and self.select_parser(request, request.parsers) is None:
            raise exceptions.UnsupportedMediaType(request.content_type)
        return chosen


def _has_body(request: Any) -> bool:
    length = request.META.get("CONTENT_LENGTH") or request.META.get("HTTP_CONTENT_LENGTH")
    return bool(length) and str(length).isdigit() and int(length) > 0
