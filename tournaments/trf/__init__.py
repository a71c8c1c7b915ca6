"""The FIDE Tournament Report File (TRF-2026): read and write, as pure functions."""

from tournaments.trf.report import TrfError, TrfTournament, format_trf, parse_trf

__all__ = ["TrfError", "TrfTournament", "format_trf", "parse_trf"]
