"""Which pairing system pairs each tournament format, and which format object runs it.

The registries are filled in ``TournamentsConfig.ready()``; a format added later (the Swiss
Dutch system) registers itself the same way, and the services never import a pairing module
or a format by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tournaments.errors import InvalidSettings, PairingFailed
from tournaments.pairing.base import PairingSystem

if TYPE_CHECKING:
    from tournaments.services.formats.base import TournamentFormat

_SYSTEMS: dict[str, PairingSystem] = {}
_FORMATS: dict[str, TournamentFormat] = {}


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


def tournament_format_register(*, format: str, handler: TournamentFormat) -> None:
    """Run tournaments of ``format`` by ``handler`` (replaces any earlier one)."""
    _FORMATS[format] = handler


def tournament_format_lookup(*, format: str) -> TournamentFormat | None:
    """The format object of ``format``, or None when none is registered."""
    return _FORMATS.get(format)


def tournament_format_for(*, format: str) -> TournamentFormat:
    """The format object of ``format``; InvalidSettings when none is registered."""
    handler = _FORMATS.get(format)
    if handler is None:
        raise InvalidSettings(
            f"No tournament format {format!r} is installed; "
            f"installed: {', '.join(sorted(_FORMATS)) or 'none'}.",
            code="unknown_format",
        )
    return handler


def tournament_formats() -> dict[str, TournamentFormat]:
    """Every registered format object, by format."""
    return dict(_FORMATS)
