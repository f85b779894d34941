"""The values each option is made of, as the server sends them to the seat that chooses: in
the rule file's parameter order, in words, with each option's reading; nothing for a seat
that is not choosing, nor for the designer's view."""
from __future__ import annotations

from dsl.loader import load
from dsl.table import choices
from dsl.table.game_table import Table

from _util import BLUFF


def test_a_bids_values_come_face_then_count_with_the_options_reading():
    t = Table(load(str(BLUFF))[0], 2, ["human", "human"], 3)
    t.advance()
    c = choices.payload(t, 0, "en")
    opts = t.options(0, "en")
    assert len(c["values"]) == len(opts)
    for o, vals in zip(opts, c["values"]):
        assert [v["title"] for v in vals] == ["face", "count"]
        assert o["text"].endswith(f"face {vals[0]['value']}, count {vals[1]['value']}")
    assert c["readings"]["choose"].startswith("Choose a face (1 to 5) and a count")
    assert choices.payload(t, 1, "en") is None and choices.payload(t, None, "en") is None
    t.act(0, 1)
    c = choices.payload(t, 1, "ja")
    assert set(c["readings"]) == {"raise", "call_bluff"} and "宣言を上げる" in c["readings"]["raise"]
