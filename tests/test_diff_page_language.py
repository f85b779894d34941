"""`diff --format html --lang ja` is Japanese throughout: its headings, the changes' tags and
counts, and the comparison in play (its note, column heads, figures' names and yes/no). The
rule text shown side by side stays the rule file's own, and a kind (step, value) is a word of
the rule language."""
from __future__ import annotations

import re

from click.testing import CliRunner

from dsl.cli import main

from _util import DEMOCRACY, ROOT

VARIANT = ROOT / "variants" / "democracy-bad-catch.rules"

# every English word the page's own labels use, and what the Japanese page says instead
LABELS = {"What changed": "変わったところ", "What changed in play": "プレイで変わったところ",
          "added": "追加", "changed": "変更", "removed": "削除0", "metric": "指標", "95% CI": "95%区間",
          "significant": "有意", "random games per side": "各側30ゲーム（ランダム）", "Intervals are": "区間は95%",
          "Holm-Bonferroni correction over all rows": "全行にわたるHolm-Bonferroni補正後",
          "win rate, seat": "勝率、席1", "draws": "引き分け", "nobody won": "勝者なし", "dead-end games": "行き止まりのゲーム",
          "decisions per game": "ゲームごとの判断数", "rounds per game": "ゲームごとのラウンド数", "no": "いいえ",
          "vs": "対", "diff": "差分", "players": "4人", "seed": "シード1"}


def _page(tmp_path, lang: str) -> str:
    out = tmp_path / f"diff-{lang}.html"
    r = CliRunner().invoke(main, ["diff", str(DEMOCRACY), str(VARIANT), "-n", "30", "-p", "4", "--format", "html",
                                  "--lang", lang, "-o", str(out)])
    assert r.exit_code == 0, r.output
    return out.read_text()


def _labels(page: str) -> str:
    """The page's own words: without the rule text (side by side, and names in <code>) and the
    kind of each change, the rule language's word."""
    page = re.sub(r'<table class="code">.*?</table>|<code>.*?</code>|<style>.*?</style>', " ", page, flags=re.S)
    page = re.sub(r"(</span>) \w+ ", r"\1 ", page)
    return re.sub(r"<[^>]+>", " ", page)


def test_the_japanese_diff_page_has_no_english_label_left(tmp_path):
    en, ja = _labels(_page(tmp_path, "en")), _labels(_page(tmp_path, "ja"))
    for english, japanese in LABELS.items():
        assert re.search(rf"\b{re.escape(english)}\b", en), english      # the label is there to be translated
        assert not re.search(rf"\b{re.escape(english)}\b", ja), english
        assert japanese in ja, japanese
    assert '<html lang="ja">' in _page(tmp_path, "ja")
