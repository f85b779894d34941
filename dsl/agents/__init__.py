"""Agents that play to win without peeking, and the loop that lets them play.

The public face (what `simulate --agents`, `diff -n --agents`, report and sweep use):
`Agent` (the protocol), `parse_agents(spec, n_players)`, `play(game, agents, rng, record)`;
also the agents themselves (a declared strategy's too: .strategy) and the information-set sampler.

May import the engine and the analyses' `Played`; nothing from the CLI or printing.
"""
from __future__ import annotations

import random
from typing import Protocol

from .infoset import Determinizer, sample_state
from .play import play
from .search import FlatAgent, ISMCTSAgent, RandomAgent
from .plugins import PluginError
from .spec import FORMS, parse_agent, parse_agents
from .strategy import StrategyAgent, StrategyError

# What an agent the user names can fail with during a run (a package's code, a declared
# strategy): the commands print it and stop, never with a traceback.
AGENT_ERRORS = (PluginError, StrategyError)


class Agent(Protocol):
    """Chooses a move for `player`: one of `game.legal_moves(state, player)`, never changing
    `state`; all randomness from `rng`. `moves`, when given, is that list already worked out."""
    name: str

    def act(self, state, player, rng: random.Random, moves=None):
        ...


__all__ = ["AGENT_ERRORS", "Agent", "Determinizer", "FORMS", "FlatAgent", "ISMCTSAgent", "RandomAgent",
           "StrategyAgent", "parse_agent", "parse_agents", "play",
           "sample_state"]
