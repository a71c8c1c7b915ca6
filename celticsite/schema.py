"""The OpenAPI document: every operation also documents the errors the plumbing gives, and
text a request may send is documented without NUL characters. Both go through drf-spectacular's
public customisation points: ``AutoSchema.get_operation`` and a postprocessing hook."""

from __future__ import annotations

from typing import Any

from drf_spectacular.hooks import postprocess_schema_enums
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import SAFE_METHODS

from celticsite.api import ErrorSerializer
from celticsite.permissions import ReadOpenWriteLoggedIn

NO_NUL = "^[^\\u0000]*$"
"""A JSON Schema pattern: text without a NUL character."""

# A string schema with any of these says what it accepts already (an enum, a format such as
# date-time or email, a pattern of its own) or is not a plain string.
_SAID_ALREADY = frozenset({"pattern", "enum", "format", "$ref", "oneOf", "allOf", "anyOf"})


class AutoSchema(SpectacularAutoSchema):
    """Adds the error answers the project's plumbing can give to any operation, so that the
    document lists every status the API really sends: what an operation documents itself is
    kept, these fill the gaps. Says which operations anyone may call without credentials."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation: dict[str, Any] | None = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        responses = operation["responses"]
        for code, description in self._plumbing_errors(operation).items():
            if code not in responses:
                responses[code] = self._error_response(description)
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def get_auth(self) -> list[dict[str, Any]]:
        """drf-spectacular marks credentials optional (``{}``) for DRF's ``AllowAny`` and
        ``IsAuthenticatedOrReadOnly``; reading a ``ReadOpenWriteLoggedIn`` view is open too."""
        auths: list[dict[str, Any]] = super().get_auth()
        permissions = self.view.get_permissions()
        read_open = any(isinstance(p, ReadOpenWriteLoggedIn) for p in permissions)
        if read_open and self.method in SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths

    def _error_response(self, description: str) -> dict[str, Any]:
        """The error body (the ``Error`` component) in every media type the view renders."""
        schema = self.resolve_serializer(ErrorSerializer, "response").ref
        media_types = self.map_renderers("media_type")
        return {
            "content": {media_type: {"schema": schema} for media_type in media_types},
            "description": description,
        }

    def _plumbing_errors(self, operation: dict[str, Any]) -> dict[str, str]:
        errors: dict[str, str] = {}
        has_body = self.method in {"POST", "PUT", "PATCH"} and self.get_request_serializer()
        queries = [p for p in operation.get("parameters", []) if p.get("in") == "query"]
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


def postprocess_schema(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular's own enum hook, then: every plain string a request body may hold
    (a field, a list item or a map value, in the body's schema or a component it refers to)
    is documented without NUL characters, which DRF refuses in every text field."""
    result = postprocess_schema_enums(result, generator, **kwargs)
    components = result.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for item in result.get("paths", {}).values():
        for operation in item.values():
            body = operation.get("requestBody", {}) if isinstance(operation, dict) else {}
            for media in body.get("content", {}).values():
                _forbid_nul(media.get("schema", {}), components, seen)
    return result


def _forbid_nul(schema: dict[str, Any], components: dict[str, Any], seen: set[str]) -> None:
    reference = schema.get("$ref", "")
    if reference.startswith("#/components/schemas/"):
        name = reference.rsplit("/", 1)[1]
        if name not in seen:
            seen.add(name)
            _forbid_nul(components.get(name, {}), components, seen)
        return
    if schema.get("type") == "string" and not _SAID_ALREADY & set(schema):
        schema["pattern"] = NO_NUL
    for child in schema.get("properties", {}).values():
        _forbid_nul(child, components, seen)
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            _forbid_nul(schema[key], components, seen)
