"""The printed game's shared bits: what can be printed, on which paper, and the book's own words.

What the rules say comes from prose.py; these are the headings and labels around it.
"""
from __future__ import annotations

from .prose import UNDECIDED, say

KINDS = ("book", "sheet", "cards")
FORMATS = ("html", "pdf", "typ")
# name for CSS, name for Typst, width and height in mm
PAPERS = {"a4": ("A4", "a4", 210.0, 297.0), "letter": ("letter", "us-letter", 215.9, 279.4)}
CARD = (63, 88)

# The rulebook's own headings and labels; what the rules say comes from prose.py.
LABELS = {
    "contents": ("目次", "Contents"),
    "learn": ("遊び方", "Learn to Play"),
    "reference": ("ルール詳細", "Rules Reference"),
    "players": ("{lo}〜{hi}人", "{lo} to {hi} players"),
    "players_exactly": ("{n}人", "{n} players"),
    "seating": ({"clockwise": "時計回り", "counterclockwise": "反時計回り"},
                {"clockwise": "play goes clockwise", "counterclockwise": "play goes counterclockwise"}),
    "variants": ("このルールブックに入っているバリエーション", "Variants in this rulebook"),
    "variant_mark": ("変更", "changed by"),
    "removed": ("取り除かれたもの", "Removed"),
    "undecided": ("未決の点", "Not yet decided"),
    "undecided_intro": ("次の点はまだ決まっていない。仮の扱いがあるものは、それぞれの箇所に示した扱いで遊ぶ。"
                        "仮の扱いがないものは、その箇所に、起きたときの対処を示した。",
                        "These points are not decided yet. Where a point has a provisional answer, play it as printed where "
                        "it applies; where it has none, the book says there what the table does when it happens."),
    "no_answer": ("仮の扱いはない。遊んでいてこの場面になったら、いったん手を止め、全員で扱いを決めてから続ける。"
                  "決めた扱いはデザイナーに伝えるため書き留めておく。",
                  "There is no provisional answer. If it happens in play, stop, agree a ruling among the players, "
                  "and play on; note the ruling for the designer."),
    "settled_by": ("この点を決めるバリエーション(それぞれ別のルールブックがある): {titles}",
                   "Variants that settle this point (each has its own rulebook): {titles}"),
    "provisional": ("仮の値", "provisional value"),
    "not_decided": UNDECIDED,
    "components": ("内容物", "Components"),
    "count": ("枚数", "copies"),
    "zones": ("置き場", "Where things go"),
    "teams": ("{n}人ずつのチーム", "teams of {n}"),
    "numbers": ("数値", "Numbers"),
    "markers": ("ゲーム中に覚えておくこと", "What players keep track of"),
    "score": ("スコア", "Score"),
    "cooperative": ("協力ゲーム", "Cooperative"),
    "terms": ("用語", "Terms"),
    "setup": ("準備", "Setup"),
    "play": ("ゲームの流れ", "How to play"),
    "rules": ("ルールの詳細", "Rules in detail"),
    "triggers": ("いつでも適用されるルール", "Rules that apply at any time"),
    "ending": ("ゲームの終わりと勝敗", "End of the game and winning"),
    "in_place": ("「{w}」の項を参照。", "See “{w}”."),
    "questions": ("未決の問題", "Open questions"),
    "glossary": ("用語集", "Glossary"),
    "turn": ("手順", "Turn by turn"),
    "you_may": ("できること", "What you may do"),
    "how_it_ends": ("ゲームの終わり", "How it ends"),
    "scoring": ("得点", "Scoring"),
    "see_book": ("未決の点が{n}点ある。詳しくはルールブックを参照。", "{n} points are not yet decided: see the rulebook."),
    "generated": ("このルールブックはルールファイルから生成された。", "Generated from the rule file."),
    "version": ("版 {v}", "version {v}"),
    "page_ref": ("{n}ページ", "p. {n}"),
    "undecided_line": ("未決の点が{n}点ある。それぞれ当てはまる箇所に印を付け、「{list}」にまとめた。",
                       "{n} points are not yet decided. Each is flagged where it applies and listed under “{list}”."),
    "where": ("該当箇所", "where"),
    "example": ("例", "Example"),
    "exact": ("正確なルール", "The exact rule"),
}


def label(lang: str, key: str, **fill):
    ja, en = LABELS[key]
    text = say(lang, ja, en)
    return text.format(**fill) if fill and isinstance(text, str) else text

