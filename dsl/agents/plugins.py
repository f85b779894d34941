"""Agents from Python packages: the `playtest.agents` entry-point group.

A package ships an agent by naming a class in its metadata:

    [project.entry-points."playtest.agents"]
    cautious = "cautious_agent:Cautious"

The class is made with no arguments and answers one question, `act(observation, options, rng)`,
with the index of the option it takes. It never sees the game's state: `observation` is what
its seat may see, as plain data (`Game.observation`: every zone, a piece it cannot see as
None; the counters and variables, which everyone sees; who is still in), and `options` the
moves it may make, each `{"option": NAME, "values": [...]}`, a piece it cannot see named
None there too. `rng` is a `random.Random` to draw from, so a seed replays its games.

`--agents cautious` or `--agents plugin:cautious` then seats it wherever agents go.

May import the engine's values and .infoset.
"""
from __future__ import annotations

import random
from importlib.metadata import entry_points

from ..engine.values import Piece, plain
from .infoset import visible_zones

GROUP = "playtest.agents"


class PluginError(ValueError):
    """A package's agent failed or answered with no option: the run stops, naming the agent."""


def installed() -> dict:
    """Every agent the installed packages declare: name -> entry point."""
    return {ep.name: ep for ep in entry_points(group=GROUP)}


def plugin_agent(spec: str):
    """The agent `spec` names (`plugin:NAME`, or a bare NAME a package declares); None for a
    bare name no package declares; ValueError for a `plugin:` name none does, or one that
    fails to load."""
    text = spec.strip()
    explicit = text.lower().startswith("plugin:")
    name = text.split(":", 1)[1].strip() if explicit else text
    found = installed()
    ep = found.get(name)
    if ep is None:
        if not explicit:
            return None
        known = ", ".join(sorted(found)) or "none is installed"
        raise ValueError(f"no installed package declares an agent '{name}' in the '{GROUP}' entry points "
                         f"(installed: {known})")
    try:
        made = ep.load()()
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # someone else's code: whatever it raises (sys.exit too) is reported, never a traceback
        raise ValueError(f"the agent '{name}' ({ep.value}) could not be loaded: {_what(e)}") from None
    if not callable(getattr(made, "act", None)):
        raise ValueError(f"the agent '{name}' ({ep.value}) has no act(observation, options, rng) method")
    return PluginAgent(name, made)


class PluginAgent:
    """A package's agent in a seat: it is shown the seat's observation and options, never the state."""

    def __init__(self, name: str, impl):
        self.name = name
        self.impl = impl

    def act(self, state, player, rng: random.Random, moves=None):
        game = state.game
        if moves is None:
            moves = game.legal_moves(state.clone(), player)
        seen = seat_view(game, state, player)
        try:
            k = self.impl.act(seen["observation"], seen["options_of"](moves), rng)
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # someone else's code: reported by name, never as a traceback of ours
            raise PluginError(f"the agent '{self.name}' failed: {_what(e)}") from None
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k < len(moves):
            raise PluginError(f"the agent '{self.name}' answered {k!r}, not the index of one of its "
                             f"{len(moves)} options (0 to {len(moves) - 1})")
        return moves[k]


def _what(e: BaseException) -> str:
    """What an agent's code raised. sys.exit in it would otherwise end the command as if the run
    had finished (sys.exit(0): no output, status 0), so it is a failure of the agent like any other."""
    if isinstance(e, SystemExit):
        return f"it called sys.exit({e.code!r}), which would end the whole run"
    return f"{type(e).__name__}: {e}"


def seat_view(game, state, player) -> dict:
    """What a seat's agent is given: its observation as plain data, and a way to show it its moves."""
    visible = visible_zones(game, player)
    observation = game.observation(state, player)
    # the counters kept per player, team or piece as the seat sees them (a hidden one None), as `counters` has them
    observation["player_variables"] = {n: list(row) for n, row in observation["counters"].items()}

    def shown(v):
        if type(v) is Piece:
            return int(v) if visible[state.loc[v]] or state.revealed[v] or player in state.looked.get(v, ()) else None
        if isinstance(v, tuple):
            return [shown(x) for x in v]
        return plain(v)

    def options_of(moves):
        return [{"option": m[0], "values": [shown(x) for x in m[1:]]} for m in moves]
    return {"observation": observation, "options_of": options_of}
