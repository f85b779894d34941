"""`playtest new`: a starter game that checks, plays and prints as it is, and never overwrites."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from _util import ROOT

from dsl.cli import main
from dsl.loader import load


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    assert "Traceback" not in r.output
    return r


@pytest.fixture
def starter(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("new", "dice-race")
    assert r.exit_code == 0, r.output
    return tmp_path / "dice-race.rules"


def test_the_starter_checks_with_its_one_open_question(starter):
    r = run("check", starter.name, "--json")
    assert r.exit_code == 0, r.output
    [report] = json.loads(r.stdout)
    assert (report["errors"], report["warnings"]) == (0, 1)
    assert "open question 'tie'" in report["diagnostics"][0]["message"]
    rules, _ = load(starter.name)
    assert (rules.game.name, rules.game.min_players, rules.game.max_players) == ("dice_race", 2, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_starter_plays_to_the_end_at_every_player_count(starter, players):
    r = run("simulate", starter.name, "-p", players, "-n", 200, "--json", "--fail-on", "dead-ends,timeouts")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    assert j["dead_end_games"] == 0
    assert sum(w["count"] for w in j["metrics"]["outcomes"]["wins"]) + j["metrics"]["outcomes"]["shared"]["count"] == 200
    assert j["metrics"]["rounds"]["min"] >= 1


def test_fuzz_finds_nothing_and_reaches_every_block(starter):
    r = run("fuzz", starter.name, "-p", 2, "-n", 300, "--json", "--fail-on", "dead-ends,timeouts")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    assert j["findings"] == []
    assert j["coverage"]["never_reached"] == [] and j["coverage"]["reached"] == j["coverage"]["blocks"] > 0


@pytest.mark.parametrize("lang,words", [("en", ["Dice race", "Roll again", "Stop and bank"]),
                                        ("ja", ["もう一度振る", "やめて点を確定する"])])
def test_the_starter_prints_a_rulebook(starter, lang, words):
    out = starter.parent / f"book-{lang}.html"
    r = run("book", starter.name, "--lang", lang, "-o", out)
    assert r.exit_code == 0, r.output
    html = out.read_text(encoding="utf-8")
    for w in words:
        assert w in html


def test_new_never_overwrites(starter):
    before = starter.read_bytes()
    starter.write_text(before.decode() + "# my own notes\n", encoding="utf-8")
    r = run("new", "dice-race.rules")
    assert r.exit_code == 1
    assert "already exists" in r.output
    assert starter.read_text(encoding="utf-8").endswith("# my own notes\n")


def test_new_writes_into_a_folder_and_names_the_game_from_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("new", "games/Sevens Two")
    assert r.exit_code == 0, r.output
    path = tmp_path / "games" / "Sevens Two.rules"
    text = path.read_text(encoding="utf-8")
    assert "game sevens_two\n" in text and 'en "Sevens two"' in text
    assert "{{" not in text
    assert "check games/Sevens Two.rules" in r.output
    assert load(str(path))[0].game.name == "sevens_two"


def test_a_name_that_is_no_game_name_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("new", "2048")
    assert r.exit_code == 2
    assert list(tmp_path.iterdir()) == []


def test_every_item_of_the_starter_is_explained_by_a_comment():
    lines = (ROOT / "dsl" / "cli" / "starter.rules").read_text(encoding="utf-8").splitlines()
    items = [i for i, line in enumerate(lines) if re.match(r"[a-z]", line)]
    unexplained = []
    for i in items:
        # the item follows a comment directly, or through the items of its group (counters, say)
        j = i - 1
        while j >= 0 and lines[j] and not lines[j].startswith("#"):
            j -= 1
        if j < 0 or not lines[j].startswith("#"):
            unexplained.append(lines[i])
    assert unexplained == []


def test_the_commands_new_prints_run_as_printed(starter, tmp_path):
    r = run("new", "second")
    assert r.exit_code == 0
    commands = [line.strip() for line in r.output.splitlines()[2:]]
    assert len(commands) == 3
    for line in commands:
        words = re.split(r"\s{2,}", line)[0].split()
        at = words.index("playtest") if "playtest" in words else next(
            i for i, w in enumerate(words) if w.endswith("playtest") or w == "dsl.cli")
        done = run(*words[at + 1:])
        assert done.exit_code == 0, (line, done.output)
    assert (tmp_path / "second.html").exists()


@pytest.mark.parametrize("name", ["my\ngame", "my\tgame", "my\x1b[2Jgame", "game\x00", "my\u202egame"])
def test_a_name_with_a_control_character_is_refused_and_writes_nothing(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    r = run("new", name)
    assert r.exit_code == 2 and "no control characters" in r.output, r.output
    assert list(tmp_path.iterdir()) == []


def test_a_device_or_a_pipe_is_no_name_for_a_game(tmp_path, monkeypatch):
    import os
    monkeypatch.chdir(tmp_path)
    os.mkfifo("pipe")
    r = run("new", "pipe")
    assert r.exit_code == 2 and "'pipe' is a device, a pipe or a socket" in r.output, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]
    written = "/dev/null.rules"
    existed = os.path.exists(written)
    try:
        r = run("new", "/dev/null")
        assert r.exit_code == 2 and "not a name for a rule file" in r.output, r.output
        assert os.path.exists(written) == existed
        r = run("new", "/dev/shm/my-game" if os.path.isdir("/dev/shm") else "/dev/my-game")
        assert r.exit_code == 2 and "is the system's, not a folder for rule files" in r.output, r.output
    finally:
        for path in (written, "/dev/shm/my-game.rules", "/dev/my-game.rules"):
            if not existed and os.path.isfile(path):
                os.remove(path)             # what the command wrote where it must not
