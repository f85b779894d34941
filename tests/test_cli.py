"""`simulate` and `replay` on the command line."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from _util import BLUFF, DEMOCRACY, ROOT, line_of, rules_text

from dsl.analyses import replay as replay_mod
from dsl.cli import main
from dsl.engine import CHANCE, Game
from dsl.loader import load
from dsl.analyses.simulate import game_rng, play_random


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r


@pytest.fixture(scope="module")
def sim_dir(tmp_path_factory):
    """One simulation with saved dead ends, shared by the replay tests."""
    out = tmp_path_factory.mktemp("dead-ends")
    r = run("simulate", BLUFF, "--players", 4, "-n", 300, "--seed", 1, "--json", "--save-dead-ends", out)
    assert r.exit_code == 0, r.output
    return out, json.loads(r.stdout)


def test_simulate_json_summary():
    r = run("simulate", BLUFF, "--players", 4, "-n", 300, "--seed", 1, "--json")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    for key in ("games", "dead_ends", "win_rate_by_seat", "mean_turns"):
        assert key in j
    assert j["games"] == 300
    assert sorted(j["win_rate_by_seat"]) == ["1", "2", "3", "4"]
    wins = j.get("wins_by_seat")
    if wins is not None:
        for seat, rate in j["win_rate_by_seat"].items():
            assert rate == pytest.approx(wins[seat] / 300, abs=1e-4)
    dead = sum(d["count"] for d in j["dead_ends"])
    total_rate = sum(j["win_rate_by_seat"].values())
    # every game is a win for one seat or a dead end (Bluff has no draws)
    assert total_rate * 300 + dead == pytest.approx(300, abs=0.1)
    assert dead > 0, "300 games of Bluff without the exact-count dead end is implausible"
    # the only dead end of the base rules is the exact count, in resolve_challenge
    text = rules_text(BLUFF)
    start, end = line_of(text, "rule resolve_challenge"), line_of(text, "value dice_in_play")
    for d in j["dead_ends"]:
        assert d["rule"] == "resolve_challenge"
        assert d["kind"] == "no case applies"
        m = re.search(r":(\d+):(\d+)$", d["where"])
        assert m and start <= int(m.group(1)) < end
    # a game has at least an opening bid and a call; 4 players * 5 dice bound it from above
    assert 2 <= j["mean_turns"] <= 4 * 5 * 100


def test_simulate_table_output():
    r = run("simulate", BLUFF, "--players", 3, "-n", 50, "--seed", 2)
    assert r.exit_code == 0
    assert "resolve_challenge" in r.output or "no dead ends" in r.output
    for seat in ("1", "2", "3"):
        assert re.search(rf"^\s+{seat}\s+\d+", r.output, re.M)


def test_simulate_seed_changes_the_games():
    a = json.loads(run("simulate", BLUFF, "--players", 3, "-n", 100, "--seed", 1, "--json").stdout)
    b = json.loads(run("simulate", BLUFF, "--players", 3, "-n", 100, "--seed", 2, "--json").stdout)
    assert (a["win_rate_by_seat"], a["mean_turns"]) != (b["win_rate_by_seat"], b["mean_turns"])


@pytest.mark.parametrize("bad", [["-n", "0"], ["--players", "x"], []])
def test_simulate_bad_arguments_exit_2(bad):
    args = ["simulate", str(BLUFF)] + (bad if "--players" in bad else ["--players", "3"] + bad)
    if not bad:
        args = ["simulate", str(BLUFF)]               # Bluff is for 2 to 6 players: --players must say
    r = run(*args)
    assert r.exit_code == 2


@pytest.mark.parametrize("command", [["simulate", "-n", 30], ["fuzz", "--max-examples", 20], ["explore"],
                                     ["restrict", "-n", 20], ["match", "random", "random", "-n", 4],
                                     ["skill", "--levels", "random", "-n", 4], ["diff", "--simulate", 20]])
def test_players_may_be_left_out_for_a_game_of_one_number_only(command, tmp_path):
    name, *rest = command
    ttt = str(ROOT / "games" / "tictactoe.rules")
    files = [ttt, ttt] if name == "diff" else [ttt]
    left_out = run(name, *files, *rest, "--json" if name not in ("diff",) else "--format=json")
    given = run(name, *files, *rest, "--players", 2, "--json" if name not in ("diff",) else "--format=json")
    assert left_out.exit_code == 0, left_out.output
    assert left_out.stdout == given.stdout
    bluff = run(name, *([BLUFF, BLUFF] if name == "diff" else [BLUFF]), *rest)
    assert bluff.exit_code == 2
    assert "bluff is for 2 to 6 players: say how many with --players N" in bluff.output


def test_save_dead_ends_writes_replays(sim_dir):
    out, j = sim_dir
    files = sorted(Path(out).glob("*.json"))
    assert len(files) == len(j["dead_ends"]) >= 1
    assert sorted(j.get("saved", [str(f) for f in files])) == sorted(str(f) for f in files)
    rules, _ = load(str(BLUFF))
    game = Game(rules, 4)
    for f in files:
        rep = replay_mod.load(str(f))
        assert rep.players == 4 and rep.seed == 1
        assert rep.actions
        s = replay_mod.run(game, rep.actions, log=False)
        assert s.dead_end is not None
        assert s.dead_end.rule == "resolve_challenge"
        # the saved game is the one of that index in the run
        assert play_random(game, game_rng(1, rep.index), rep.index).actions == rep.actions


@pytest.mark.parametrize("lang, marker", [("en", "DEAD END"), ("ja", "行き止まり")])
def test_replay_narrates_to_the_dead_end(sim_dir, lang, marker):
    out, _ = sim_dir
    f = sorted(Path(out).glob("*.json"))[0]
    r = run("replay", f, "--lang", lang)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert any(marker in l for l in lines)
    dead_line = max(i for i, l in enumerate(lines) if marker in l)
    # nothing of the game is told after the dead end (only the closing state line)
    assert all(l.startswith("state ") for l in lines[dead_line + 1:]), lines[dead_line:]
    rules, _ = load(str(BLUFF))
    rep = replay_mod.load(str(f))
    final = replay_mod.run(Game(rules, rep.players), rep.actions, log=False)
    assert f"state {final.digest()}" in r.output
    if lang == "ja":
        assert "ブラフ" in r.output                  # the rule file's own Japanese titles
    else:
        assert "resolve_challenge" in r.output or "Settle the challenge" in r.output


def _corrupt(src: Path, dst: Path, edit):
    data = json.loads(src.read_text(encoding="utf-8"))
    edit(data)
    dst.write_text(json.dumps(data), encoding="utf-8")
    return dst


def test_replay_of_a_corrupted_file_exits_1(sim_dir, tmp_path):
    out, _ = sim_dir
    f = sorted(Path(out).glob("*.json"))[0]
    data = json.loads(f.read_text(encoding="utf-8"))
    # the last decision of the game (the call that led to the dead end) made illegal:
    # a raise to face 0 is never legal
    k = max(i for i, (actor, move) in enumerate(data["actions"]) if actor != CHANCE)

    def illegal(d):
        d["actions"][k][1] = ["raise", 0, 0]

    bad = _corrupt(f, tmp_path / "bad.json", illegal)
    r = run("replay", bad)
    assert r.exit_code == 1
    assert f"action {k + 1}" in r.output
    assert "legal" in r.output
    assert "DEAD END" not in r.output


@pytest.mark.parametrize("what", ["chance out of range", "wrong player", "too many actions", "not json",
                                  "wrong format", "missing"])
def test_replay_other_corruptions_exit_1(sim_dir, tmp_path, what):
    out, _ = sim_dir
    f = sorted(Path(out).glob("*.json"))[0]
    data = json.loads(f.read_text(encoding="utf-8"))
    bad = tmp_path / "bad.json"
    if what == "chance out of range":
        k = next(i for i, (a, _) in enumerate(data["actions"]) if a == CHANCE)
        data["actions"][k][1] = 6 ** 5 * 1000
        bad.write_text(json.dumps(data))
    elif what == "wrong player":
        k = next(i for i, (a, _) in enumerate(data["actions"]) if a != CHANCE)
        data["actions"][k][0] = (data["actions"][k][0] + 1) % data["players"]
        bad.write_text(json.dumps(data))
    elif what == "too many actions":
        data["actions"].append(data["actions"][-1])
        bad.write_text(json.dumps(data))
    elif what == "not json":
        bad.write_text("{ this is not json", encoding="utf-8")
    elif what == "wrong format":
        data["format"] = "something-else/9"
        bad.write_text(json.dumps(data))
    else:
        bad = tmp_path / "does-not-exist.json"
    r = run("replay", bad)
    assert r.exit_code == 1, r.output
    assert "error" in r.output.lower()


def test_replay_with_an_explicit_rules_file(sim_dir):
    out, _ = sim_dir
    f = sorted(Path(out).glob("*.json"))[0]
    r = run("replay", f, "--rules", BLUFF)
    assert r.exit_code == 0
    assert "DEAD END" in r.output


@pytest.mark.skipif(not DEMOCRACY.exists(), reason="no games/democracy.rules yet")
def test_democracy_dead_ends_save_and_replay(tmp_path):
    r = run("simulate", DEMOCRACY, "--players", 2, "-n", 40, "--seed", 1, "--json", "--save-dead-ends", tmp_path)
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == len(j["dead_ends"])
    for f in files:
        rr = run("replay", f, "--lang", "ja")
        assert rr.exit_code == 0
        assert "行き止まり" in rr.output


# ----------------------------------------------------------------- rules that name nobody

NOBODY_SPEAKS = "      set speaker to next_player(starter)\n"


@pytest.fixture
def nobody_rules(tmp_path):
    text = rules_text(BLUFF)
    assert NOBODY_SPEAKS in text
    p = tmp_path / "nobody.rules"
    p.write_text(text.replace(NOBODY_SPEAKS, "", 1), encoding="utf-8")
    return p


def test_a_choice_by_nobody_is_a_dead_end_not_a_crash(nobody_rules):
    rules, _ = load(str(nobody_rules))
    game = Game(rules, 2)
    played = play_random(game, random.Random(0))
    assert played.state.dead_end is not None
    r = run("simulate", nobody_rules, "--players", 2, "-n", 3, "--json")
    assert r.exit_code == 0
    assert json.loads(r.stdout)["dead_end_games"] == 3


def test_a_counter_set_to_nobody_is_caught(tmp_path):
    text = rules_text(BLUFF)
    old = "        set bid_count to number\n"
    assert old in text
    p = tmp_path / "nobody_count.rules"
    p.write_text(text.replace(old, "        set bid_count to nobody\n", 1), encoding="utf-8")
    try:
        rules, _ = load(str(p))
    except Exception as e:                       # reported by check: fine
        assert type(e).__name__ == "RuleFileError"
        return
    played = play_random(Game(rules, 2), random.Random(0))
    assert played.state.dead_end is not None
    r = run("simulate", p, "--players", 2, "-n", 3)
    assert r.exit_code == 0


# ----------------------------------------------------------------- rules the engine must survive

class _TookTooLong(Exception):
    pass


def _within(seconds, fn):
    """Run fn() in this (main) thread; raise _TookTooLong if it runs past `seconds`."""
    import signal

    def on_alarm(signum, frame):
        raise _TookTooLong(f"still running after {seconds}s")
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return fn()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


SPIN = """game spin
  players 2 to 2
