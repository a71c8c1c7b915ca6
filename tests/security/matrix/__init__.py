"""The permission matrix: what each role gets from every API endpoint and admin action.

Each app has a module in this package (``games.py``, ``accounts.py``, …) that exports
``API_ROWS`` (a list of :class:`ApiRow`) and ``ADMIN_ROWS`` (a list of :class:`AdminRow`).
:func:`collect` imports every module here, so a new app adds its rows by adding a module;
``tests/security/test_permission_matrix.py`` checks that every endpoint under ``/api/v1/``
and every registered admin action has exactly one row, and runs every cell with real
requests against the objects of :mod:`tests.security.matrix.world`. A module may also export
``COMPETITION_ROWS`` (:class:`CompetitionRow`): requests about one competition for the roles
a competition gives (its organiser, with and without the organise permission, another
organiser, an arbiter …), which the nine project roles cannot express.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.db.models import Model

    from tests.security.matrix.world import World

ANONYMOUS = "anonymous"
PLAYER = "player"  # plays Orange in the world's game, to move; the challenge is addressed to them
OPPONENT = "opponent"  # plays Blue in that game; made the challenge
OUTSIDER = "outsider"  # another user: plays in neither
SUSPENDED = "suspended"  # a suspended user (their API token predates the suspension)
REVOKED_TOKEN = "revoked_token"  # an active user sending a revoked API token
STAFF = "staff"  # is_staff, no permission, no group
MODERATOR = "moderator"  # staff in the Moderators group (moderation.roles)
SUPERUSER = "superuser"

ROLES: tuple[str, ...] = (
    ANONYMOUS,
    PLAYER,
    OPPONENT,
    OUTSIDER,
    SUSPENDED,
    REVOKED_TOKEN,
    STAFF,
    MODERATOR,
    SUPERUSER,
)
# The admin is used with a session: a revoked API token means nothing there.
ADMIN_ROLES: tuple[str, ...] = tuple(role for role in ROLES if role != REVOKED_TOKEN)
USERS: tuple[str, ...] = tuple(role for role in ROLES if role != ANONYMOUS)
PLAIN_USERS = frozenset({PLAYER, OPPONENT, OUTSIDER})
MODERATORS = frozenset({MODERATOR, SUPERUSER})
SUPERUSERS = frozenset({SUPERUSER})
NOBODY: frozenset[str] = frozenset()


def expect(default: int, **by_role: int) -> dict[str, int]:
    """The status each role gets: ``default`` unless named. A token that does not work (the
    suspended user's, a revoked one) gets 401 everywhere unless named."""
    unknown = set(by_role) - set(ROLES)
    if unknown:
        raise ValueError(f"Unknown roles {sorted(unknown)}; the roles are {', '.join(ROLES)}.")
    statuses = {role: default for role in ROLES}
    statuses[SUSPENDED] = statuses[REVOKED_TOKEN] = 401
    statuses.update(by_role)
    return statuses


Body = Mapping[str, Any] | Callable[["World"], Mapping[str, Any]] | None


@dataclass(frozen=True)
class ApiRow:
    """One endpoint and method, and the status each role gets.

    ``route`` is written as the URL configuration gives it, with ``{name}`` for each
    converter (``/api/v1/games/{game_id}/``); the world fills the names in (``World.ids``),
    unless ``ids`` gives other values. Every cell runs on a fresh world.
    """

    method: str
    route: str
    expect: Mapping[str, int]
    body: Body = None
    ids: Callable[[World], Mapping[str, Any]] | None = None
    query: Mapping[str, str] = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.method, self.route)


@dataclass(frozen=True)
class AdminRow:
    """One admin action: the roles that are offered it, shown its reason or confirmation
    page, and whose POST applies it.

    ``target`` picks the object selected; ``confirm`` is what the action's page posts back;
    ``done`` tells, from the target read again (``None`` once deleted), whether the action
    took effect. ``asks`` is False for an action that applies at once, without a page.
    """

    model: str  # "app_label.model_name"
    action: str
    allowed: frozenset[str]
    target: Callable[[World], Model]
    done: Callable[[Model | None], bool]
    confirm: Mapping[str, Any] | Callable[[World], Mapping[str, Any]] = field(default_factory=dict)
    asks: bool = True

    @property
    def key(self) -> tuple[str, str]:
        return (self.model, self.action)


def deleted(obj: object | None) -> bool:
    return obj is None


def delete_row(model: str, target: Callable[[World], Model], allowed: frozenset[str]) -> AdminRow:
    """The admin's ``delete_selected`` on ``model``, confirmed."""
    return AdminRow(model, "delete_selected", allowed, target, deleted, {"post": "yes"})


# --- The roles a competition gives (tournaments, leagues, ladders) ---------------------------
# Who runs a competition is one rule (``moderation.roles.organiser_or_staff_may``); these roles
# are relative to one competition, so each competition's module says who plays them
# (``CompetitionRow.actor``). ANONYMOUS, PLAYER (a player of the competition), STAFF (no
# permission) and SUPERUSER keep their meaning.
ORGANISER = "organiser"  # organises it and holds the organise permission of its kind
LAPSED_ORGANISER = "lapsed_organiser"  # organises it but lost the organise permission
OTHER_ORGANISER = "other_organiser"  # not staff; holds the organise and the staff permissions
ARBITER = "arbiter"  # staff holding the kind's permissions for every competition of it

COMPETITION_ROLES: tuple[str, ...] = (
    ANONYMOUS,
    PLAYER,
    STAFF,
    ORGANISER,
    LAPSED_ORGANISER,
    OTHER_ORGANISER,
    ARBITER,
    SUPERUSER,
)


@dataclass(frozen=True)
class CompetitionRow:
    """A request about one competition (an API endpoint, a page, an admin list or action),
    the status each competition role gets and whether it took effect.

    ``actor`` gives the user of each role (None for anonymous), built in the cell; ``api``
    sends that user's API token and a JSON body, else a session and a form. ``changed``
    tells, from the world after the request, whether it took effect: it must for the roles
    in ``changes_for`` and for no other.
    """

    name: str
    method: str
    path: Callable[[World], str]
    expect: Mapping[str, int]
    actor: Callable[[World, str], Any]
    body: Body = None
    api: bool = False
    changed: Callable[[World], bool] | None = None
    changes_for: frozenset[str] = frozenset()


def collect() -> tuple[list[ApiRow], list[AdminRow]]:
    """Every row of every module in this package."""
    api_rows: list[ApiRow] = []
    admin_rows: list[AdminRow] = []
    for module in _modules():
        api_rows.extend(getattr(module, "API_ROWS", []))
        admin_rows.extend(getattr(module, "ADMIN_ROWS", []))
    return api_rows, admin_rows


def collect_competition_rows() -> list[CompetitionRow]:
    """Every module's ``COMPETITION_ROWS``."""
    return [row for module in _modules() for row in getattr(module, "COMPETITION_ROWS", [])]


def _modules() -> list[Any]:
    return [
        importlib.import_module(f"{__name__}.{info.name}")
        for info in pkgutil.iter_modules(__path__)
        if info.name != "world"
    ]
