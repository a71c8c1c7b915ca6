"""The FIDE Tournament Report File (TRF-2026): read and write, as pure functions."""
