"""The games the platform hosts: one package per kind, behind the contract of ``base``.

``get_kind("celtic")`` gives a kind; ``all_kinds()`` lists them. A kind is registered by
naming its module (which defines ``KIND``) in ``BUILT_IN``, or at run time with ``register``
(the tests' own kinds do that). See docs/GAME-KINDS.md.
"""

from __future__ import annotations

import functools
import importlib

from games.kinds.base import GameKind, KindError

BUILT_IN: tuple[str, ...] = ("games.kinds.celtic.kind", "games.kinds.knot.kind")
"""The modules of the kinds every installation hosts, each defining ``KIND``."""

DEFAULT_KIND = "celtic"

_registry: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    """Host ``kind`` from now on (its id must be new)."""
    _load_built_in()
    if kind.id in _registry and _registry[kind.id] is not kind:
        raise KindError(f"A game kind with the id {kind.id!r} is already registered.")
    _registry[kind.id] = kind
    return kind


def unregister(kind_id: str) -> None:
    """Stop hosting a kind registered with ``register`` (for tests)."""
    _registry.pop(kind_id, None)


def get_kind(kind_id: str) -> GameKind:
    """The kind with this id; ``KindError`` naming the known ids otherwise."""
    _load_built_in()
    try:
        return _registry[kind_id]
    except KeyError:
        known = ", ".join(sorted(_registry))
        raise KindError(f"Unknown game kind {kind_id!r}: expected one of {known}.") from None


def all_kinds() -> list[GameKind]:
    """Every hosted kind, the built-in ones first."""
    _load_built_in()
    return list(_registry.values())


@functools.cache
def _load_built_in() -> None:
    """Import the built-in kinds and register them, once (later calls cost nothing)."""
    for module in BUILT_IN:
        kind: GameKind = importlib.import_module(module).KIND
        _registry.setdefault(kind.id, kind)
