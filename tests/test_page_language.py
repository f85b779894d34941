"""A page in Japanese is Japanese throughout: the report's charts (titles, axes, legends) and the
sweep's page and heatmaps, not only the prose around them."""
from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from dsl.cli import main

ROOT = Path(__file__).resolve().parent.parent
POPULUS = ROOT / "games" / "populus.rules"
BLUFF = ROOT / "games" / "bluff.rules"


def _svg_texts(page: str) -> list[str]:
    """The words drawn in the page's charts (matplotlib keeps them as <text> in the SVG)."""
    return [re.sub(r"<[^>]+>", "", t).strip() for svg in re.findall(r"<svg.*?</svg>", page, re.S)
            for t in re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S)]


def _written(tmp_path, command: list, lang: str) -> tuple[dict, str]:
    base = tmp_path / f"{command[0]}-{lang}"
    r = CliRunner().invoke(main, [*command, "-o", str(base), "--lang", lang])
    assert r.exit_code == 0, r.output
    return json.loads(base.with_suffix(".json").read_text()), base.with_suffix(".html").read_text()


def test_report_charts_speak_the_pages_language(tmp_path):
    command = ["report", str(POPULUS), "-p", "3", "-n", "30", "--seed", "1"]
    _, en = _written(tmp_path, command, "en")
    _, ja = _written(tmp_path, command, "ja")
    en_words, ja_words = _svg_texts(en), _svg_texts(ja)
    for words in ("decisions per game", "games", "win rate (95% interval)", "3 players", "share of all decisions",
                  "mean score", "eventual winner", "seat 1"):
        assert words in en_words
    for words in ("1ゲームの判断数", "ゲーム数", "勝率（95%区間）", "3人", "全判断に占める割合", "平均得点", "最終的な勝者", "席1"):
        assert words in ja_words
    assert not set(en_words) & {"decisions per game", "games", "win rate (95% interval)", "3 players",
                                "share of all decisions", "mean score", "eventual winner", "seat 1"} & set(ja_words)


def test_sweep_page_and_heatmaps_speak_the_pages_language(tmp_path):
    command = ["sweep", str(BLUFF), "--param", "start_dice=4..5", "-p", "3", "-n", "20", "--seed", "1",
               "--target-dead-ends", "0"]
    data, ja = _written(tmp_path, command, "ja")
    _, en = _written(tmp_path, command, "en")
    assert '<html lang="ja">' in ja and '<html lang="en">' in en
    for words in ("パラメータ探索", "目標との比較", "すべての組み合わせ", "決着率", "行き止まり（3人）", "平均判断数"):
        assert words in ja
    for words in ("Parameter sweep", "Against the target", "Every combination", "completion, 3 players"):
        assert words in en and words not in ja
    missed = [r for r in data["rows"] if r["misses"]]
    for r in missed:            # the target's misses, in the page's words
        assert f"行き止まり {r['figures']['dead_ends']:.1%} が 0.0% 超" in ja
