"""The sentence `match` and `skill` lead with says what the figures below it say: every number
it quotes is the JSON's, rounded as printed, and its verdict follows the advantage's interval."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from dsl.analyses.verdicts import match_sentence, skill_sentence
from dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
BLUFF = str(ROOT / "games" / "bluff.rules")


def _run(*args) -> tuple[dict, list[str]]:
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code == 0, r.output
    text = CliRunner().invoke(main, list(args))
    assert text.exit_code == 0, text.output
    return json.loads(r.output), text.output.splitlines()


def numbers(text: str) -> list[float]:
    """Every number a sentence quotes, in order (agent specs such as flat:10 taken out)."""
    text = re.sub(r"\b(?:flat|ismcts):\d+", "", text).replace("(0 to everyone)", "").replace("（全員0）", "")
    return [float(x) for x in re.findall(r"[+-]?\d+(?:\.\d+)?", text)]


def pct(v):
    return float(f"{v * 100:.0f}")


def gain(v):
    return float(f"{v:+.2f}")


def expected_match(r: dict) -> list[float]:
    out = [pct(r["score"]), *map(pct, r["ci95"]), pct(r["fair_share"]), gain(r["advantage"]), *map(gain, r["advantage_ci95"])]
    return out + ([r["dead_end_games"], r["games"]] if r["dead_end_games"] else [])


@pytest.mark.parametrize("agents, says", [("flat:10,random", "flat:10 is stronger than random"),
                                          ("random,flat:10", "flat:10 is stronger than random"),
                                          ("random,random", "No clear difference between random and random")])
def test_the_match_sentence_quotes_the_match(agents, says):
    r, lines = _run("match", BLUFF, "-p", "3", "--agents", agents, "-n", "40", "--seed", "2")
    sentence = lines[1].strip()
    assert sentence == match_sentence(r) and sentence.startswith(says + ":")
    assert numbers(sentence.split(": ", 1)[1]) == expected_match(r)
    lo, hi = r["advantage_ci95"]
    assert (lo > 0) == sentence.startswith(f"{r['a']} is stronger") and (hi < 0) == sentence.startswith(f"{r['b']} is stronger")


def test_the_skill_sentence_quotes_the_best_level():
    r, lines = _run("skill", BLUFF, "-p", "3", "--levels", "random,flat:10", "-n", "40", "--seed", "2")
    sentence = lines[1].strip()
    assert sentence == skill_sentence(r)
    best = next(c for c in r["curve"] if c["agent"] == r["best"])
    assert r["best"] in sentence and sentence.startswith("Skill pays" if best["advantage_ci95"][0] > 0 else "Skill does not show")
    quoted = numbers(sentence.replace(f"at {r['players']} players", ""))
    expected = [pct(best["score"]), *map(pct, best["ci95"]), pct(r["fair_share"]), gain(best["advantage"]),
                *map(gain, best["advantage_ci95"])]
    expected += [best["dead_end_games"], r["games_per_level"]] if best["dead_end_games"] else []
    assert quoted == expected
    assert best["advantage"] == r["skill_room"]


def test_sentences_in_japanese_quote_the_same_figures():
    r, lines = _run("match", BLUFF, "-p", "3", "--agents", "flat:10,random", "-n", "40", "--seed", "2", "--lang", "ja")
    sentence = lines[1].strip()
    assert sentence.startswith("flat:10の方がrandomより強い") and "1席" in sentence
    expected = expected_match(r)
    if r["dead_end_games"]:         # 'N games, of which K' in Japanese
        expected[-2:] = expected[-1], expected[-2]
    assert numbers(sentence.split(": ", 1)[1].replace("1席", "").replace("1ゲーム", "")) == expected


def test_a_figure_that_does_not_apply_is_left_out():
    r = {"a": "x", "b": "y", "score": 0.5, "ci95": [0.4, 0.6], "fair_share": 0.5, "advantage": 0.0,
         "advantage_ci95": [-0.1, 0.1], "dead_end_games": 0, "games": 10}
    assert "dead end" not in match_sentence(r)
    assert "3 of 10 games ended in a dead end" in match_sentence({**r, "dead_end_games": 3})


def test_the_report_says_what_its_skill_runs_found(tmp_path):
    base = tmp_path / "bluff"
    r = CliRunner().invoke(main, ["report", BLUFF, "-p", "2,3", "-n", "20", "--skill", "flat:5", "--skill-games", "20",
                                  "--seed", "1", "-o", str(base), "--lang", "ja"])
    assert r.exit_code == 0, r.output
    data = json.loads(base.with_suffix(".json").read_text())
    assert [k["players"] for k in data["skill"]] == [2, 3]
    for k in data["skill"]:
        assert f"{k['players']}人では{match_sentence(k, 'ja').rstrip('。')}" in data["summary"]
    page = base.with_suffix(".html").read_text()
    assert "is stronger" not in page and "no clear difference" not in page
