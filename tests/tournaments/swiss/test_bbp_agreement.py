"""The engine pairs as bbpPairings 6.0 (FIDE-endorsed) does, round for round.

Each case in ``bbp_cases/`` is a TRF file of a random event (our generator) before one of
its rounds and, beside it, what ``bbpPairings --dutch FILE -p`` printed for that round
(``python -m bench.swiss agree --bbp PATH --save DIR`` makes more). Same pairs, same
colours, same board order, same bye.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments.management.commands.tournament_pair import format_pairing, pair_file

CASES = sorted((Path(__file__).parent / "bbp_cases").glob("*.trf"))


def test_there_are_cases_from_several_events():
    assert len(CASES) >= 60
    assert len({case.name.split("-r")[0] for case in CASES}) >= 8


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_round_matches_bbppairings(case: Path):
    expected = case.with_suffix(".expected").read_text(encoding="utf-8")
    assert format_pairing(pair_file(case)) == expected
