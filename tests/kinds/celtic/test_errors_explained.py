"""Every rule an illegal move can break is explained in words."""

from __future__ import annotations

import pytest

from games.kinds.celtic.errors import Rule


@pytest.mark.parametrize("rule", list(Rule))
def test_every_rule_has_an_explanation_ending_in_a_full_stop(rule: Rule) -> None:
    assert rule.explanation.endswith(".") and len(rule.explanation) > 20


def test_the_four_placement_rules_are_numbered_as_in_the_printed_rules() -> None:
    assert Rule.NOT_IN_SUPPLY.explanation.startswith("Rule 1:")
    assert Rule.NOT_DEMAND.explanation.startswith("Rule 2:")
    assert Rule.MISMATCH.explanation.startswith("Rule 3:")
    assert Rule.WINDOW.explanation.startswith("Rule 4:")
