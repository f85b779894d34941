"""No peeking, proven: an agent decides the same for two states its player cannot tell apart.

The twin of a state is built here, independently of the agents' sampler: two hidden pieces
of the same component and owner swap places (and every local naming one names the other;
a piece a variable names is seen, since variables are public), every hidden die gets a new face, and other players' face-down simultaneous
choices change to other legal choices. The acting player's observation must not change;
then the decision, and everything the agent drew from its RNG, must be identical.
A peeking agent (IS-MCTS handed the true state instead of a sample) is caught by it.
"""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from dsl.agents import FlatAgent, ISMCTSAgent, sample_state
from dsl.agents.infoset import named_pieces, visible_zones
from dsl.analyses.simulate import game_rng
from dsl.engine.values import Piece

from _util import GAMES, assert_conserved, game_of

SEED_GAMES = [("bluff", 2), ("bluff", 4), ("democracy", 3), ("byzantine", 3), ("dream-duels", 4),
              ("populus", 3), ("tictactoe", 2)]


def game(name, n):
    return game_of(str(GAMES / f"{name}.rules"), n)


def reached(g, seed, steps):
    """The state after `steps` random actions from game `seed`, moved on to a decision; or None."""
    rng = game_rng(seed, 0)
    s = g.new_initial_state()
    for _ in range(steps):
        if s.is_terminal():
            return None
        if g.is_chance(s):
            g.apply(s, rng.randrange(g.chance_outcomes(s)), validate=False)
            continue
        d = g.decision(s)
        if d is None:
            return None
        g.apply(s, rng.choice(d[1]), d[0], validate=False)
    while g.is_chance(s):
        g.apply(s, rng.randrange(g.chance_outcomes(s)), validate=False)
    if s.is_terminal() or g.decision(s) is None:
        return None
    return s


def twin(g, s, player, rng):
    """Another state `player` cannot tell from s (see the module docstring)."""
    t = s.clone()
    visible = visible_zones(g, player)
    groups = {}
    named = named_pieces(t)         # a variable shows which piece it names
    for z, pieces in enumerate(t.zones):
        if not visible[z]:
            for k, p in enumerate(pieces):
                if not t.revealed[p] and p not in named:
                    groups.setdefault((g.kind_of[p], g.piece_owner[p]), []).append((z, k))
    swappable = [places for places in groups.values() if len(places) > 1]
    if swappable:
        places = swappable[rng.randrange(len(swappable))]
        (z1, k1), (z2, k2) = rng.sample(places, 2)
        p, q = t.zones[z1][k1], t.zones[z2][k2]
        t.zones[z1][k1], t.zones[z2][k2] = q, p
        t.loc[p], t.loc[q] = z2, z1
        swap = {p: q, q: p}

        def re(v):
            if type(v) is Piece:
                return swap.get(v, v)
            return tuple(re(x) for x in v) if isinstance(v, tuple) else v
        t.loc_slots = [re(v) for v in t.loc_slots]
    for places in groups.values():
        for z, k in places:
            p = t.zones[z][k]
            faces = g.faces.get(g.kind_of[p])
            if faces:
                t.face[p] = faces[rng.randrange(len(faces))]
    pause = g.pauses.get(t.ip)
    if getattr(pause, "simultaneous", False):
        slot = pause.pending_slot
        changed = []
        for chooser, move in t.loc_slots[slot]:
            if player in g.players_in(chooser):
                changed.append((chooser, move))
                continue
            others = tuple(e for e in t.loc_slots[slot] if e[0] != chooser)
            t.loc_slots[slot] = others
            moves = g.legal_moves(t, g.acting_player(t, chooser))
            t.loc_slots[slot] = others + ((chooser, move),)
            changed.append((chooser, moves[rng.randrange(len(moves))] if moves else move))
        t.loc_slots[slot] = tuple(changed)
    t.memo.clear()
    return t


class TrueState:
    """A 'sampler' that hands over the true state: what a peeking agent would use."""

    def __init__(self, game, state, player):
        self.state = state

    def sample(self, rng):
        return self.state.clone()


class PeekingISMCTS(ISMCTSAgent):
    determinizer = TrueState


AGENTS = {"flat": lambda: FlatAgent(6), "ismcts": lambda: ISMCTSAgent(12)}
SMALL = {"populus": 3, "democracy": 6}      # examples for the slow games (a playout takes 10-70 ms)


