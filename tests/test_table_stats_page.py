"""`table-stats DIR --html OUT` and `report --replays DIR`: the page of the games played at the
table, its charts inline SVG, the ratings with their intervals, the notes by rule and by decision
with the command that opens each, the rulings, the table beside random play and the bots with
where they agree, the same bytes on a second run."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

from click.testing import CliRunner

from dsl.cli import main
from dsl.loader import load
from dsl.table import notes
from dsl.table.game_table import Table

from test_ask import EXAMPLE
from _util import GAMES

TICTACTOE = (GAMES / "tictactoe.rules").read_text(encoding="utf-8")
# (the overall rating, the designer's scale, yes or no) of the two people in each game
ANSWERS = [((4, 5, "yes"), (2, 4, "no")), ((5, 3, "yes"), (3, 2, "yes")), ((4, 4, "no"), (1, 1, "yes"))]


def games_played(folder) -> tuple:
    """Three games of tic-tac-toe (with the language guide's own questions) by two people, each
    leaving a note in the first game; (the rule file, the replays)."""
    folder.mkdir(parents=True, exist_ok=True)
    rules_path = folder / "ttt.rules"
    rules_path.write_text(TICTACTOE + "\n" + EXAMPLE, encoding="utf-8")
    rules = load(str(rules_path))[0]
    paths = []
    for i, answers in enumerate(ANSWERS):
        t = Table(rules, 2, ["human", "human"], 10 + i, str(folder / f"{i}.json"))
        t.advance()
        if i == 0:
            notes.add_note(t, 0, "no good square left", "take")
            t.act(0, 1)
            notes.add_note(t, 1, "is a full grid a draw?", None)
        while not t.ended():
            t.act(t.humans_to_act()[0], 1)
        for seat, (overall, fair, teach) in enumerate(answers):
            notes.add_answers(t, seat, {"overall": overall, "asked": [fair, teach]})
        paths.append(str(folder / f"{i}.json"))
    return rules_path, paths


def run(*args):
    r = CliRunner().invoke(main, [str(a) for a in args])
    assert r.exit_code == 0, r.output
    return r


class _Checked(HTMLParser):
    """Every element closed in order (the page is one tree), and what it links to."""
    VOID = {"meta", "br", "path", "use", "rect", "circle", "line", "polyline", "polygon", "stop", "image", "ellipse"}

    def __init__(self):
        super().__init__()
        self.open, self.fetched = [], []

    def handle_starttag(self, tag, attrs):
        self.fetched += [v for k, v in attrs if k in ("src", "href") and v and not v.startswith("#")]
        if tag not in self.VOID:
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.fetched += [v for k, v in attrs if k in ("src", "href") and v and not v.startswith("#")]

    def handle_endtag(self, tag):
        if tag not in self.VOID:
            assert self.open and self.open[-1] == tag, (tag, self.open[-3:])
            self.open.pop()


def test_the_page_lists_ratings_notes_and_the_table_beside_the_bots_the_same_bytes_twice(tmp_path):
    _, paths = games_played(tmp_path / "games")
    page = tmp_path / "page.html"
    args = ("table-stats", tmp_path / "games", "-n", 10, "--against", "ismcts:4", "--against-games", 4, "--html", page)
    r = run(*args)
    first = page.read_bytes()
    run(*args)
    assert page.read_bytes() == first
    html = first.decode("utf-8")
    checked = _Checked()
    checked.feed(html)
    assert checked.open == [] and checked.fetched == []     # one self-contained page: nothing fetched
    assert "<script" not in html
    # charts: length and wins beside random play and ismcts, the ratings
    assert html.count("<svg") == 3
    # the overall ratings 4, 2, 5, 3, 4, 1: mean 19/6, sd sqrt(13/6), t(5) 2.571
    low = 19 / 6 - 2.571 * (13 / 6) ** 0.5 / 6 ** 0.5
    assert f"<td>Overall (1 poor, 5 great)</td><td>6</td><td>3.17</td><td>{low:.2f} – {19 / 3 - low:.2f}</td>" in html
    assert "Could you teach this game to a friend?: yes 4, no 2" in html
    assert "<h4>Claim a square</h4>" in html and "<h4>(no rule named)</h4>" in html
    assert f"at action 0, P1: no good square left<br><code class=\"open\">playtest replay {paths[0]} --serve --step 0</code>" in html
    assert f"playtest replay {paths[0]} --serve --step 1</code>" in html
    assert "<td>0.json</td><td>1</td><td>P2</td><td>–</td><td class=\"text\">is a full grid a draw?</td>" in html
    assert html.count("agrees within the intervals") + html.count("differs beyond the intervals") == 2 * 3
    data = json.loads(run("table-stats", tmp_path / "games", "-n", 10, "--against", "random", "--against-games", 4,
                          "--json").output)
    flags = data["groups"][0]["calibration"]["flags"]
    assert len(flags) == 3 and {f["bot"] for f in flags} == {"random"}
    assert "wrote " in r.output


def test_the_page_in_japanese_and_a_note_is_text_never_markup(tmp_path):
    rules_path, paths = games_played(tmp_path / "games")
    t = Table.resume(paths[1])
    notes.add_note(t, 0, "<img src=x onerror=alert(1)>", None)
    page = tmp_path / "ja.html"
    run("table-stats", tmp_path / "games", "-n", 5, "--against-games", 3, "--lang", "ja", "--html", page)
    html = page.read_text(encoding="utf-8")
    assert "<h3>ルールごとのメモ</h3>" in html and "<h4>マスを取る</h4>" in html
    assert "このゲームを人に教えられそうですか?: はい 4, いいえ 2" in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html and "<img" not in html


def test_a_page_that_cannot_be_written_is_refused_before_any_game_is_played(tmp_path):
    games_played(tmp_path / "games")
    (tmp_path / "dir").mkdir()
    r = CliRunner().invoke(main, ["table-stats", str(tmp_path / "games"), "--html", str(tmp_path / "dir")])
    assert r.exit_code == 2 and "--html" in r.output and "Traceback" not in r.output


def test_the_balance_report_with_replays_adds_the_tables_section_for_its_own_rules(tmp_path):
    rules_path, paths = games_played(tmp_path / "games")
    base = tmp_path / "rep"
    run("report", rules_path, "-p", 2, "-n", 10, "--replays", tmp_path / "games", "-o", base)
    html = (tmp_path / "rep.html").read_text(encoding="utf-8")
    assert "<h2 id=\"group-1\">At the table: " in html and "<h4>Claim a square</h4>" in html
    assert re.search(r"Overall \(1 poor, 5 great\)</td><td>6</td>", html)
    data = json.loads((tmp_path / "rep.json").read_text(encoding="utf-8"))
    assert [s["games"] for s in data["table"]["sessions"]] == [3]
    assert data["table"]["groups"][0]["table"]["games"] == 3
    # another game's replays are left out of this game's report
    other = tmp_path / "other.rules"
    other.write_text(TICTACTOE, encoding="utf-8")
    run("report", other, "-p", 2, "-n", 10, "--replays", tmp_path / "games", "-o", tmp_path / "rep2")
    data = json.loads((tmp_path / "rep2.json").read_text(encoding="utf-8"))
    assert data["table"] == {"groups": [], "sessions": []}
