"""drf-spectacular extensions: the security schemes of this app's authentication classes.

Imported from ``AccountsConfig.ready()`` so the extension is registered before any schema
is generated.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.authentication import BasicScheme
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.plumbing import build_bearer_security_scheme_object


class ApiTokenAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.authentication.ApiTokenAuthentication"
    name = "apiToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        definition = build_bearer_security_scheme_object(
            header_name="Authorization", token_prefix=self.target.keyword
        )
        definition["description"] = (
            "A key from POST /api/v1/accounts/tokens/, sent as `Authorization: Token <key>`."
        )
        return definition


class LimitedBasicAuthenticationScheme(BasicScheme):
    """HTTP Basic under the failed-login limits is plain HTTP Basic to a client."""

    target_class = "accounts.authentication.LimitedBasicAuthentication"
    priority = 0