def check_no_peeking(agent, name, n, seed, steps, twin_seed, act_seed):
    g = game(name, n)
    s = reached(g, seed, steps)
    if s is None:
        return
    player, moves = g.decision(s)
    t = twin(g, s, player, random.Random(twin_seed))
    assert g.observation(t, player) == g.observation(s, player)
    assert g.legal_moves(t, player) == moves
    r1, r2 = random.Random(act_seed), random.Random(act_seed)
    assert agent.act(s, player, r1) == agent.act(t, player, r2), f"{agent.name} peeked"
    assert r1.getstate() == r2.getstate(), f"{agent.name} drew differently"


@pytest.mark.parametrize("kind", sorted(AGENTS))
@pytest.mark.parametrize("name,n", SEED_GAMES)
def test_no_peeking(name, n, kind):
    agent = AGENTS[kind]()

    @settings(max_examples=SMALL.get(name, 12), deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), twin_seed=st.integers(0, 2**16),
           act_seed=st.integers(0, 2**16))
    def prop(seed, steps, twin_seed, act_seed):
        check_no_peeking(agent, name, n, seed, steps, twin_seed, act_seed)
    prop()


def test_a_peeking_agent_is_caught():
    @settings(max_examples=40, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 10_000), steps=st.integers(0, 8), twin_seed=st.integers(0, 2**16),
           act_seed=st.integers(0, 2**16))
    def prop(seed, steps, twin_seed, act_seed):
        check_no_peeking(PeekingISMCTS(40), "bluff", 2, seed, steps, twin_seed, act_seed)
    with pytest.raises(AssertionError, match="peeked|drew differently"):
        prop()


@pytest.mark.parametrize("name,n", SEED_GAMES)
def test_twins_really_differ_somewhere(name, n):
    """The property is not vacuous: for every game hidden contents do change in some twin."""
    g = game(name, n)
    differ = 0
    for seed in range(6):
        s = reached(g, seed, 3 + 7 * seed)
        if s is not None:
            player = g.decision(s)[0]
            differ += twin(g, s, player, random.Random(seed)).key() != s.key()
    if name == "tictactoe":
        assert differ == 0          # nothing is hidden in tic-tac-toe
    else:
        assert differ > 0


@pytest.mark.parametrize("name,n", SEED_GAMES)
def test_samples_keep_what_the_player_sees_and_conserve_pieces(name, n):
    g = game(name, n)
    for seed in range(4):
        s = reached(g, seed, 5 + 9 * seed)
        if s is None:
            continue
        player, moves = g.decision(s)
        before = s.key()
        for k in range(3):
            d = sample_state(g, s, player, random.Random(k))
            assert s.key() == before
            assert g.observation(d, player) == g.observation(s, player)
            assert_conserved(d, g)
            assert g.legal_moves(d, player) == moves
            group = lambda p: (g.kind_of[p], g.piece_owner[p])      # noqa: E731
            # each place holds a piece of the same component and owner as before
            assert [[group(p) for p in z] for z in d.zones] == [[group(p) for p in z] for z in s.zones]
            twin_state = twin(g, s, player, random.Random(k + 10))
            assert sample_state(g, twin_state, player, random.Random(k)).key() == d.key()


def test_bluff_sample_deals_each_cup_its_own_dice_and_rolls_them_again():
    g = game("bluff", 2)
    s = reached(g, 1, 0)
    faces = set()
    for k in range(30):
        d = sample_state(g, s, 0, random.Random(k))
        cup2 = g.zone_names.index("cup(2)")
        assert sorted(d.zones[cup2]) == sorted(s.zones[cup2])       # player 2's dice stay player 2's
        assert all(d.face[p] == s.face[p] for p in s.zones[g.zone_names.index("cup(1)")])
        faces |= {d.face[p] for p in d.zones[cup2]}
    assert faces == {1, 2, 3, 4, 5, 6}


def test_democracy_sample_takes_back_the_others_face_down_choices():
    g = game("democracy", 3)
    for seed in range(40):
        s = reached(g, seed, 20 + seed)
        if s is None:
            continue
        pause = g.pauses.get(s.ip)
        if getattr(pause, "simultaneous", False) and s.loc_slots[pause.pending_slot]:
            player = g.decision(s)[0]
            d = sample_state(g, s, player, random.Random(0))
            assert d.loc_slots[pause.pending_slot] == ()
            assert player in g.current_actors(d) and len(g.current_actors(d)) > len(g.current_actors(s))
            return
    pytest.fail("no simultaneous choice with a pending face-down choice was reached")
