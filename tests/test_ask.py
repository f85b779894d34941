"""`ask`: the designer's own questions for the questionnaire after the game. The checker's
messages with their positions, the questions shown after the common ones in either language,
the answers kept in the replay under their names (through the table's server), refused when
they are not what the question takes, and summed up by `table-stats`."""
from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from test_serve import joined, served, stack  # noqa: F401  (fixture)

from dsl.cli import main
from dsl.loader import load
from dsl.table import notes
from dsl.table.game_table import Table

from _util import GAMES, ROOT

TICTACTOE = (GAMES / "tictactoe.rules").read_text(encoding="utf-8")


def _docs_example() -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("### 2.11a `ask`")
    return re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1)


EXAMPLE = _docs_example()


def _file(tmp_path, extra: str, name="g.rules"):
    path = tmp_path / name
    path.write_text(TICTACTOE + "\n" + extra, encoding="utf-8")
    return path


def _check(path):
    return CliRunner().invoke(main, ["check", str(path)])


def _ended_table(tmp_path, extra=EXAMPLE, save="game.json"):
    t = Table(load(str(_file(tmp_path, extra)))[0], 2, ["human", "human"], 3, str(tmp_path / save))
    t.advance()
    while not t.ended():
        t.act(t.humans_to_act()[0], 1)
    return t


def test_the_example_of_the_language_guide_checks_clean_and_reads_in_both_languages(tmp_path):
    assert EXAMPLE.startswith("ask first_turn_fair is scale\n") and "ask teach_it is yes or no" in EXAMPLE
    r = _check(_file(tmp_path, EXAMPLE))
    assert r.exit_code == 0, r.output
    from dsl.constructs.ask import Ask
    from dsl.constructs.registry import hook
    from dsl.printing.prose import Voice
    from dsl.printing.runs import plain
    rules = load(str(_file(tmp_path, EXAMPLE)))[0]
    [scale, yes_no, text] = rules.of(Ask)
    assert (scale.kind, yes_no.kind, text.kind) == ("scale", "yes_no", "text")
    assert plain(hook(yes_no, "read")(Voice(rules, "en"), yes_no)) == \
        "asked after the game: “Could you teach this game to a friend?” (answered yes or no)"
    assert plain(hook(yes_no, "read")(Voice(rules, "ja"), yes_no)) == \
        "ゲーム後の質問「このゲームを人に教えられそうですか?」(はい・いいえで答える)"


def test_a_question_without_a_title_or_a_language_or_one_too_many_is_reported_at_its_line(tmp_path):
    lines = TICTACTOE.count("\n") + 1          # the first line of what _file adds
    r = _check(_file(tmp_path, "ask plain is text\nask half is scale\n  title en \"Half?\"\n"))
    assert r.exit_code == 1
    assert f"g.rules:{lines + 1}:1: error: ask 'plain' has no question to show" in r.output
    assert 'hint: indent a line under it: title ja "…" en "…"' in r.output
    assert f"g.rules:{lines + 2}:1: warning: ask 'half' has no Japanese title: a table in Japanese shows the other one" in r.output
    many = "".join(f'ask q{i} is yes or no\n  title ja "質問{i}" en "question {i}"\n' for i in range(1, 8))
    r = _check(_file(tmp_path, many))
    assert r.exit_code == 1 and r.output.count("error:") == 1
    assert f"g.rules:{lines + 1 + 2 * 6}:1: error: the questionnaire takes at most 6 questions of the designer's; " \
           "this is question 7" in r.output
    r = _check(_file(tmp_path, 'ask fun is sometimes\n  title en "Fun?"\n'))
    assert r.exit_code == 1 and f"g.rules:{lines + 1}:12: error: unexpected 'sometimes'" in r.output
    r = _check(_file(tmp_path, 'ask full is scale\n  title ja "満?" en "Full?"\n'))
    assert "'full' is already declared at line" in r.output


def test_names_the_kinds_use_stay_free_elsewhere(tmp_path):
    extra = EXAMPLE + "counter scale = 0\ncounter yes = 0\nvalue no = scale + yes\n"
    r = _check(_file(tmp_path, extra))
    assert r.exit_code == 0 and "error:" not in r.output, r.output


