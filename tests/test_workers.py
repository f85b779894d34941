"""--workers and --scheduler: one process, several, or a Dask cluster give byte-identical output."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from dsl.analyses import batches
from dsl.cli import main

from _util import BLUFF, DEMOCRACY, GAMES, ROOT

FUZZ = ["fuzz", str(BLUFF), "-p", "2", "--max-examples", "250", "--seed", "1", "--json"]
SIMULATE = ["simulate", str(DEMOCRACY), "-p", "3", "-n", "40", "--seed", "2", "--json"]


def _out(args) -> str:
    res = CliRunner().invoke(main, args)
    assert res.exit_code == 0, res.output
    return res.stdout


def _same_for_any_workers(args) -> str:
    one = _out(args + ["--workers", "1"])
    for workers in ("2", "3"):
        assert _out(args + ["--workers", workers]) == one, f"--workers {workers} differs"
    return one


def test_split_covers_every_game_once_in_order():
    for total in (1, 7, 40, 1000):
        for workers in (1, 2, 3, 8):
            parts = batches.Pool(workers).split(total)
            assert [i for r in parts for i in r] == list(range(total))
    assert [len(r) for r in batches.Pool(2).split(40)] == [5] * 8         # 4 batches a worker
    assert [len(r) for r in batches.Pool(3).split(7)] == [1] * 7
    on_dask = batches.Pool(2, scheduler="tcp://nowhere:8786")        # split() needs no connection
    assert [len(r) for r in on_dask.split(250)] == [100, 100, 50]
    searcher = type("Agent", (), {"name": "ismcts:100"})()
    assert [len(r) for r in on_dask.split(25, [None, searcher])] == [10, 10, 5]


def test_simulate_dead_ends_and_scores_are_byte_identical():
    data = json.loads(_same_for_any_workers(SIMULATE))
    # the merge has something to merge: dead ends (with their shortest example) and a score
    assert data["games"] == 40 and data["dead_end_games"] > 0 and data["score_by"] == "tribe"


def test_simulate_team_wins_are_byte_identical():
    data = json.loads(_same_for_any_workers(["simulate", str(GAMES / "dream-duels.rules"), "-p", "4", "-n", "24",
                                             "--json"]))
    assert sum(data["wins_by_team"].values()) > 0


def test_simulate_payoffs_are_byte_identical():
    data = json.loads(_same_for_any_workers(["simulate", str(ROOT / "tests" / "fixtures" / "mini-poker.rules"),
                                             "-p", "2", "-n", "60", "--json"]))
    assert data["payoff_games"] == 60 and sum(data["mean_payoff_by_seat"].values()) == 0   # chips change hands


def test_report_files_with_skill_are_byte_identical(tmp_path):
    outputs = []
    for workers in ("1", "2", "3"):
        base = tmp_path / workers / "bluff"
        res = CliRunner().invoke(main, ["report", str(BLUFF), "-p", "2,3", "-n", "40", "--skill", "flat:3",
                                        "--skill-games", "10", "-o", str(base), "--workers", workers])
        assert res.exit_code == 0, res.output
        outputs.append([(base.parent / f"bluff{s}").read_bytes() for s in (".json", ".csv", ".html")])
    assert outputs[0] == outputs[1] == outputs[2]
    data = json.loads(outputs[0][0])
    assert data["configs"][0]["dead_end_games"] and data["skill"][1]["games"] == 10


def test_sweep_is_byte_identical():
    data = json.loads(_same_for_any_workers(["sweep", str(DEMOCRACY), "--param", "target=3..4", "-p", "3",
                                             "-n", "16", "--json"]))
    assert len(data["rows"]) == 2


def test_diff_simulate_is_byte_identical():
    data = json.loads(_same_for_any_workers(["diff", str(DEMOCRACY), str(ROOT / "variants" / "democracy-one-day.rules"),
                                             "--simulate", "24", "-p", "3", "--format", "json"]))
    assert data["behaviour"]["games"] == 24 and data["behaviour"]["metrics"]


def test_match_is_byte_identical():
    data = json.loads(_same_for_any_workers(["match", str(BLUFF), "flat:3", "random", "-p", "2", "-n", "30",
                                             "--json"]))
    assert data["games"] == 30


def test_fuzz_discovery_split_by_batch_is_byte_identical():
    data = json.loads(_same_for_any_workers(FUZZ))
    # three batches of 100, 100 and 50 games, each finding's hits added up across them
    assert (data["examples"], data["batches"]) == (250, 3)
    [finding] = data["findings"]
    assert finding["kind"] == "no case applies" and finding["hits"] == data["outcomes"]["dead_ends"] == 22


@pytest.fixture(scope="module")
def three_findings(tmp_path_factory) -> list:
    """fuzz of a rule file with three findings (tests/test_explore.py's BROKEN), one batch."""
    from test_explore import BROKEN
    path = tmp_path_factory.mktemp("fuzz") / "broken.rules"
    path.write_text(BROKEN, encoding="utf-8")
    return ["fuzz", str(path), "-p", "2", "--max-examples", "100", "--seed", "3", "--json"]


def _maps(monkeypatch) -> list:
    """(function, tasks) for each map of the pools of this test over their workers."""
    names = []
    map_ = batches.Pool.map

    def spy(pool, fn, tasks, *args, **kw):
        names.append((fn.__name__, len(tasks)))
        return map_(pool, fn, tasks, *args, **kw)
    monkeypatch.setattr(batches.Pool, "map", spy)
    return names


def test_fuzz_shrinks_each_finding_in_a_worker_of_its_own_with_the_same_report(monkeypatch, three_findings):
    maps = _maps(monkeypatch)
    data = json.loads(_same_for_any_workers(three_findings))
    assert [(f["rule"], f["kind"]) for f in data["findings"]] == [
        ("play", "tie not covered"), ("settle", "no case applies"), ("spin_forever", "step limit")]
    assert all(f["reproduction"]["shrunk"] and f["reproduction"]["replays"] for f in data["findings"])
    # with 2 and 3 workers: the one discovery batch, then the three findings
    assert maps == [("_discover_batch", 1), ("_shrink_batch", 3)] * 2


def test_auto_workers_shrink_in_workers_once_the_run_proves_long(monkeypatch, every_run_is_long, three_findings):
    maps = _maps(monkeypatch)
    one = _out(three_findings + ["--workers", "1"])
    assert maps == []
    # the one batch of games here (nothing left to give the workers), then the three findings there
    assert _out(three_findings + ["--workers", "auto"]) == one
    assert maps == [("_shrink_batch", 3)]


def test_a_local_dask_cluster_gives_the_single_process_output(monkeypatch, three_findings):
    distributed = pytest.importorskip("distributed")
    monkeypatch.setattr(batches, "DASK_MIN_GAMES", 10)      # several tasks from a small run
    # no game timed here first: the batches are then DASK_MIN_GAMES long, whatever the clock says
    monkeypatch.setattr(batches, "timed_here", lambda total, play: 0)
    alone = [_out(SIMULATE), _out(FUZZ), _out(three_findings)]
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        assert [_out(args + ["--scheduler", address]) for args in (SIMULATE, FUZZ, three_findings)] == alone
        done = {t.key for t in cluster.scheduler.transition_log if t.finish == "memory"}
        # 40 games in batches of 10; 250 fuzz games in batches of 100, then 100 more, whose
        # three findings are shrunk one a task (the 250 games' one finding is shrunk here)
        assert sum(k.startswith("_simulate_batch") for k in done) == 4
        assert sum(k.startswith("_discover_batch") for k in done) == 4
        assert sum(k.startswith("_shrink_batch") for k in done) == 3


def test_a_bad_scheduler_address_is_one_clear_line():
    res = CliRunner().invoke(main, SIMULATE + ["--scheduler", "nonsense"])
    assert res.exit_code == 2
    assert res.output.startswith("error: --scheduler: 'nonsense' cannot be a Dask scheduler's address")
    assert res.output.count("\n") == 1 and "Traceback" not in res.output


@pytest.fixture
def every_run_is_long(monkeypatch):
    """--workers auto on two cores, where every run counts as long: its first game (fuzz: batch)
    is played in this process, the rest by the workers."""
    monkeypatch.setattr(batches, "AUTO_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(batches, "AUTO_REST_SECONDS", 0.0)
    monkeypatch.setattr(batches, "usable_cores", lambda: 2)


def test_auto_workers_spread_a_long_run_and_change_nothing(monkeypatch, every_run_is_long):
    grown = []
    grows = batches.Pool.grows

    def spy(pool, seconds, left):
        if grows(pool, seconds, left):
            grown.append(pool.workers)
            return True
        return False
    monkeypatch.setattr(batches.Pool, "grows", spy)
    match = ["match", str(BLUFF), "flat:3", "random", "-p", "2", "-n", "30", "--json"]
    for args in (SIMULATE, match, FUZZ):
        one = _out(args + ["--workers", "1"])
        assert not grown
        assert _out(args + ["--workers", "auto"]) == one
        assert grown == [2]
        grown.clear()
    assert json.loads(one)["batches"] == 3       # the fuzz run: one batch here, two in the workers


def test_a_short_run_stays_in_this_process():
    with batches.Pool(None) as pool:
        assert batches.played_here(pool, 50, lambda i: None) == 50
        assert not pool.parallel and pool._executor is None


@pytest.mark.parametrize("value", ["0", "-2", "many"])
def test_workers_is_a_number_or_auto(value):
    res = CliRunner().invoke(main, SIMULATE + ["--workers", value])
    assert res.exit_code == 2
    assert f"'{value}' is neither a number of processes (1 or more) nor 'auto'" in res.output


def test_fuzz_with_workers_stops_at_max_time_even_with_max_examples():
    # each wave is one batch a worker, started only before the deadline (it once sent every batch at once)
    data = json.loads(_out(["fuzz", str(BLUFF), "-p", "4", "--max-examples", "20000", "--max-time", "1",
                            "--json", "--workers", "2"]))
    assert data["stopped_because"] == "max_time" and data["examples"] < 20000


def test_auto_stays_in_this_process_where_processes_cannot_start(monkeypatch, every_run_is_long):

    def no_processes(workers, **options):
        raise NotImplementedError("no sem_open on this system")
    monkeypatch.setattr(batches, "ProcessPoolExecutor", no_processes)
    assert _out(SIMULATE + ["--workers", "auto"]) == _out(SIMULATE + ["--workers", "1"])


def _children(pid: int) -> set:
    kids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue                    # a process that ended while we looked
        if int(fields[1]) == pid:
            kids.add(int(stat.parent.name))
    return kids


def _stopped_with_workers(stop) -> tuple:
    """A simulation of a million Democracy games on two workers (batches of about two minutes
    each), stopped by stop(pid) once both workers play: its exit code and standard error, after
    checking that its workers ended with it, within a guard far shorter than a batch."""
    # as in a terminal, Ctrl-C raises KeyboardInterrupt in the command, even where this test
    # itself was started with SIGINT ignored (a shell's background job), which a child inherits
    command = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
               "sys.argv = ['playtest'] + sys.argv[1:]; runpy.run_module('dsl.cli', run_name='__main__')")
    run = subprocess.Popen([sys.executable, "-c", command, "simulate", str(DEMOCRACY), "-p", "4", "-n", "1000000",
                            "--workers", "2"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           start_new_session=True, text=True)
    try:
        for _ in range(600):            # the workers start once the game is loaded
            workers = _children(run.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(0.5)                 # into their first batches
        stop(run.pid)
        _, err = run.communicate(timeout=60)     # the workers hold its output open while they live
        for _ in range(100):
            if not any(map(_running, workers)):
                break
            time.sleep(0.1)
        assert not any(map(_running, workers)), "a worker outlived the command"
    finally:
        try:
            os.killpg(run.pid, signal.SIGKILL)      # what is left of it, on a failure: no worker left behind
        except ProcessLookupError:
            pass
        run.wait()
    return run.returncode, err


def _running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
def test_ctrl_c_stops_the_workers_at_once():
    """Ctrl-C reaches the command and its workers (one process group, as in a terminal): the
    command ends without a traceback and takes its workers with it."""
    code, err = _stopped_with_workers(lambda pid: os.killpg(pid, signal.SIGINT))
    assert code != 0 and "Traceback" not in err, err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
def test_kill_stops_the_workers_with_the_command():
    """SIGTERM to the command alone (`kill PID`): it ends its workers, then ends by the signal,
    as a command without workers does."""
    code, err = _stopped_with_workers(lambda pid: os.kill(pid, signal.SIGTERM))
    assert code == -signal.SIGTERM and "Traceback" not in err, err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the processes from /proc")
def test_workers_end_when_the_command_is_killed_outright():
    """kill -9 (or the OOM killer) gives the command no chance to stop its workers: they notice
    their parent is gone and end by themselves, rather than play their batches for nobody."""
    run = subprocess.Popen([sys.executable, "-m", "dsl.cli", "simulate", str(DEMOCRACY), "-p", "4", "-n", "1000000",
                            "--workers", "2"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    workers = set()
    try:
        for _ in range(600):
            workers = _children(run.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(0.5)                 # into their first batches
        run.kill()
        run.wait()
        for _ in range(50):             # a guard of 5 s, far shorter than a batch
            if not any(map(_running, workers)):
                break
            time.sleep(0.1)
        assert not any(map(_running, workers)), "a worker outlived the command killed with SIGKILL"
    finally:
        for pid in workers:
            try:
                os.kill(pid, signal.SIGKILL)    # on a failure: no worker left behind
            except ProcessLookupError:
                pass


def _slow_batch(games: int) -> int:
    for _ in range(games):
        time.sleep(0.05)
        batches.played()
    return games


def test_the_progress_bar_hears_of_games_as_the_workers_play_them(monkeypatch):
    monkeypatch.setattr(batches, "TICK_SECONDS", 0.1)
    with batches.Pool(2) as pool:
        heard = []
        assert pool.map(_slow_batch, [10, 10], heard.append, [10, 10]) == [10, 10]
        assert sum(heard) == 20
        assert len(heard) > 2 and min(heard) < 10, "told only as each batch ended"
        again = []                      # the same workers: nothing of the run before is counted again
        assert pool.map(_slow_batch, [4], again.append, [4]) == [4]
        assert sum(again) == 4


def _failing_or_slow_batch(games: int) -> int:
    if games < 0:
        time.sleep(0.3)
        raise ValueError("a batch failed")
    return _slow_batch(games)


def test_a_failed_run_leaves_no_progress_to_the_next_on_the_same_workers(monkeypatch):
    """A run whose batch fails leaves its other batch playing, and telling its games; the next
    run on the same pool counts only its own."""
    monkeypatch.setattr(batches, "TICK_SECONDS", 0.1)
    with batches.Pool(2) as pool:
        with pytest.raises(ValueError):
            pool.map(_failing_or_slow_batch, [-1, 40], lambda n: None, [0, 40])
        heard = []
        assert pool.map(_slow_batch, [4, 4], heard.append, [4, 4]) == [4, 4]
        assert sum(heard) == 8 and min(heard) > 0, heard
