"""Notes pinned to a moment of the game and the questionnaire after it, over the table's server
(Starlette's TestClient): a note reaches its writer and the designer's link only until the game
ends, is kept in the replay at its step with the rule it names, and the answers are kept per seat."""
from __future__ import annotations

import json

from test_serve import joined, served, stack, table_of  # noqa: F401  (fixture)

from dsl.table import notes
from dsl.table.game_table import Table

from _util import BLUFF, GAMES

TICTACTOE = GAMES / "tictactoe.rules"


def _play(ws, index=1):
    ws.send_json({"type": "act", "index": index})
    return ws.receive_json()


def test_a_note_reaches_its_writer_and_the_designer_only_until_the_game_ends(tmp_path, stack):  # noqa: F811
    t = table_of(TICTACTOE, ["human", "human"], 3, tmp_path)
    host, room, client = served(t, stack)
    p1, v1 = joined(client, room, 0)
    p2, v2 = joined(client, room, 1)
    des, vd = joined(client, room, None)
    assert {"name": "take", "title": "Claim a square"} in v1["notes"]["rules"]
    p1.send_json({"type": "note", "text": "<b>no good</b> choice here", "rule": "take"})
    mine, seen = p1.receive_json(), des.receive_json()
    assert mine["notes"]["notes"] == [{"step": 0, "seat": 0, "text": "<b>no good</b> choice here", "rule": "take"}]
    assert seen["notes"]["notes"] == mine["notes"]["notes"]
    # P2 is sent nothing for it; its next view (after P1's move) still holds no note
    after = _play(p1)
    assert after["notes"]["notes"][0]["text"].startswith("<b>")
    v2 = p2.receive_json()
    des.receive_json()
    assert v2["notes"]["notes"] == [] and "no good" not in json.dumps(v2)
    for ws, idx in ((p2, 1), (p1, 1), (p2, 1), (p1, 1)):        # P1 takes the first column... to the end
        ws.send_json({"type": "act", "index": idx})
        for w in (p1, p2, des):
            last = w.receive_json()
    while not last["view"]["ended"]:
        mover = p1 if 0 in last["view"]["turn"]["actors"] else p2
        mover.send_json({"type": "act", "index": 1})
        for w in (p1, p2, des):
            m = w.receive_json()
            if w is p2:
                last = m
    assert [n["text"] for n in last["notes"]["notes"]] == ["<b>no good</b> choice here"]
    saved = json.loads(open(t.replay_path, encoding="utf-8").read())
    assert saved["notes"] == [{"step": 0, "seat": 0, "text": "<b>no good</b> choice here", "rule": "take"}]


def test_a_note_too_long_empty_or_naming_no_rule_is_refused_and_nothing_kept(tmp_path, stack):  # noqa: F811
    t = table_of(TICTACTOE, ["human", "human"], 3, tmp_path)
    host, room, client = served(t, stack)
    p1, _ = joined(client, room, 0)
    for msg, says in (({"text": "x" * (notes.MAX_TEXT + 1)}, "over 500 characters"),
                      ({"text": "  "}, "empty"), ({"text": 5}, "must be text"),
                      ({"text": "hm", "rule": "no_such_rule"}, "rulebook lists")):
        p1.send_json({"type": "note", **msg})
        r = p1.receive_json()
        assert r["type"] == "refused" and says in r["reason"], r
    assert getattr(t, "notes", []) == []
    assert json.loads(open(t.replay_path, encoding="utf-8").read())["notes"] == []


def test_the_questionnaire_opens_at_the_end_and_keeps_each_seats_answers_or_its_skip(tmp_path, stack):  # noqa: F811
    t = table_of(TICTACTOE, ["human", "human"], 3, tmp_path)
    host, room, client = served(t, stack)
    p1, v = joined(client, room, 0)
    assert "questions" not in v["notes"]
    p1.send_json({"type": "answers", "answers": {"overall": 4}})
    assert "ended" in p1.receive_json()["reason"]
    while not t.ended():
        t.act(t.humans_to_act()[0], 1)
    p2, v2 = joined(client, room, 1)
    assert [q["key"] for q in v2["notes"]["questions"]] == [k for k, *_ in notes.QUESTIONS]
    p2.send_json({"type": "answers", "answers": {"overall": 9}})
    assert "1 to 5" in p2.receive_json()["reason"]
    # the longest answers a page lets through fit in one message, even in 4-byte characters
    p2.send_json({"type": "answers", "answers": {k: "🎲" * (notes.MAX_ANSWER + 1) if k == "unclear" else "🎲" * notes.MAX_ANSWER
                                                 for k, kind, *_ in notes.QUESTIONS if kind == "text"}})
    assert "'unclear' is over 200 characters" in p2.receive_json()["reason"]
    p2.send_json({"type": "answers", "answers": {"overall": 4, "again": 5, "length": "too_long",
                                                 "unclear": "who goes first"}})
    done = p2.receive_json()
    assert done["notes"].get("answered") and "questions" not in done["notes"]
    p1.send_json({"type": "answers", "answers": None})
    p1.receive_json()
    saved = json.loads(open(t.replay_path, encoding="utf-8").read())
    assert saved["answers"] == {"1": {"overall": 4, "again": 5, "length": "too_long", "unclear": "who goes first"},
                                "0": {"skipped": True}}
    back = Table.resume(t.replay_path)
    assert back.notes == [] and back.answers == saved["answers"]


def test_a_note_in_japanese_names_a_rule_by_its_japanese_title(tmp_path, stack):  # noqa: F811
    t = table_of(BLUFF, ["human", "random", "random"], 5, tmp_path)
    host, room, client = served(t, stack)
    p1, v = joined(client, room, 0, "ja")
    titles = [r["title"] for r in v["notes"]["rules"]]
    assert titles and all(isinstance(x, str) and x for x in titles)
    assert any(any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff" for ch in x) for x in titles)


def test_at_the_terminal_n_leaves_a_note_naming_a_rule_by_its_number(tmp_path):
    import io

    from rich.console import Console

    from dsl.loader import load
    from dsl.table.terminal import Terminal
    t = Table(load(str(TICTACTOE))[0], 2, ["human", "random"], 1, str(tmp_path / "g.json"))
    t.advance()
    script = iter(["n the grid is small", "1", "n", "", "1", "q"])
    out = io.StringIO()
    Terminal(t, "en", Console(file=out, width=120, highlight=False), lambda: next(script)).run()
    text = out.getvalue()
    assert "1. Claim a square" in text and "✎ note kept at action 0" in text
    saved = json.loads(open(t.replay_path, encoding="utf-8").read())
    assert saved["notes"] == [{"step": 0, "seat": 0, "text": "the grid is small", "rule": "take"}]
