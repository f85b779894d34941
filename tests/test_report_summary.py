"""The report's summary: each sentence checked against the JSON figures it quotes, in en and ja."""
from __future__ import annotations

import html
import json
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner

from dsl.analyses.stats import t_quantile
from dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
BLUFF = ROOT / "games" / "bluff.rules"
TTT = ROOT / "games" / "tictactoe.rules"
DEMOCRACY = ROOT / "games" / "democracy.rules"


def report(tmp_path, rules, *args, lang="en"):
    base = tmp_path / f"{rules.stem}-{lang}"
    r = CliRunner().invoke(main, ["report", str(rules), "-o", str(base), "--lang", lang, *map(str, args)])
    assert r.exit_code == 0, r.output
    data = json.loads(base.with_suffix(".json").read_text())
    return data, base.with_suffix(".html").read_text()


def pct(v):
    return round(v * 100)


def config(data, players):
    return next(c for c in data["configs"] if c["players"] == players)


def check_seat_sentence(data, sentence):
    m = re.match(r"Seat (\d+) wins (\d+)% \[(\d+), (\d+)\] of the games won at (\d+) players", sentence)
    seat, value, lo, hi, players = map(int, m.groups())
    outcomes = config(data, players)["summary"]["metrics"]["outcomes"]
    row = outcomes["wins"][seat - 1]
    share = row["share_of_decided"]
    assert (value, lo, hi) == (pct(share["value"]), pct(share["ci95"][0]), pct(share["ci95"][1]))
    return outcomes, row


def check_length_sentence(data, sentence):
    quoted = re.findall(r"(\d+) decisions? \[(\d+), (\d+)\](?:, ([\d.]+) rounds \[([\d.]+), ([\d.]+)\])? at (\d+) players",
                        sentence)
    assert [int(q[-1]) for q in quoted] == [c["players"] for c in data["configs"]]
    for mean, lo, hi, rounds, rlo, rhi, players in quoted:
        c = config(data, int(players))
        # the JSON keeps each length with its number of games: [[decisions, games], ...]
        lengths = [v for v, k in c["lengths"] for _ in range(k)]
        rounds_of = [v for v, k in c["rounds"] for _ in range(k)]
        half = t_quantile(0.975, len(lengths) - 1) * statistics.stdev(lengths) / len(lengths) ** 0.5
        assert int(mean) == round(statistics.fmean(lengths)) == round(c["summary"]["metrics"]["decisions"]["mean"])
        assert (int(lo), int(hi)) == (round(statistics.fmean(lengths) - half), round(statistics.fmean(lengths) + half))
        assert bool(rounds) == (max(rounds_of) > 0)       # no rounds quoted for a game without them
        if rounds:
            assert float(rounds) == round(statistics.fmean(rounds_of), 1)
    games = sum(c["summary"]["games"] for c in data["configs"])
    dead = sum(c["summary"]["metrics"]["outcomes"]["dead_end"]["count"] for c in data["configs"])
    said = re.search(r"(\d+)% end in a dead end", sentence)
    assert (said is not None) == (dead > 0)
    if dead:
        assert int(said.group(1)) == pct(dead / games)


def check_first_player_sentence(data, sentence):
    quoted = re.findall(r"(\d+)% \[(\d+), (\d+)\] at (\d+) players \(fair (\d+)%\)", sentence)
    assert len(quoted) == len(data["configs"])
    for value, lo, hi, players, fair in quoted:
        c = config(data, int(players))
        f = c["first_player"]
        won = c["summary"]["metrics"]["outcomes"]["won"]["count"]
        assert f["n"] == won and sum(f["seats"]) == c["summary"]["games"]
        assert (int(value), int(lo), int(hi), int(fair)) == (pct(f["count"] / f["n"]), pct(f["ci95"][0]),
                                                             pct(f["ci95"][1]), pct(1 / c["players"]))
        starters = [i + 1 for i, k in enumerate(f["seats"]) if k]
        if len(starters) == 1:
            assert f"seat {starters[0]} in every game" in sentence


def numbers(text):
    return sorted(re.findall(r"\d+(?:\.\d+)?", text))


