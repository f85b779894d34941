"""One vocabulary across the commands: the same flag for the same thing, every option explained,
and the spellings of earlier versions still accepted."""
from __future__ import annotations

import json
import re

import click
import pytest
from click.testing import CliRunner

from _util import BLUFF, GAMES, ROOT

from dsl.cli import main

TICTACTOE = GAMES / "tictactoe.rules"

# the one spelling of each thing several commands take
VOCABULARY = {
    "games": {"-n", "--games"},
    "players": {"-p", "--players"},
    "seed": {"--seed"},
    "json": {"--json"},
    "lang": {"--lang"},
    "output": {"-o", "--output"},
    "agents": {"--agents"},
    "save replays": {"--save-replays"},
    "variants": {"-v", "--variant"},
}
# spellings that name one of those things another way; only a hidden alias may use them
SYNONYMS = {"--save-dead-ends", "--simulate", "--max-examples", "--games-per-side", "--agent", "--out",
            "--language", "--players-count", "--number", "--random-seed", "--variants", "--save-findings"}


def _options():
    for name, command in sorted(main.commands.items()):
        for p in command.params:
            if isinstance(p, click.Option):
                yield name, p


def test_every_visible_option_says_what_it_does():
    missing = [f"{name} {'/'.join(p.opts)}" for name, p in _options() if not p.hidden and not (p.help or "").strip()]
    assert missing == []


def test_a_flag_means_one_thing_with_one_spelling():
    spelt = {}
    for name, p in _options():
        if p.hidden:
            continue
        flags = set(p.opts)
        for flag in flags:
            spelt.setdefault(flag, set()).add((frozenset(flags), name))
    differing = {flag: sorted((sorted(f), c) for f, c in uses) for flag, uses in spelt.items()
                 if len({f for f, _ in uses}) > 1}
    assert differing == {}
    for thing, flags in VOCABULARY.items():
        for flag in flags:
            assert {f for f, _ in spelt.get(flag, {(frozenset(flags), None)})} == {frozenset(flags)}, thing


def test_no_visible_synonym():
    visible = {flag for _, p in _options() if not p.hidden for flag in p.opts}
    assert visible & SYNONYMS == set()


def test_lang_is_offered_wherever_words_are_printed():
    for name in ("simulate", "diff", "sweep", "replay", "check", "book", "sheet", "cards", "variants", "match", "skill"):
        langs = [p for p in main.commands[name].params if p.name == "lang"]
        assert len(langs) == 1 and list(langs[0].type.choices) == ["en", "ja"], name


def test_the_vocabulary_test_catches_an_undocumented_option_and_a_second_spelling():
    @main.command("scratch-for-options-test")
    @click.option("--seed", type=int)
    @click.option("--number", "-n", type=int, help="Games.")
    def scratch(seed, number):
        pass
    try:
        with pytest.raises(AssertionError):
            test_every_visible_option_says_what_it_does()
        with pytest.raises(AssertionError):
            test_a_flag_means_one_thing_with_one_spelling()
        with pytest.raises(AssertionError):
            test_no_visible_synonym()
    finally:
        del main.commands["scratch-for-options-test"]


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r


