"""Agents from Python packages: examples/agent-package installed by pip, found through the
`playtest.agents` entry points, seated by --agents; and what such an agent is shown: the
observation and its options as plain data, never the state, nothing its seat cannot see."""
from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys

import pytest
from click.testing import CliRunner

from dsl.agents import parse_agent, play
from dsl.agents.plugins import GROUP, PluginAgent, PluginError, installed
from dsl.cli import main
from dsl.engine import Game
from dsl.loader import load

from _util import ROOT, game_of

KUHN = ROOT / "tests" / "fixtures" / "kuhn.rules"
PACKAGE = ROOT / "examples" / "agent-package"


def _pip_install(target) -> None:
    """The package installed as a user would, into a folder of its own: with the build tools
    already installed where they can build a wheel, else with pip's own isolated build."""
    base = [sys.executable, "-m", "pip", "install", "--no-deps", "--quiet", "--target", str(target), str(PACKAGE)]
    done = subprocess.run(base[:5] + ["--no-build-isolation"] + base[5:], capture_output=True, text=True)
    if done.returncode != 0:
        done = subprocess.run(base, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    _pip_install(target)
    sys.path.insert(0, str(target))
    importlib.invalidate_caches()
    try:
        yield target
    finally:
        sys.path.remove(str(target))
        sys.modules.pop("cautious_agent", None)
        importlib.invalidate_caches()


def test_pip_installs_the_example_and_the_entry_point_names_it(package):
    assert (package / "cautious_agent.py").exists()
    assert "cautious" in installed()
    assert installed()["cautious"].value == "cautious_agent:Cautious" and installed()["cautious"].group == GROUP
    for spec in ("cautious", "plugin:cautious"):
        agent = parse_agent(spec)
        assert isinstance(agent, PluginAgent) and agent.name == "cautious"


def test_the_installed_agent_plays_a_game(package):
    """Cautious checks as P1 and, when P2 bets, calls: every game goes check, then check or bet, then call."""
    game = game_of(str(KUHN), 2)
    for seed in range(20):
        played = play(game, [parse_agent("cautious"), parse_agent("random")], random.Random(seed))
        moves = [(actor, move[0]) for actor, move in played.actions if actor != -1]
        assert moves[0] == (0, "check")
        assert moves[1:] in ([(1, "check")], [(1, "bet"), (0, "call")])
        assert played.state.payoffs is not None


def test_the_installed_agent_is_seated_and_solved_against_from_the_command_line(package):
    res = CliRunner().invoke(main, ["simulate", str(KUHN), "-n", "30", "--agents", "cautious,random", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["agents"] == ["cautious", "random"]
    # by hand: cautious P1 checks and calls, so P2 bets a K (+2), a Q for 0, checks a J (-1): 1/3;
    # cautious P2 checks back and calls, so P1 bets a K (+2), a Q for 0, checks a J (-1): 1/3
    res = CliRunner().invoke(main, ["solve", str(KUHN), "--agents", "plugin:cautious", "--samples", "3", "--json"])
    [row] = json.loads(res.stdout)["agents"]
    assert row["seat_1"] == round(1 / 3, 6) and row["seat_2"] == round(1 / 3, 6)


class _Recorder:
    """An agent that keeps everything it is given, and takes the last option."""

    def __init__(self):
        self.calls = []

    def act(self, observation, options, rng):
        self.calls.append((observation, options, rng))
        return len(options) - 1


def _plain(v) -> bool:
    if isinstance(v, dict):
        return all(isinstance(k, str) and _plain(x) for k, x in v.items())
    if isinstance(v, list):
        return all(_plain(x) for x in v)
    return v is None or type(v) in (bool, int, float, str)


def test_an_agent_is_shown_its_observation_never_the_state():
    game = game_of(str(KUHN), 2)
    recorder = _Recorder()
    agent = PluginAgent("recorder", recorder)
    rng = random.Random(4)
    s = game.new_initial_state()
    while not s.is_terminal():
        if game.is_chance(s):
            game.apply(s, rng.randrange(game.chance_outcomes(s)))
            continue
        player, moves = game.decision(s)
        before = json.dumps(s.to_json(), sort_keys=True)
        move = agent.act(s, player, rng, moves)
        assert json.dumps(s.to_json(), sort_keys=True) == before         # the state is untouched
        observation, options, given_rng = recorder.calls[-1]
        assert _plain(observation) and _plain(options) and given_rng is rng
        expected = game.observation(s, player)
        assert {k: v for k, v in observation.items() if k != "player_variables"} == expected
        other = s.zones[game.zone_names.index(f"hand({2 - int(player)})")][0]
        assert all(x is None for x in observation["zones"][f"hand({2 - int(player)})"])
        assert {"piece": int(other)} not in [{"piece": x["piece"]} for z in observation["zones"].values()
                                             for x in z if x is not None]
        assert [o["option"] for o in options] == [m[0] for m in moves]
        game.apply(s, move, player)
    assert len(recorder.calls) >= 2


BLIND = """
game blind
  players 2 to 2

deck card
  in stock
  cards
    | rank |
    | 1    |
    | 2    |

zone stock is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner

play
  for each p in players
    p chooses c from stock
      move c to hand(p)
  end game
"""


def test_a_piece_the_seat_cannot_see_is_not_named_in_its_options(tmp_path):
    path = tmp_path / "blind.rules"
    path.write_text(BLIND)
    game = Game(load(str(path))[0], 2)
    recorder = _Recorder()
    s = game.new_initial_state()
    player, moves = game.decision(s)
    PluginAgent("recorder", recorder).act(s, player, random.Random(1), moves)
    _, options, _ = recorder.calls[0]
    assert options == [{"option": "choose", "values": [None]}, {"option": "choose", "values": [None]}]


def test_an_answer_that_is_not_an_option_is_a_clear_error():
    class Wrong:
        def act(self, observation, options, rng):
            return len(options)
    game = game_of(str(KUHN), 2)
    s = game.new_initial_state()
    game.apply(s, 0)
    with pytest.raises(PluginError, match="answered 2, not the index of one of its 2 options"):
        PluginAgent("wrong", Wrong()).act(s, 0, random.Random(1))

    class Broken:
        def act(self, observation, options, rng):
            return observation["state"]
    with pytest.raises(PluginError, match="the agent 'broken' failed: KeyError: 'state'"):
        PluginAgent("broken", Broken()).act(s, 0, random.Random(1))


class Broken:
    """An agent whose own code fails."""

    def act(self, observation, options, rng):
        return observation["state"]


def test_an_agent_that_fails_stops_solve_with_its_name_not_a_traceback(monkeypatch):
    from importlib.metadata import EntryPoint
    from dsl.agents import plugins
    monkeypatch.setattr(plugins, "installed", lambda: {"broken": EntryPoint("broken", f"{__name__}:Broken", GROUP)})
    res = CliRunner().invoke(main, ["solve", str(KUHN), "--agents", "plugin:broken", "--samples", "1"])
    assert res.exit_code == 1 and "error: the agent 'broken' failed: KeyError: 'state'" in res.output
    assert "Traceback" not in res.output


class Quits:
    """An agent that ends the process as it is asked to move."""

    def act(self, observation, options, rng):
        sys.exit(0)


class QuitsAtOnce:
    """An agent that ends the process as it is made."""

    def __init__(self):
        raise SystemExit(3)


class Escapes:
    """An agent raising a BaseException of its own, neither an Exception nor an interrupt."""

    def act(self, observation, options, rng):
        raise GeneratorExit("gone")


@pytest.mark.parametrize("name, said, status", [("quits", "it called sys.exit(0)", 1),
                                                ("escapes", "GeneratorExit: gone", 1),
                                                # made as --agents is read: a bad --agents, as any agent failing to load
                                                ("quitsatonce", "could not be loaded: it called sys.exit(3)", 2)])
def test_an_agent_that_exits_is_its_failure_not_the_end_of_the_run(monkeypatch, name, said, status):
    from importlib.metadata import EntryPoint
    from dsl.agents import plugins
    classes = {"quits": "Quits", "quitsatonce": "QuitsAtOnce", "escapes": "Escapes"}
    monkeypatch.setattr(plugins, "installed",
                        lambda: {name: EntryPoint(name, f"{__name__}:{classes[name]}", GROUP)})
    res = CliRunner().invoke(main, ["simulate", str(KUHN), "-n", "3", "--agents", f"plugin:{name},random",
                                    "--workers", "1"])
    assert res.exit_code == status, (res.exit_code, res.output)
    assert f"error: --agents: the agent '{name}'" in res.output if status == 2 else f"error: the agent '{name}'" in res.output
    assert said in res.output
    assert "Traceback" not in res.output


def test_an_interrupt_in_an_agent_is_still_an_interrupt():
    class Interrupted:
        def act(self, observation, options, rng):
            raise KeyboardInterrupt
    game = game_of(str(KUHN), 2)
    s = game.new_initial_state()
    game.apply(s, 0)
    with pytest.raises(KeyboardInterrupt):
        PluginAgent("interrupted", Interrupted()).act(s, 0, random.Random(1))


def test_an_agent_is_not_shown_a_counter_its_seat_may_not_see():
    """`player_variables` holds each counter as the seat sees it: another's `seen by owner` coins are None."""
    from _util import parsed
    game = Game(parsed("""game stash
  players 2 to 2
counter coins per player = 0
  seen by owner
play
  for each p in players
    p chooses n from 1 to 3
      add n to coins(p)
  end game by highest coins(p) for p in players ties share
"""), 2)
    recorder = _Recorder()
    agent = PluginAgent("recorder", recorder)
    s = game.new_initial_state()
    s.apply(["choose", 3], 0)
    player, moves = game.decision(s)
    assert player == 1 and s.pvars[game.pvar_slots["coins"]] == [3, 0]
    agent.act(s, player, random.Random(1), moves)
    observation = recorder.calls[-1][0]
    assert observation["player_variables"] == {"coins": [None, 0]} == observation["counters"]
