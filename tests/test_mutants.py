"""A slice of `make mutate` (scripts/mutate.py): the same mutants of the seed games, checked
and played under the same bounds, with no traceback and no run over the bound."""
from __future__ import annotations

import pytest

import mutants

BASE = mutants.sources()


@pytest.mark.parametrize("first", range(0, 60, 20))
def test_mutants_raise_nothing_and_stay_in_bounds(first):
    total = mutants.Tally()
    for i in range(first, first + 20):
        total.add(mutants.try_one(i, BASE, seed=7))
    assert total.failures == []
    assert total.checkable > 0          # the slice does reach play, not only the checker