def test_old_save_dead_ends_still_saves_the_replays(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    a = run("simulate", BLUFF, "-p", 3, "-n", 200, "--json", "--save-dead-ends", old)
    b = run("simulate", BLUFF, "-p", 3, "-n", 200, "--json", "--save-replays", new)
    assert a.exit_code == b.exit_code == 0, a.output + b.output
    saved_old, saved_new = json.loads(a.stdout)["saved"], json.loads(b.stdout)["saved"]
    assert len(saved_old) == len(saved_new) >= 1
    assert sorted(p.name for p in old.iterdir()) == sorted(p.name for p in new.iterdir())
    assert "--save-dead-ends" not in run("simulate", "--help").output


def test_old_diff_simulate_and_format_json_still_work():
    old = run("diff", BLUFF, ROOT / "variants" / "bluff-life.rules", "--simulate", 40, "-p", 3, "--format", "json")
    new = run("diff", BLUFF, ROOT / "variants" / "bluff-life.rules", "-n", 40, "-p", 3, "--json")
    assert old.exit_code == new.exit_code == 0, old.output + new.output
    assert old.stdout == new.stdout
    assert json.loads(new.stdout)["behaviour"]["games"] == 40
    assert "decisions per game" in [m["metric"] for m in json.loads(new.stdout)["behaviour"]["metrics"]]


def test_old_fuzz_max_examples_still_works():
    old = run("fuzz", BLUFF, "-p", 2, "--max-examples", 30, "--json")
    new = run("fuzz", BLUFF, "-p", 2, "-n", 30, "--json")
    assert old.exit_code == new.exit_code == 0, old.output + new.output
    assert old.stdout == new.stdout
    assert json.loads(new.stdout)["examples"] == 30


def test_old_positional_match_agents_still_work():
    old = run("match", TICTACTOE, "flat:3", "random", "-n", 6)
    new = run("match", TICTACTOE, "--agents", "flat:3,random", "-n", 6)
    assert old.exit_code == new.exit_code == 0, old.output + new.output
    assert old.stdout == new.stdout
    assert "decisions per game" in new.stdout and "turns" not in new.stdout
    assert "AGENT" not in run("match", "--help").output.split("\n")[0]


@pytest.mark.parametrize("args", [("--agents", "flat:3"), ("--agents", "flat:3,random,random"),
                                  ("flat:3", "--agents", "flat:3,random")])
def test_match_needs_exactly_two_agents(args):
    r = run("match", TICTACTOE, *args, "-n", 2)
    assert r.exit_code == 2
    assert "--agents A,B" in r.output


def test_simulate_in_japanese_says_the_same_figures():
    en = run("simulate", BLUFF, "-p", 3, "-n", 100)
    ja = run("simulate", BLUFF, "-p", 3, "-n", 100, "--lang", "ja")
    assert en.exit_code == ja.exit_code == 0
    assert "行き止まり" in ja.stdout and "dead ends" not in ja.stdout
    rows = lambda s: [line for line in s.splitlines() if re.match(r"\s+\d+\s+\d+\s", line)]
    assert len(rows(en.stdout)) == 3 and rows(en.stdout) == rows(ja.stdout)
    figures = lambda s: [sorted(re.findall(r"[\d.]+%?", line)) for line in s.splitlines()[-6:] if line.strip()]
    assert figures(en.stdout) == figures(ja.stdout)


def test_check_verdict_in_japanese():
    r = run("check", TICTACTOE, "--lang", "ja")
    assert r.exit_code == 0
    assert r.output.strip() == f"{TICTACTOE}: 問題なし (エラー0件、警告0件)"


def test_rounds_are_reported_only_for_a_game_that_has_them():
    poker = run("simulate", ROOT / "tests" / "fixtures" / "mini-poker.rules", "-n", 50)
    bluff = run("simulate", BLUFF, "-p", 3, "-n", 50)
    assert poker.exit_code == bluff.exit_code == 0
    assert "decisions per game" in poker.stdout and "rounds" not in poker.stdout
    assert "rounds per game" in bluff.stdout


def test_simulate_names_the_variants_it_applied():
    life = ROOT / "variants" / "bluff-life.rules"
    r = run("simulate", BLUFF, "-v", life, "-p", 3, "-n", 20)
    assert r.exit_code == 0
    assert r.stdout.splitlines()[0].startswith(f"bluff + {life}: 20 games, 3 players, seed 1")


def test_p_values_below_the_rounding_are_said_to_be():
    from dsl.cli.diff import p_value
    assert [p_value(p) for p in (0.0, 1e-12, 0.000999, 0.001, 0.0456, 1.0)] == \
        ["< 0.001", "< 0.001", "< 0.001", "0.001", "0.046", "1.000"]


def test_diff_in_japanese_names_the_same_changes():
    life = ROOT / "variants" / "bluff-life.rules"
    en, ja = run("diff", BLUFF, life), run("diff", BLUFF, life, "--lang", "ja")
    assert en.exit_code == ja.exit_code == 0
    assert en.stdout.splitlines()[-1] == "4 added, 1 removed, 1 changed"
    assert ja.stdout.splitlines()[-1] == "追加4、削除1、変更1"
    heads = lambda s, words: [line.split("  (")[0].split(" ", 1)[1] for line in s.splitlines()
                              if line.split(" ")[0] in words]
    assert heads(en.stdout, ("added", "removed", "changed")) == heads(ja.stdout, ("追加", "削除", "変更"))
    assert len(heads(en.stdout, ("added", "removed", "changed"))) == 6


def test_sweep_in_japanese_gives_the_same_rows_under_translated_headings():
    args = ("sweep", BLUFF, "--param", "start_dice=4..5", "-p", 3, "-n", 20)
    en, ja = run(*args), run(*args, "--lang", "ja")
    assert en.exit_code == ja.exit_code == 0
    assert en.stdout.splitlines()[2:] == ja.stdout.splitlines()[2:] and len(en.stdout.splitlines()) == 4
    assert en.stdout.splitlines()[1].split() == ["start_dice", "players", "done", "dead", "ends", "balance", "rounds",
                                                 "decisions"]
    assert ja.stdout.splitlines()[1].split() == ["start_dice", "人数", "完了", "行き止まり", "均衡", "ラウンド", "判断数"]


def test_sweep_leaves_out_rounds_for_a_game_without_them(tmp_path):
    poker = tmp_path / "poker.rules"
    poker.write_text((ROOT / "tests" / "fixtures" / "mini-poker.rules").read_text(encoding="utf-8")
                     .replace("counter stake = 1\n", "parameter bet = 2\ncounter stake = 1\n")
                     .replace("set stake to 2", "set stake to bet"), encoding="utf-8")
    r = run("sweep", poker, "--param", "bet=2..3", "-n", 20)
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[1].split() == ["bet", "players", "done", "dead", "ends", "balance", "decisions"]
    assert [len(line.split()) for line in r.stdout.splitlines()[2:]] == [6, 6]


@pytest.mark.parametrize("args,said", [
    (("simulate", BLUFF, "-p", 3, "-n", 5, "--save-dead-ends", "a", "--save-replays", "b"),
     "--save-dead-ends is the old spelling of --save-replays: give one of them"),
    (("fuzz", BLUFF, "-p", 2, "--max-examples", 5, "-n", 6), "--max-examples is the old spelling of -n/--games"),
    (("diff", BLUFF, ROOT / "variants" / "bluff-life.rules", "--simulate", 5, "-n", 6),
     "--simulate is the old spelling of -n/--games")])
def test_an_old_and_a_new_spelling_together_are_refused(args, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run(*args)
    assert r.exit_code == 2
    assert said in r.output
    assert list(tmp_path.iterdir()) == []