def test_the_questions_follow_the_common_ones_in_the_tables_language_and_share_the_written_room(tmp_path):
    t = _ended_table(tmp_path)
    en, ja = notes.payload(t, 0, "en"), notes.payload(t, 0, "ja")
    keys = [q["key"] for q in en["questions"]]
    assert keys == [k for k, *_ in notes.QUESTIONS] + ["first_turn_fair", "teach_it", "one_change"]
    assert [q.get("asked", False) for q in en["questions"]] == [False] * len(notes.QUESTIONS) + [True] * 3
    assert en["questions"][-2] == {"key": "teach_it", "kind": "yes_no", "text": "Could you teach this game to a friend?",
                                   "asked": True}
    assert ja["questions"][-1]["text"] == "ルールを一つ変えるなら?"
    assert [y["text"] for y in ja["yes_no"]] == ["はい", "いいえ"]
    # four common written questions and one of the designer's: 800 characters in five parts
    assert en["max_answer"] == 160 == notes.MAX_WRITTEN // 5
    plain = _ended_table(tmp_path, extra="", save="plain.json")
    assert notes.payload(plain, 0, "en")["max_answer"] == notes.MAX_ANSWER == 200


@pytest.mark.parametrize("asked, why", [
    ([9], "'first_turn_fair' is a whole number from 1 to 5"),
    ([True], "'first_turn_fair' is a whole number from 1 to 5"),
    ([None, "maybe"], "'teach_it' is yes or no"),
    ([None, None, "x" * 161], "the answer to 'one_change' is over 160 characters"),
    ([1, "yes", "a", 4], "'asked' must list the answers to the designer's 3 questions in order"),
    ({"teach_it": "yes"}, "'asked' must list the answers to the designer's 3 questions in order"),
])
def test_an_answer_the_question_does_not_take_is_refused_and_nothing_kept(tmp_path, asked, why):
    t = _ended_table(tmp_path)
    with pytest.raises(notes.NoteRefused, match=re.escape(why)):
        notes.add_answers(t, 0, {"overall": 3, "asked": asked})
    assert notes.saved(t)["answers"] == {}


def test_the_answers_are_kept_in_the_replay_under_the_questions_names_through_the_server(tmp_path, stack):  # noqa: F811
    t = _ended_table(tmp_path)
    host, room, client = served(t, stack)
    p1, v1 = joined(client, room, 0)
    p2, v2 = joined(client, room, 1)
    assert v1["notes"]["questions"][-3]["key"] == "first_turn_fair"
    p1.send_json({"type": "answers", "answers": {"overall": 4, "asked": [4, "yes", "  the grid could be 4 by 4 "]}})
    assert p1.receive_json()["notes"]["answered"]
    p2.send_json({"type": "answers", "answers": {"asked": [None, "no"]}})
    p2.receive_json()
    saved = json.loads(open(t.replay_path, encoding="utf-8").read())
    assert saved["answers"] == {"0": {"overall": 4, "asked": {"first_turn_fair": 4, "teach_it": "yes",
                                                              "one_change": "the grid could be 4 by 4"}},
                                "1": {"asked": {"teach_it": "no"}}}
    assert [(q["key"], q["kind"], q["ja"]) for q in saved["asked"]] == [
        ("first_turn_fair", "scale", "先手と後手は公平でしたか?(1 不公平 〜 5 公平)"),
        ("teach_it", "yes_no", "このゲームを人に教えられそうですか?"),
        ("one_change", "text", "ルールを一つ変えるなら?")]
    back = Table.resume(t.replay_path)
    assert back.answers == saved["answers"]


def test_table_stats_sums_up_each_question_as_its_kind_allows(tmp_path):
    games = tmp_path / "games"
    for i, answers in enumerate([([5, "yes", "nothing"], [4, "no", None]), ([None, "yes", "the corners"], [2, None, None])]):
        games.mkdir(exist_ok=True)
        t = _ended_table(games, save=f"{i}.json")
        for seat, given in enumerate(answers):
            notes.add_answers(t, seat, {"asked": given})
    out = CliRunner().invoke(main, ["table-stats", str(games), "-n", "2", "--json"])
    assert out.exit_code == 0, out.output
    [s] = json.loads(out.output)["sessions"]
    fair = s["asked"]["first_turn_fair"]
    # 5, 4 and 2: mean 11/3, sd sqrt(7/3), t(2) = 4.303
    assert fair["rating"]["n"] == 3 and fair["rating"]["mean"] == round(11 / 3, 3)
    assert fair["rating"]["low"] == round(11 / 3 - 4.303 * (7 / 3) ** 0.5 / 3 ** 0.5, 3)
    assert (s["asked"]["teach_it"]["yes"], s["asked"]["teach_it"]["no"]) == (2, 1)
    assert [(a["seat"], a["text"]) for a in s["asked"]["one_change"]["answers"]] == [(0, "nothing"), (0, "the corners")]
    text = CliRunner().invoke(main, ["table-stats", str(games), "-n", "2"]).output
    assert "  the designer's question first_turn_fair (Was going first or second fair? (1 unfair, 5 fair)): " \
           "mean 3.67 of 3 (95% interval" in text
    assert "  the designer's question teach_it (Could you teach this game to a friend?): yes 2, no 1" in text
    assert "    P1: the corners" in text
