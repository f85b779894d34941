"""The table's bot, `ismcts:Ss`: it thinks for a time a move, its imagined games played the way
the game's declared strategies play, so in Bluff it does not open past what its own dice and
the expected share of the others' make likely (random rollouts, where a reckless bid is hardly
ever called, made `ismcts:200` open 7 fives over 10 dice). The behaviour is checked with an
iteration count in place of the clock, which is what keeps it deterministic."""
from __future__ import annotations

import random

import pytest

from dsl.agents.search import ISMCTSAgent
from dsl.agents.spec import parse_agent
from dsl.agents.strategy import DeclaredMix
from dsl.engine import CHANCE, Game
from dsl.loader import load

from _util import BLUFF


def _openings(players: int, seeds):
    game = Game(load(str(BLUFF))[0], players)
    for seed in seeds:
        rng = random.Random(seed)
        s = game.new_initial_state(log=False)
        while s.is_chance():
            s.apply(rng.randrange(s.chance_outcomes()), CHANCE)
        p = int(s.current_actors()[0])
        yield game, s, p, [s.face[x] for x in s.zones[game.zone_names.index(f"cup({p + 1})")]]


def _likely(mine, face, dice) -> float:
    """What a bid on `face` can expect: the player's own dice that count (the face or the wild 6),
    and a third of everyone else's."""
    return sum(1 for f in mine if f == face or f == 6) + (dice - len(mine)) / 3


@pytest.mark.parametrize("players", [2, 3])
def test_the_bots_opening_bid_is_not_above_what_its_dice_make_likely(players):
    for game, s, p, mine in _openings(players, range(6)):
        bot = ISMCTSAgent(300, rollout=DeclaredMix())
        move = bot.act(s, p, random.Random(7))
        _, face, number = move
        assert number <= _likely(mine, face, 5 * players), (mine, move)
        assert bot.act(s, p, random.Random(7)) == move       # an iteration budget: the same move again


def test_a_time_budget_is_written_in_seconds_and_plays_the_declared_strategies():
    bot = parse_agent("ismcts:1s")
    assert bot.name == "ismcts:1s" and bot.budget.seconds == 1.0 and isinstance(bot.rollout, DeclaredMix)
    assert parse_agent("ismcts:0.5s").budget.seconds == 0.5
    for bad in ("ismcts:0s", "ismcts:xs", "ismcts:-1s"):
        with pytest.raises(ValueError, match="seconds"):
            parse_agent(bad)
    assert parse_agent("ismcts:200").rollout is None         # an iteration count plays as it always did