def test_every_sentence_quotes_the_json(tmp_path):
    data, page = report(tmp_path, BLUFF, "-p", "2..4", "-n", 80, "--seed", 3)
    seats, lengths, first = data["summary"]
    outcomes, row = check_seat_sentence(data, seats)
    assert not any(w["flag"] for c in data["configs"] for w in c["summary"]["metrics"]["outcomes"]["wins"])
    assert seats.endswith("no seat is favoured at 2-4 players")
    # the quoted seat is the one furthest from its fair share
    furthest = max(abs(w["share_of_decided"]["value"] - c["summary"]["metrics"]["outcomes"]["fair_share"])
                   for c in data["configs"] for w in c["summary"]["metrics"]["outcomes"]["wins"])
    assert abs(row["share_of_decided"]["value"] - outcomes["fair_share"]) == furthest
    check_length_sentence(data, lengths)
    check_first_player_sentence(data, first)
    for sentence in data["summary"]:
        assert html.escape(sentence) in page
    assert page.index("What it found") < page.index("At a glance")

    ja, ja_page = report(tmp_path, BLUFF, "-p", "2..4", "-n", 80, "--seed", 3, lang="ja")
    assert len(ja["summary"]) == 3
    for en_sentence, ja_sentence in zip(data["summary"], ja["summary"]):
        assert numbers(en_sentence) == numbers(ja_sentence)        # the same figures, in other words
        assert html.escape(ja_sentence) in ja_page
    assert "どの席も有利ではない" in ja["summary"][0] and "わかったこと" in ja_page


def test_a_flagged_seat_holds_after_holm(tmp_path):
    data, _ = report(tmp_path, TTT, "-p", 2, "-n", 1000)
    flagged = [s for s in data["summary"] if "after Holm-Bonferroni" in s]
    wins = config(data, 2)["summary"]["metrics"]["outcomes"]["wins"]
    assert [w["seats"] for w in wins if w["flag"]] == [[1], [2]]     # X wins more, so O fewer
    assert len(flagged) == 2
    for sentence, w in zip(flagged, (w for w in wins if w["flag"])):
        outcomes, row = check_seat_sentence(data, sentence)
        assert row is w
        assert f"{w['flag']} the fair share {pct(outcomes['fair_share'])}%, after Holm-Bonferroni across the 2 seats" \
            in sentence


def test_the_card_table_is_complete_sorted_as_it_says_and_by_printed_names(tmp_path):
    data, page = report(tmp_path, DEMOCRACY, "-p", 3, "-n", 40)
    cards = config(data, 3)["summary"]["metrics"]["cards"]
    section = page[page.index("Cards and pieces"):page.index("<h2>Dead ends")]
    shown = re.findall(r"<tr><td>([^<]+)</td><td>\d+</td>", section)
    assert sorted(shown) == sorted(html.escape(c["name"]) for c in cards) and len(shown) > 30
    assert "<details><summary>the other" in section and "never declined" not in page
    compared = any(c["win_rate_if_not_used"]["n"] for c in cards)
    by_name = {html.escape(c["name"]): c for c in cards}
    if compared:
        assert "Sorted by the gap" in section
        key = [by_name[s]["gap"] for s in shown]
    else:       # every seat offered a card plays it in the end: nothing to compare with
        assert "sorted by the win rate if used, highest first" in section and "if not used</th>" not in section
        key = [by_name[s]["win_rate_if_used"]["value"] for s in shown]
    assert key == sorted(key, reverse=True)
    assert any("♠" in s for s in shown) and not any(re.fullmatch(r"\d+-\d+-\w+", s) for s in shown)
    assert "--save-replays DIR" in page and "--save-dead-ends" not in page


def test_a_japanese_page(tmp_path):
    data, page = report(tmp_path, DEMOCRACY, "-p", 3, "-n", 40, lang="ja")
    assert '<html lang="ja">' in page
    for words in ("わかったこと", "誰が勝つか", "ゲームの長さ", "カードと駒", "行き止まり", "スペードの5"):
        assert words in page
    for words in ("Who wins", "How long a game lasts", "Cards and pieces"):
        assert words not in page


def test_no_first_player_where_everyone_decides_at_once(tmp_path):
    # Democracy opens with a vote every seat casts at once: nobody acts first
    data, page = report(tmp_path, DEMOCRACY, "-p", 3, "-n", 20)
    assert [c["first_player"] for c in data["configs"]] == [None]
    assert not any("acts first" in s for s in data["summary"])
    data, page = report(tmp_path, BLUFF, "-p", 3, "-n", 20)
    assert data["configs"][0]["first_player"]["n"] > 0
    assert any("acts first" in s for s in data["summary"])
