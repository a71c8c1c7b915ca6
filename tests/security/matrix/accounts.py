"""Rows for the accounts app (sign-up, profile, vacations, tokens) and the user admin."""

from __future__ import annotations

from tests.security.matrix import (
    MODERATORS,
    NOBODY,
    SUPERUSERS,
    AdminRow,
    ApiRow,
    delete_row,
    expect,
)

V1 = "/api/v1/accounts"
LOGGED_IN = {"anonymous": 401}

API_ROWS = [
    ApiRow(
        "POST",
        f"{V1}/signup/",
        # No authentication at all: a header, working or not, changes nothing. 202: the
        # account waits for its address to be confirmed (the same answer for a known one).
        expect(202, suspended=202, revoked_token=202),
        body={"username": "newcomer", "email": "new@example.org", "password": "a-l0ng-pass-word"},
    ),
    ApiRow("GET", f"{V1}/me/", expect(200, **LOGGED_IN)),
    ApiRow("PATCH", f"{V1}/me/", expect(200, **LOGGED_IN), body={"display_name": "Renamed"}),
    ApiRow("GET", f"{V1}/me/vacation/", expect(200, **LOGGED_IN)),
    ApiRow("POST", f"{V1}/me/vacation/", expect(201, **LOGGED_IN), body={"days": 1}),
    ApiRow("POST", f"{V1}/me/vacation/end/", expect(409, **LOGGED_IN)),  # not on vacation
    ApiRow("GET", f"{V1}/tokens/", expect(200, **LOGGED_IN)),
    ApiRow("POST", f"{V1}/tokens/", expect(201, **LOGGED_IN), body={"name": "laptop"}),
    # The player's spare token: anyone else's id is as good as unknown.
    ApiRow("DELETE", f"{V1}/tokens/{{token_id}}/", expect(404, **LOGGED_IN, player=204)),
    # No authentication at all: the same 202 for everyone, whatever header they send.
    ApiRow(
        "POST",
        f"{V1}/password-reset/",
        expect(202, suspended=202, revoked_token=202),
        body={"email": "alice@example.org"},
    ),
]

REASON = {"apply": "1", "reason": "Matrix"}


def _user_row(action: str, allowed: frozenset[str], target: str, done: object) -> AdminRow:
    return AdminRow(
        "auth.user",
        action,
        allowed,
        lambda world: world.targets[target],
        done,  # type: ignore[arg-type]
        REASON,
    )


def _group_row(action: str, target: str, done: object) -> AdminRow:
    return AdminRow(
        "auth.user",
        action,
        SUPERUSERS,  # moderators may not change groups (accounts.change_user_groups)
        lambda world: world.targets[target],
        done,  # type: ignore[arg-type]
        lambda world: {**REASON, "group": world.testers.pk},
    )


ADMIN_ROWS = [
    _user_row("suspend_users", MODERATORS, "victim", lambda user: not user.is_active),
    _user_row("reactivate_users", MODERATORS, "banned", lambda user: user.is_active),
    _user_row("grant_staff", SUPERUSERS, "victim", lambda user: user.is_staff),
    _user_row("revoke_staff", SUPERUSERS, "helper", lambda user: not user.is_staff),
    _user_row("grant_superuser", SUPERUSERS, "victim", lambda user: user.is_superuser),
    _user_row("revoke_superuser", SUPERUSERS, "other_root", lambda user: not user.is_superuser),
    _group_row("add_to_group", "banned", lambda user: user.groups.exists()),
    _group_row("remove_from_group", "victim", lambda user: not user.groups.exists()),
    delete_row("auth.user", lambda world: world.targets["leaver"], SUPERUSERS),
    delete_row("auth.group", lambda world: world.testers, SUPERUSERS),
    AdminRow(
        "accounts.apitoken",
        "revoke_tokens",
        MODERATORS,
        lambda world: world.targets["victim_token"],
        lambda token: token.revoked_at is not None,
        asks=False,
    ),
    delete_row("accounts.apitoken", lambda world: world.targets["victim_token"], NOBODY),
]
