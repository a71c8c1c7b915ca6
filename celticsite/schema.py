"""The OpenAPI schema class: every operation also documents the errors the plumbing gives."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework.authentication import SessionAuthentication
from rest_framework.fields import CharField

from celticsite.api import ErrorSerializer

NO_NUL = "^[^\\u0000]*$"
"""A JSON Schema pattern: text without a NUL character."""


def _error(description: str) -> OpenApiResponse:
    return OpenApiResponse(ErrorSerializer, description=description)


class AutoSchema(SpectacularAutoSchema):
    """Adds the error answers the project's plumbing can give to any operation, so that the
    document lists every status the API really sends: what an operation documents itself is
    kept, these fill the gaps."""

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        for code, description in self._plumbing_errors().items():
            if code not in responses:
                responses[code] = self._get_response_for_code(_error(description), code)
        return dict(sorted(responses.items()))

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> Any:
        self._direction = direction  # read by _insert_field_validators, which is not told
        return super()._map_basic_serializer(serializer, direction)

    def _insert_field_validators(self, field: Any, schema: dict[str, Any]) -> None:
        """Text a request may send is documented without NUL characters, which DRF refuses
        in every CharField (a field with its own pattern, enum or format keeps it)."""
        super()._insert_field_validators(field, schema)
        request_text = (
            getattr(self, "_direction", None) == "request"
            and isinstance(field, CharField)
            and schema.get("type") == "string"
            and not {"pattern", "enum", "format", "$ref", "oneOf"} & set(schema)
            and not any(isinstance(v, RegexValidator) for v in field.validators)
        )
        if request_text:
            schema["pattern"] = NO_NUL

    def _plumbing_errors(self) -> dict[str, str]:
        errors: dict[str, str] = {}
        has_body = self.method in {"POST", "PUT", "PATCH"} and self.get_request_serializer()
        queries = [p for p in self._get_parameters() if p.get("in") == "query"]
        if has_body or queries:
            errors["400"] = "The request is invalid; see detail (and errors, per field)."
        authenticators = self.view.get_authenticators()
        if authenticators:
            errors["401"] = "The credentials sent are wrong (or missing where needed)."
        unsafe = self.method not in {"GET", "HEAD", "OPTIONS"}
        if unsafe and any(isinstance(a, SessionAuthentication) for a in authenticators):
            errors["403"] = "A logged-in browser session sent no valid CSRF token."
        if "{" in self.path or any(p["name"] in {"page", "format"} for p in queries):
            errors["404"] = "No such object (or not visible to you), page or format."
        if has_body:
            errors["413"] = "The request body is larger than API_MAX_BODY_BYTES."
            errors["415"] = "The body is not JSON: send Content-Type: application/json."
        if self.view.get_throttles():
            errors["429"] = "Too many requests: wait (the Retry-After header says how long)."
        return errors
