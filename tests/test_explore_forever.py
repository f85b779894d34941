"""`explore` proves a game can go on for ever with the shortest history that returns to a state
already seen, and tells the actions it followed from the distinct edges of its state graph."""
from __future__ import annotations

import json

from click.testing import CliRunner

from dsl.analyses import replay
from dsl.analyses.explore import explore
from dsl.cli import main
from dsl.engine import Game
from dsl.engine.order import state_keyer
from dsl.loader import load

# A swing forward or back: two swings forward in a row end the game, a swing back undoes
# every swing so far, so play can go back and forth for ever.
PENDULUM = """\
game pendulum
  players 2 to 2

counter position = 0

play
  repeat until position >= 2
    step swing
      player(1) chooses one of
        option forward
          add 1 to position
        option back
          set position to 0
  end game winners [player(1)]
"""

# Play goes round three turns before it is back where it started; only a 3 ends it.
ROUNDABOUT = """\
game roundabout
  players 2 to 2

counter spot = 0

play
  repeat until spot = 3
    step move
      player(1) chooses one of
        option ahead if spot < 2
          add 1 to spot
        option home if spot = 2
          set spot to 0
        option leave if spot = 2
          set spot to 3
  end game winners [player(1)]
"""

# Either choice ends the game the same way: two actions, one edge of the state graph.
FINITE = """\
game finite
  players 2 to 2

counter done = 0

play
  player(1) chooses one of
    option a
      set done to 1
    option b
      set done to 1
  end game winners [player(1)]
"""


def _game(tmp_path, text, name="g.rules"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    rules, _ = load(str(p))
    return Game(rules, 2), p


def test_a_swing_back_at_the_start_is_a_history_of_one_action(tmp_path):
    g, _ = _game(tmp_path, PENDULUM)
    r = explore(g)
    assert r.finished and r.cyclic
    assert r.forever == {"length": 1, "returns_after": 0, "actions": [[0, ["back"]]]}
    assert "the game can go on forever: after 1 action play is back in the state it was in after 0 actions" \
        in r.format_text()
    assert "but a game need not end" in r.format_text()


def test_the_shortest_return_goes_round_the_whole_loop(tmp_path):
    g, _ = _game(tmp_path, ROUNDABOUT)
    r = explore(g)
    f = r.forever
    assert f["length"] == 3 and f["returns_after"] == 0
    assert [m for _, m in f["actions"]] == [["ahead"], ["ahead"], ["home"]]
    key = state_keyer(g)
    start = g.new_initial_state()
    s = replay.run(g, f["actions"], log=False)
    assert key(s) == key(start) and not s.is_terminal()       # back where the history began
    assert json.loads(json.dumps(r.to_json()))["forever"] == f


def test_a_game_with_a_bound_has_no_such_history(tmp_path):
    g, _ = _game(tmp_path, FINITE)
    r = explore(g)
    assert r.finished and not r.cyclic and r.forever is None
    assert "forever" not in r.format_text()


def test_actions_followed_and_distinct_edges(tmp_path):
    g, _ = _game(tmp_path, FINITE)
    r = explore(g)
    assert r.transitions == 2 and r.distinct_edges == 1       # a and b lead to the same state
    text = r.format_text()
    assert "actions followed 2, distinct edges 1" in text
    j = r.to_json()
    assert (j["transitions"], j["distinct_edges"]) == (2, 1)


def test_the_cli_saves_the_history_as_a_replay(tmp_path):
    _, path = _game(tmp_path, ROUNDABOUT)
    out = tmp_path / "replays"
    r = CliRunner().invoke(main, ["explore", str(path), "-p", "2", "--save-replays", str(out)])
    assert r.exit_code == 0, r.output
    assert "the game can go on forever" in r.output
    saved = sorted(out.glob("*forever*.json"))
    assert len(saved) == 1
    data = json.loads(saved[0].read_text(encoding="utf-8"))
    assert [m for _, m in data["actions"]] == [["ahead"], ["ahead"], ["home"]]


# ROUNDABOUT without its way out: every game runs into the step bound.
ENDLESS = ROUNDABOUT.replace("  players 2 to 2\n", "  players 2 to 2\n  max steps 30\n").replace(
    "        option leave if spot = 2\n          set spot to 3\n", "")


def test_fuzz_reports_the_step_limit_game_that_goes_round(tmp_path):
    from dsl.analyses.fuzz import fuzz
    g, path = _game(tmp_path, ENDLESS)
    r = fuzz(g, max_examples=20, seed=1)
    kinds = {f.kind: f for f in r.findings}
    assert "step limit" in kinds and "can go on forever" in kinds
    f = kinds["can go on forever"]
    assert len(f.actions) == 3 and [m for _, m in f.actions] == [["ahead"], ["ahead"], ["home"]]
    assert "after 3 actions play is back in the state it was in after 0" in f.message
    key = state_keyer(g)
    assert key(replay.run(g, f.actions, log=False)) == key(g.new_initial_state())
    assert "can go on forever" in r.format_text()
    out = tmp_path / "fuzzed"
    cli = CliRunner().invoke(main, ["fuzz", str(path), "-p", "2", "-n", "20", "--save-replays", str(out)])
    assert "can go on forever" in cli.output
    assert len(list(out.glob("*forever*.json"))) == 1
