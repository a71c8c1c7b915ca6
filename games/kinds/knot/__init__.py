"""Celtic Knot, Jonathan A. Leistiko's race game for 2 to 6 players: pure Python, no Django.

The rules are /work/shared/KNOT-RULES.md's; docs/KNOT.md describes the engine. Layers:
``board`` (the one map and the tables computed from it), ``core`` (the game on integers, and
``random_playout``), ``state`` (the contract's ``State``: text choices and steps, checked),
``record``, ``render`` and ``kind`` (``KIND``, registered in ``games.kinds``).
"""
