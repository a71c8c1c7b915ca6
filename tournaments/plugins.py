"""Which pairing system pairs each tournament format.

The registry is filled in ``TournamentsConfig.ready()``; a format added later (the Swiss
Dutch system) registers itself the same way, and the services never import a pairing module
by name.
"""

from __future__ import annotations

from tournaments.errors import PairingFailed
from tournaments.pairing.base import PairingSystem

_SYSTEMS: dict[str, PairingSystem] = {}


def pairing_system_register(*, format: str, system: PairingSystem) -> None:
    """Use ``system`` to pair rounds of tournaments of ``format`` (replaces any earlier one)."""
    _SYSTEMS[format] = system


def pairing_system_for(*, format: str) -> PairingSystem:
    """The pairing system of ``format``; PairingFailed when none is installed."""
    try:
        return _SYSTEMS[format]
    except KeyError:
        raise PairingFailed(
            f"No pairing system is installed for {format!r} tournaments; "
            f"installed: {', '.join(sorted(_SYSTEMS)) or 'none'}.",
            code="no_pairing_system",
        ) from None


def pairing_formats() -> frozenset[str]:
    """The formats that can be paired now."""
    return frozenset(_SYSTEMS)
