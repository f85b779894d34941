"""Streaming analyses: each game is folded into a running summary and dropped; summaries of
any split of the games merge to the one-process figures to the byte, in one process, in 1, 2
or 3 workers and on a Dask cluster; and a summary does not grow with the number of games."""
from __future__ import annotations

import json
import pickle
import statistics

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from dsl.agents.match import MatchTally, _match_game
from dsl.agents import RandomAgent
from dsl.analyses import batches
from dsl.analyses.metrics import Tally
from dsl.analyses.simulate import _empty, declared_score, game_rng, play, simulate
from dsl.analyses.stats import Histogram, mean_interval
from dsl.cli import main

from _util import BLUFF, DEMOCRACY, game_of

SIMULATE = ["simulate", str(DEMOCRACY), "-p", "3", "-n", "48", "--seed", "2", "--json"]
SWEEP = ["sweep", str(DEMOCRACY), "--param", "target=3..4", "-p", "4", "-n", "24", "--json"]


def _out(args) -> str:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    return res.stdout


def _report(tmp_path, name, extra) -> list:
    base = tmp_path / name / "democracy"
    res = CliRunner().invoke(main, ["report", str(DEMOCRACY), "-p", "3", "-n", "30", "-o", str(base)] + extra)
    assert res.exit_code == 0, res.output
    return [(base.parent / f"democracy{s}").read_bytes() for s in (".json", ".csv", ".html")]


@pytest.fixture(scope="module")
def democracy_logs():
    """40 games of Democracy with 3 players, each as (Played, GameLog): dead ends, a score."""
    game = game_of(str(DEMOCRACY), 3)
    score = declared_score(game)
    return game, score, [play(game, game_rng(2, i), i, None, score[1]) for i in range(40)]


def _summary(game, score, games):
    s = _empty(game, 2, None, score[0])
    for p, log in games:
        s.add(p, log)
    return s


@settings(max_examples=25, deadline=None)
@given(cuts=st.lists(st.integers(1, 39), max_size=6, unique=True))
def test_summaries_of_any_split_merge_to_the_one_pass_figures(democracy_logs, cuts):
    game, score, games = democracy_logs
    whole = _summary(game, score, games)
    bounds = [0] + sorted(cuts) + [len(games)]
    merged = _empty(game, 2, None, score[0])
    for a, b in zip(bounds, bounds[1:]):
        merged.merge(_summary(game, score, games[a:b]))
    assert json.dumps(merged.to_json(), sort_keys=True) == json.dumps(whole.to_json(), sort_keys=True)
    # and the split into parts changes nothing even merged the other way round (exact sums commute)
    backwards = Tally(3, whole.teams, True)
    for a, b in reversed(list(zip(bounds, bounds[1:]))):
        backwards.merge(_summary(game, score, games[a:b]).tally)
    assert backwards.figures() == whole.tally.figures()


def test_the_figures_are_those_of_the_whole_list(democracy_logs):
    game, score, games = democracy_logs
    s = _summary(game, score, games)
    lengths = [log.decisions for _, log in games]
    d = s.to_json()["metrics"]["decisions"]
    q = statistics.quantiles(lengths, n=4, method="inclusive")
    assert (d["mean"], d["sd"], d["q1"], d["median"], d["q3"]) == (
        round(statistics.fmean(lengths), 3), round(statistics.stdev(lengths), 3), round(q[0], 3), round(q[1], 3),
        round(q[2], 3))
    assert s.to_json()["median_turns"] == statistics.median(lengths)
    assert s.tally.games == 40 and s.to_json()["dead_end_games"] > 0 and s.to_json()["score_by"] == "tribe"


@given(st.lists(st.one_of(st.integers(-50, 50), st.floats(-1e3, 1e3, allow_nan=False)), min_size=2, max_size=60))
def test_a_histogram_gives_statistics_to_the_bit(values):
    h = Histogram.of(values)
    assert h.mean() == statistics.fmean(values)
    assert h.stdev() == statistics.stdev(values)
    assert h.quartiles() == statistics.quantiles(values, n=4, method="inclusive")
    assert h.median() == statistics.median(values)
    assert Histogram.of_pairs(h.pairs()) == h


def test_a_summary_does_not_grow_with_the_games():
    game = game_of(str(BLUFF), 3)
    sizes = []
    s = _empty(game, 1, None, None)
    for i in range(1600):
        s.add(*play(game, game_rng(1, i), i))
        if i + 1 in (400, 1600):
            sizes.append(len(pickle.dumps(s.tally)) + len(pickle.dumps(s.turns)))
    # four times the games: the same counters, a few more distinct lengths at most
    assert sizes[1] < sizes[0] * 1.2, sizes


def test_match_tallies_of_any_split_merge_exactly():
    game = game_of(str(BLUFF), 3)
    ends = [_match_game(game, RandomAgent(), RandomAgent(), 2, i) for i in range(30)]
    whole = MatchTally(3)
    for i, e in enumerate(ends):
        whole.fold(i, e)
    for cut in (1, 7, 29):
        a, b = MatchTally(3), MatchTally(3)
        for i, e in enumerate(ends):
            (a if i < cut else b).fold(i, e)
        a.merge(b)
        assert vars(a) == vars(whole)
    assert mean_interval(whole.gaps) == mean_interval([g for g, k in whole.gaps.counts.items() for _ in range(k)])


def test_simulate_report_and_sweep_are_the_same_from_1_2_3_workers_and_a_dask_cluster(tmp_path, monkeypatch):
    distributed = pytest.importorskip("distributed")
    alone = [_out(SIMULATE), _out(SWEEP), _report(tmp_path, "alone", [])]
    for workers in ("1", "2", "3"):
        assert [_out(SIMULATE + ["--workers", workers]), _out(SWEEP + ["--workers", workers]),
                _report(tmp_path, workers, ["--workers", workers])] == alone, f"--workers {workers} differs"
    # batches of a few games, so the cluster has several summaries to merge
    monkeypatch.setattr(batches, "DASK_BATCH_SECONDS", 0.0)
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1, dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert [_out(SIMULATE + ["--scheduler", address]), _out(SWEEP + ["--scheduler", address]),
                _report(tmp_path, "dask", ["--scheduler", address])] == alone
        done = {t.key for t in cluster.scheduler.transition_log if t.finish == "memory"}
        assert sum(k.startswith("_simulate_batch") for k in done) >= 3 * 4
    data = json.loads(alone[0])
    assert data["games"] == 48 and data["dead_end_games"] > 0 and data["metrics"]["score"]["games"] == 48


def test_without_option_use_every_other_figure_is_the_same():
    game = game_of(str(DEMOCRACY), 3)
    score = declared_score(game)
    full, lean = (simulate(game, 30, 2, score=score, options=o).to_json() for o in (True, False))
    assert "options" not in lean["metrics"] and "cards" not in lean["metrics"]
    assert full["metrics"]["options"] and full["metrics"]["cards"]
    del full["metrics"]["options"], full["metrics"]["cards"]
    assert lean == full
