"""Notes and the questionnaire at the terminal, driven by scripted input as a keyboard would:
a note at a decision names a rule by its number, and after the end each person answers the
common questions and the designer's own, or skips them; the replay keeps them exactly as the
browser's page has them kept (notes.py), in English and Japanese."""
from __future__ import annotations

import io
import json

from rich.console import Console

from dsl.loader import load
from dsl.table import notes
from dsl.table.game_table import Table
from dsl.table.terminal import Terminal

from test_ask import EXAMPLE
from _util import GAMES

TICTACTOE = (GAMES / "tictactoe.rules").read_text(encoding="utf-8")


def _played(tmp_path, script, seats=("human", "random"), lang="en", extra=EXAMPLE):
    """Plays tic-tac-toe at the terminal: the first option at every decision, Enter wherever the
    keyboard is handed over, `script` for every other question; (table, screen, what was left)."""
    path = tmp_path / "g.rules"
    path.write_text(TICTACTOE + "\n" + extra, encoding="utf-8")
    t = Table(load(str(path))[0], 2, list(seats), 4, str(tmp_path / "g.json"))
    out = io.StringIO()
    left = list(script)
    prompts = {"en": ("Your choice (", "(q to stop)."), "ja": ("番号を選んでください (", "(q で中断)。")}[lang]

    def read():
        last = out.getvalue().rstrip().rsplit("\n", 1)[-1]
        if last.startswith(prompts[0]) and not (left and left[0].startswith("n")):
            return "1"
        if last.endswith(prompts[1]):
            return ""
        return left.pop(0) if left else None

    Terminal(t, lang, Console(file=out, width=200, highlight=False), read).run()
    return t, out.getvalue(), left


def _saved(t):
    return json.loads(open(t.replay_path, encoding="utf-8").read())


def test_a_person_answers_every_kind_of_question_and_a_wrong_answer_is_asked_again(tmp_path):
    script = ["n no good square left", "1",       # a note at the first decision, about 'Claim a square'
              "y",
              "4",                 # length: 1 too short, 2 about right, 3 too long; 4 is none of them
              "2",
              "",                  # how close: left unanswered
              "the rule about a full grid", "", "", "",
              "six",               # play again: a number from 1 to 5
              "5", "4",
              "5",                 # the designer's scale
              "3", "1",            # yes or no: 3 is neither, 1 is yes
              "x" * 161, "the corners"]
    t, screen, left = _played(tmp_path, script)
    assert left == [] and t.ended()
    assert "✎ note kept at action 0" in screen
    assert screen.count("type a number from 1 to 3") == 1 and screen.count("type a number from 1 to 5") == 1
    assert screen.count("type a number from 1 to 2") == 1
    assert "the answer to 'one_change' is over 160 characters" in screen
    assert "Could you teach this game to a friend? (1 Yes / 2 No; Enter to leave it): " in screen
    assert "Thank you: your answers are kept with the game." in screen
    saved = _saved(t)
    assert saved["notes"] == [{"step": 0, "seat": 0, "text": "no good square left", "rule": "take"}]
    assert saved["answers"] == {"0": {"length": "right", "lookups": "the rule about a full grid", "again": 5,
                                      "overall": 4, "asked": {"first_turn_fair": 5, "teach_it": "yes",
                                                              "one_change": "the corners"}}}
    # the browser's page keeps the same answers the same way
    same = Table.resume(t.replay_path)
    same.answers.clear()
    notes.add_answers(same, 0, {"length": "right", "lookups": "the rule about a full grid", "again": 5, "overall": 4,
                                "asked": [5, "yes", "the corners"]})
    assert notes.saved(same)["answers"] == saved["answers"]


def test_two_people_at_one_keyboard_answer_in_turn_and_one_may_skip(tmp_path):
    t, screen, left = _played(tmp_path, ["", "y"] + [""] * 8, seats=("human", "human"), extra="")
    assert left == []
    assert screen.index("P1, answer a few questions") < screen.index("Hand over to P2.") < screen.index("P2, answer")
    assert _saved(t)["answers"] == {"0": {"skipped": True}, "1": {}}


def test_the_end_of_input_stops_asking_and_keeps_nothing_for_that_person(tmp_path):
    t, screen, _ = _played(tmp_path, ["y", "2", "3"])
    assert t.ended() and _saved(t)["answers"] == {}
    resumed = Table.resume(t.replay_path)       # asked again when the game is opened once more
    assert notes.payload(resumed, 0, "en")["questions"]


def test_in_japanese_the_questions_and_choices_are_japanese(tmp_path):
    t, screen, _ = _played(tmp_path, ["はい", "3", "", "", "", "", "", "", "", "", "2", ""], lang="ja")
    assert "P1 さん、ゲームについていくつか質問に答えますか?" in screen
    assert "ゲームの長さはどう感じましたか? (1 短すぎる / 2 ちょうどよい / 3 長すぎる; Enter でとばす): " in screen
    assert "このゲームを人に教えられそうですか? (1 はい / 2 いいえ; Enter でとばす): " in screen
    assert _saved(t)["answers"] == {"0": {"length": "too_long", "asked": {"teach_it": "no"}}}
