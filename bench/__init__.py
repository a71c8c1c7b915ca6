"""Benchmarks with their own commands (``python -m bench.engine``, ``python -m bench.ratings``).

Timings live here and in docs/BENCHMARKS.md, never as assertions in tests.
"""
