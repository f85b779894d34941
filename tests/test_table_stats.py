"""table-stats: games played at the table beside random play, figures checked against the
games themselves and against `simulate`."""
from __future__ import annotations

import json
import os
import random

from click.testing import CliRunner

from dsl.cli import main
from dsl.loader import load
from dsl.table import Table


def _played(folder, seed, finish=True):
    rules = load(os.path.join("games", "bluff.rules"))[0]
    table = Table(rules, 2, ["human", "random"], seed, str(folder / f"bluff-{seed}.json"))
    table.advance()
    rng = random.Random(seed)
    while not table.ended():
        if not finish and len(table.actions) > 3:
            break
        opts = table.options(0, "en")
        table.act(0, rng.randrange(len(opts)) + 1)
    return table


def test_table_games_beside_random_play(tmp_path):
    tables = [_played(tmp_path, s) for s in (1, 2, 3)] + [_played(tmp_path, 4, finish=False)]
    (tmp_path / "notes.json").write_text("{}", encoding="utf-8")
    out = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "50", "--seed", "7", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [s["file"] for s in data["skipped"]] == [str(tmp_path / "notes.json")]
    (group,) = data["groups"]
    t = group["table"]
    assert (t["games"], t["finished"]) == (4, 3)
    done = tables[:3]
    decisions = [sum(1 for a in x.actions if a[0] != -1) for x in done]
    assert t["decisions_per_game"]["mean"] == round(sum(decisions) / 3, 2)
    wins = [sum(1 for x in done if x.state.outcome and seat in [int(p) for p in x.state.outcome]) for seat in (0, 1)]
    assert t["win_share_by_seat"] == {"1": round(wins[0] / 3, 4), "2": round(wins[1] / 3, 4)}
    assert t["people_win_share"] == round(wins[0] / 3, 4) and t["people_fair_share"] == 0.5
    people = sum(1 for x in tables for a in x.actions if a[0] == 0)      # a stopped game's choices count too
    assert t["decisions_counted"] == people
    # the random column is simulate's own figures for the same seed and number of games
    sim = json.loads(CliRunner().invoke(
        main, ["simulate", "games/bluff.rules", "-p", "2", "-n", "50", "--seed", "7", "--json"]).stdout)
    r = group["random"]
    assert r["games"] == r["finished"] == 50
    assert r["decisions_per_game"]["mean"] == sim["metrics"]["decisions"]["mean"]
    assert r["decisions_per_game"]["median"] == sim["metrics"]["decisions"]["median"]
    assert [r["win_share_by_seat"][str(w["seats"][0])] for w in sim["metrics"]["outcomes"]["wins"]] == \
        [w["value"] for w in sim["metrics"]["outcomes"]["wins"]]
    assert sum(r["dead_ends"].values()) == sum(d["count"] for d in sim["dead_ends"] if d["kind"] != "step limit")
    text = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "50", "--seed", "7"]).stdout
    assert "games (finished)" in text and "4 (3)" in text and "Raise or call bluff: Call bluff" in text


def test_a_folder_without_table_games_says_so(tmp_path):
    (tmp_path / "x.json").write_text("[]", encoding="utf-8")
    out = CliRunner().invoke(main, ["table-stats", str(tmp_path)])
    assert out.exit_code == 1 and "no game played by people" in out.stderr


def test_a_replay_whose_rules_cannot_be_loaded_is_skipped_with_a_note(tmp_path):
    """Rules edited since the game was played (or deleted) leave out the games played on them,
    each with a one-line note, as a file that is no replay is; the other games are counted."""
    _played(tmp_path, 1)
    _played(tmp_path, 2)
    broken = tmp_path / "broken.rules"
    broken.write_text("game broken\n  players 2 to 2\n\nplay\n  nonsense here\n", encoding="utf-8")
    for name, rules in (("edited.json", str(broken)), ("gone.json", str(tmp_path / "deleted.rules"))):
        data = json.loads((tmp_path / "bluff-2.json").read_text(encoding="utf-8"))
        data["rules"] = rules
        (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    out = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "5", "--seed", "7", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    why = {os.path.basename(s["file"]): s["why"] for s in data["skipped"]}
    assert set(why) == {"edited.json", "gone.json"}
    assert why["edited.json"].startswith(f"its rules cannot be loaded ({broken}:5:")
    assert why["gone.json"].startswith("its rules cannot be loaded (")
    (group,) = data["groups"]
    assert group["table"]["games"] == 2
    text = CliRunner().invoke(main, ["table-stats", str(tmp_path), "-n", "5", "--seed", "7"])
    assert text.exit_code == 0 and "Traceback" not in text.output
    notes = [line for line in text.stderr.splitlines() if line.startswith("skipped ")]
    assert len(notes) == 2 and all("its rules cannot be loaded" in line for line in notes)
