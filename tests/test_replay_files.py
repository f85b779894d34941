"""Replay files: unique names, a variant's replay replays, changed rules are reported, bad files are refused."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from _util import BLUFF, LIFE, ROOT, playtest as run

from dsl.analyses import replay as replay_mod

def fuzz_into(out, *rules):
    r = run("fuzz", *rules, "-p", "2", "--max-examples", "60", "--seed", "1", "--save-replays", out, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)["saved"]


def test_a_game_and_its_variants_save_under_different_names_and_replay(tmp_path):
    saved = fuzz_into(tmp_path, BLUFF) + fuzz_into(tmp_path, BLUFF, "-v", LIFE) + fuzz_into(tmp_path, LIFE)
    assert len(saved) == len(set(saved)) == len(list(tmp_path.glob("*.json"))) >= 3
    for path in saved:
        r = run("replay", path)
        assert r.exit_code == 0, r.output
        assert "DEAD END" in r.output


def test_a_variant_named_as_the_file_is_recorded_as_given(tmp_path):
    [path] = fuzz_into(tmp_path, LIFE)
    assert replay_mod.load(path).rules == str(LIFE)


def test_the_same_run_twice_keeps_one_file_and_a_different_replay_never_overwrites(tmp_path):
    first = fuzz_into(tmp_path, BLUFF)
    assert fuzz_into(tmp_path, BLUFF) == first
    other = replay_mod.Replay(str(BLUFF), [], 2, 9, 0, [], note="another")
    name = os.path.basename(first[0])
    path = replay_mod.save_new(other, str(tmp_path), name)
    assert path != first[0] and path.endswith("-2.json")
    assert replay_mod.load(first[0]).note != "another"


@pytest.fixture
def saved_copy(tmp_path):
    """A game copied where the test may change it, and a dead end saved from it."""
    rules = tmp_path / "bluff.rules"
    shutil.copy(BLUFF, rules)
    r = run("simulate", rules, "-p", "3", "-n", "50", "--save-dead-ends", tmp_path / "out", "--json")
    return rules, json.loads(r.output)["saved"][0]


def test_an_unchanged_replay_replays_silently(saved_copy):
    rules, path = saved_copy
    r = run("replay", path)
    assert r.exit_code == 0 and "rules changed" not in r.output


@pytest.mark.parametrize("old, new, part", [("parameter start_dice = 5", "parameter start_dice = 6", "parameter start_dice"),
                                            ("  wild 6\n", "", "dice die")])
def test_a_changed_rule_file_is_reported_with_what_changed(saved_copy, old, new, part):
    rules, path = saved_copy
    text = rules.read_text(encoding="utf-8")
    assert old in text
    rules.write_text(text.replace(old, new), encoding="utf-8")
    assert run("replay", path).exit_code == 0         # it plays from the texts it carries
    r = run("replay", path, "--rules", rules)
    assert r.exit_code == 1
    assert "the rules changed since" in r.stderr
    assert f"changed {part}" in r.stderr
    assert "ends in another state" in r.stderr


def test_an_old_replay_without_a_fingerprint_asks_for_its_rules_then_says_so(saved_copy):
    rules, path = saved_copy
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for key in ("fingerprint", "final_state", "sources"):
        del data[key]
    Path(path).write_text(json.dumps(data), encoding="utf-8")
    r = run("replay", path)
    assert r.exit_code == 1
    assert "saved by an older playtest, without the texts of its rules: give the rule file with --rules" in r.stderr
    r = run("replay", path, "--rules", rules)
    assert r.exit_code == 0
    assert "without a fingerprint" in r.stderr


BAD = [
    ({"rules": 3}, "'rules' must be"),
    ({"rules": None}, "'rules' must be"),
    ({"variants": [None]}, "'variants' must be"),
    ({"variants": "variants/bluff-life.rules"}, "'variants' must be"),
    ({"players": float("inf")}, "'players' must be"),
    ({"players": 10**9}, "'players' must be"),
    ({"actions": {"a": 1}}, "'actions' must be"),
    ({"actions": [[1e400, 0]]}, "is not an action"),
    ({"actions": [[-1, [[]]]]}, "action 1"),
]


@pytest.mark.parametrize("change, message", BAD, ids=[m + str(i) for i, (_, m) in enumerate(BAD)])
def test_a_malformed_replay_is_refused_with_what_is_wrong(tmp_path, monkeypatch, change, message):
    data = {"format": replay_mod.FORMAT, "rules": "games/bluff.rules", "variants": [], "players": 2, "actions": []}
    data.update(change)
    f = tmp_path / "r.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.chdir(ROOT)
    r = run("replay", f, "--rules", BLUFF)
    assert r.exit_code == 1
    assert message in r.output


def test_a_folder_and_deep_json_are_refused(tmp_path):
    assert "folder" in run("replay", tmp_path).output
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    r = run("replay", deep)
    assert r.exit_code == 1 and "nested too deeply" in r.output


@pytest.mark.parametrize("option", ["--save-replays", "--save-dead-ends"])
def test_an_unwritable_folder_is_refused_before_the_search(tmp_path, option):
    blocker = tmp_path / "a-file"          # under a file nothing can be written, even by root
    blocker.write_text("")
    command = "simulate" if option == "--save-dead-ends" else "fuzz"
    r = run(command, BLUFF, "-p", "2", option, blocker / "out")
    assert r.exit_code == 2
    assert "cannot write there" in r.output
    assert "fuzzing" not in r.output and "wins" not in r.output


def test_a_stale_temporary_file_of_a_dead_writer_is_removed(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".tmp-{dead.pid}-abc"
    stale.write_text("half")
    replay_mod.write_atomic(str(tmp_path / "x.json"), "{}")
    assert not stale.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.json"]


def test_sigterm_during_a_write_leaves_no_temporary_file(tmp_path):
    # The child sends itself SIGTERM from inside the write, so the signal lands mid-write every time.
    code = f"""
import os, signal, sys
sys.path.insert(0, {str(ROOT)!r})
from dsl.analyses import replay
real = os.fdopen
def fdopen(*a, **k):
    os.kill(os.getpid(), signal.SIGTERM)
    return real(*a, **k)
os.fdopen = fdopen
replay.write_atomic({str(tmp_path / 'x.json')!r}, "data")
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True)
    assert p.returncode == -signal.SIGTERM, p.stderr
    assert list(tmp_path.iterdir()) == []      # mkstemp had made the temporary file


@pytest.mark.parametrize("command", [["book", BLUFF], ["sheet", BLUFF], ["cards", ROOT / "games" / "democracy.rules"],
                                     ["diff", BLUFF, LIFE]])
def test_an_output_that_cannot_be_written_is_an_error_before_any_work(tmp_path, command):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    r = run(*command, "-o", blocker / "out.html")
    assert r.exit_code == 2
    assert "cannot write there (a file stands where a folder is needed)" in r.output
