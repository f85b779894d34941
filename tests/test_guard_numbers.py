"""Numbers on the command line are bounded, in one place, with clear errors (issue 40, finding 6)."""
from __future__ import annotations

import pytest

from _util import BLUFF, LIFE, playtest as run

from dsl.analyses import batches
from dsl.analyses.bounds import MAX_COMBINATIONS, MAX_GAMES, MAX_WORKERS

HUGE = 10**20


@pytest.mark.parametrize("command", [
    ["simulate", BLUFF, "-p", "2", "-n", HUGE],
    ["report", BLUFF, "-p", "2", "-n", HUGE],
    ["sweep", BLUFF, "-p", "2", "--param", "start_dice=4", "-n", HUGE],
    ["restrict", BLUFF, "-p", "2", "-n", HUGE],
    ["diff", BLUFF, LIFE, "-p", "2", "--simulate", HUGE],
    ["match", BLUFF, "-p", "2", "random", "random", "-n", HUGE],
    ["skill", BLUFF, "-p", "2", "-n", HUGE],
    ["fuzz", BLUFF, "-p", "2", "--max-examples", HUGE],
    ["report", BLUFF, "-p", "2", "--skill", "flat:2", "--skill-games", HUGE],
], ids=lambda c: c[0])
def test_a_huge_number_of_games_is_refused_before_any_game(command):
    r = run(*command)
    assert r.exit_code == 2
    assert f"{HUGE} is not in the range 1<=x<={MAX_GAMES}" in r.output


@pytest.mark.parametrize("command, message", [
    (["explore", BLUFF, "-p", "2", "--max-states", HUGE], f"{HUGE} is not in the range 1<=x<=10000000"),
    (["fuzz", BLUFF, "-p", "2", "--max-time", "1e300"], "1e+300 seconds is more than a week (604,800 seconds)"),
    (["simulate", BLUFF, "-p", "2", "--seed", HUGE], f"{HUGE} is not in the range"),
    (["match", BLUFF, "-p", "2", f"flat:{HUGE}", "random"], "agent A: 100,000,000,000,000,000,000 iterations a decision is more than 1,000,000"),
    (["simulate", BLUFF, "-p", "2", "--agents", "ismcts:5:time=1e200"], "--agents: 1e+200 seconds a decision is more than a week"),
    (["report", BLUFF, "-p", "2", "--skill", "ismcts:2000000"], "--skill: 2,000,000 iterations a decision is more than 1,000,000"),
])
def test_other_huge_numbers_are_refused(command, message):
    r = run(*command)
    assert r.exit_code == 2
    assert message in r.output


@pytest.mark.parametrize("values, count", [("1..1000000000", "1,000,000,000"), ("0..10**9", None),
                                           ("1..300,1..300", "600"), ("0..99999999999999999999..1", "100,000,000,000,000,000,000")])
def test_a_sweep_range_is_counted_before_it_is_listed(values, count):
    r = run("sweep", BLUFF, "-p", "2", "-n", "1", "--param", f"start_dice={values}")
    assert r.exit_code == 2
    if count:
        assert f"is {count} values, more than the {MAX_COMBINATIONS} combinations a sweep may have" in r.output
    else:
        assert "is not a list of whole numbers" in r.output


@pytest.fixture
def started(monkeypatch):
    """The number of processes each pool was asked for (it then plays in this one)."""
    asked = []
    real = batches.Pool.__init__

    def init(self, workers=1, scheduler=None):
        asked.append(workers)
        real(self, 1, scheduler)
    monkeypatch.setattr(batches.Pool, "__init__", init)
    monkeypatch.setattr(batches, "usable_cores", lambda: 2)
    return asked


def test_workers_past_the_cores_are_capped_at_them_with_a_note(started):
    r = run("simulate", BLUFF, "-p", "2", "-n", "4", "--workers", "200")
    assert r.exit_code == 0, r.output
    assert started == [2]
    assert "note: --workers 200: this machine has 2 cores, so the games are played in 2 processes " \
           "(--force-workers starts 200)" in r.output


def test_force_workers_starts_what_was_asked_up_to_the_bound(started):
    r = run("simulate", BLUFF, "-p", "2", "-n", "4", "--workers", "200", "--force-workers")
    assert r.exit_code == 0, r.output
    assert started == [200] and "note:" not in r.output
    r = run("simulate", BLUFF, "-p", "2", "-n", "4", "--workers", "999", "--force-workers")
    assert r.exit_code == 2
    assert f"999 processes is more than the {MAX_WORKERS} playtest starts on one machine" in r.output
    assert started == [200]


def test_workers_within_the_cores_and_auto_are_left_alone(started):
    for asked, expected in (("2", 2), ("1", 1), ("auto", None)):
        assert run("simulate", BLUFF, "-p", "2", "-n", "4", "--workers", asked).exit_code == 0
        assert started[-1] == expected
