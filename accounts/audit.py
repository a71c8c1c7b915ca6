"""The audit actions accounts records (registered in ``AccountsConfig.ready()``)."""

from __future__ import annotations

USER_SUSPEND = "user_suspend"
USER_REACTIVATE = "user_reactivate"
API_TOKEN_REVOKE = "api_token_revoke"
USER_STAFF_GRANT = "user_staff_grant"
USER_STAFF_REVOKE = "user_staff_revoke"
USER_SUPERUSER_GRANT = "user_superuser_grant"
USER_SUPERUSER_REVOKE = "user_superuser_revoke"
USER_GROUP_ADD = "user_group_add"
USER_GROUP_REMOVE = "user_group_remove"

ACTIONS = {
    USER_SUSPEND: "User suspended",
    USER_REACTIVATE: "User reactivated",
    API_TOKEN_REVOKE: "API token revoked by a moderator",
    USER_STAFF_GRANT: "Staff status granted",
    USER_STAFF_REVOKE: "Staff status revoked",
    USER_SUPERUSER_GRANT: "Superuser status granted",
    USER_SUPERUSER_REVOKE: "Superuser status revoked",
    USER_GROUP_ADD: "User added to a group",
    USER_GROUP_REMOVE: "User removed from a group",
}
