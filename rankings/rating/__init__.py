"""Rating maths as pure functions: no Django, no ORM, no I/O.

`elo` and `glicko2` update one player; `history` replays a chronological sequence of
results into per-player states and is the single code path used by the incremental
update, the full recomputation, `ratings_replay` and the benchmark.
"""