counter laps = 0
play
  repeat until laps < 0
    add 1 to laps
"""


def test_a_loop_without_decisions_ends_in_a_dead_end(tmp_path):
    p = tmp_path / "spin.rules"
    p.write_text(SPIN, encoding="utf-8")
    rules, _ = load(str(p))
    game = Game(rules, 2)
    s = _within(5, game.new_initial_state)
    assert s.is_terminal() and s.dead_end is not None


def _bad_parameter(kind):
    text = rules_text(BLUFF)
    if kind == "zone":
        return text + "\nparameter oops = supply\n"
    assert "parameter start_dice = 5\n" in text
    return text.replace("parameter start_dice = 5\n", "parameter start_dice = nobody\n", 1)


@pytest.mark.parametrize("kind", ["zone", "nobody"])
def test_a_bad_parameter_value_is_an_error_not_a_crash(tmp_path, kind):
    p = tmp_path / "oops.rules"
    p.write_text(_bad_parameter(kind), encoding="utf-8")
    try:
        rules, _ = load(str(p))
    except Exception as e:
        assert type(e).__name__ == "RuleFileError"      # check rejects it: fine
    else:
        try:
            Game(rules, 2)
        except Exception as e:
            assert type(e).__name__ == "RuleError", repr(e)
    r = run("simulate", p, "--players", 2, "-n", 2)
    assert r.exit_code in (0, 1)


def test_console_script_is_declared():
    import tomllib
    data = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert data["project"]["scripts"]["playtest"] == "dsl.cli:main"


def test_help_lists_the_commands():
    r = run("--help")
    assert r.exit_code == 0
    for command in ("check", "simulate", "replay"):
        assert command in r.output


def test_the_commands_the_demo_suggests_run_as_typed(tmp_path):
    """Each command as `make demo` prints it, run by the shell from the repository's root."""
    import importlib.util
    import os
    import shlex
    import subprocess
    spec = importlib.util.spec_from_file_location("demo", ROOT / "scripts" / "demo.py")
    demo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(demo)
    run_as = demo.program()
    env = dict(os.environ, PYTHONPATH=str(ROOT))        # this checkout's code, whichever playtest runs it
    for command, _ in demo.NEXT:
        words = shlex.split(demo.next_command(command, run_as))
        words = [str(tmp_path / w) if w.endswith(".pdf") else w for w in words]
        done = subprocess.run(words, cwd=ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
