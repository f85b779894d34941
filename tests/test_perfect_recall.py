"""Perfect recall and who sees a counter: the sampler deals what a player remembers where they
saw it go, never contradicts the true state, and keeps counters a player cannot see at their
declared starting value; the observation, the table and the checker agree."""
from __future__ import annotations

import random

import pytest

from dsl.agents import ISMCTSAgent, RandomAgent, play
from dsl.agents.infoset import Determinizer, hidden_places, recalled
from dsl.analyses.simulate import game_rng
from dsl.engine import CHANCE
from dsl.table.game_table import Table

from _util import GAMES, ROOT, game_of, rules_of

FIXTURE = str(ROOT / "tests" / "fixtures" / "shown_then_hidden.rules")


def at_the_guess(g, seed, log=True):
    """The shown-then-hidden game at the second player's guess: (state, the card shown)."""
    rng = random.Random(seed)
    s = g.new_initial_state(log=log)
    while g.is_chance(s):
        g.apply(s, rng.randrange(g.chance_outcomes(s)))
    shown = s.zones[g.zone_names.index("hand(1)")][0]
    player, moves = g.decision(s)
    g.apply(s, moves[0], player)                    # the first player puts the shown card face down
    assert int(g.decision(s)[0]) == 1
    return s, shown


def test_a_card_shown_then_hidden_is_dealt_where_the_player_saw_it_go():
    g = game_of(FIXTURE, 2)
    pile = g.zone_names.index("pile(1)")
    stock = g.zone_names.index("stock")
    for seed in range(6):
        s, shown = at_the_guess(g, seed)
        assert s.loc[shown] == pile and not s.revealed[shown]
        det = Determinizer(g, s, 1)
        rng = random.Random(seed)
        for _ in range(40):
            t = det.sample(rng)
            assert t.zones[pile] == [shown]
            assert shown not in t.zones[stock]
        # without the game's log there is nothing to remember: the shown card is dealt anywhere hidden
        forgetful = s.clone()
        assert forgetful.log is None
        where = {Determinizer(g, forgetful, 1).sample(random.Random(k)).loc[shown] for k in range(60)}
        assert where == {pile, stock}


def test_the_searcher_that_remembers_never_guesses_the_card_it_saw():
    g = game_of(FIXTURE, 2)
    games = 12
    wins = 0
    for i in range(games):
        s = play(g, [RandomAgent(), ISMCTSAgent(40)], game_rng(9, i), record=False, index=i).state
        wins += list(s.outcome) == [1]
    assert wins == games


def test_a_card_never_shown_is_not_remembered():
    g = game_of(FIXTURE, 2)
    s, shown = at_the_guess(g, 3)
    hidden = hidden_places(g, s, 0)             # the first player never saw the second's card
    assert [p for _, _, p in hidden if p in recalled(g, s, 0).hidden_known(hidden)] == []


@pytest.mark.parametrize("name,n", [("bluff", 2), ("democracy", 3), ("byzantine", 3), ("dream-duels", 4),
                                    ("populus", 3)])
def test_what_a_player_remembers_is_true_in_every_seed_game(name, n):
    g = game_of(str(GAMES / f"{name}.rules"), n)
    remembered = 0
    for i in range(2):
        rng = game_rng(5, i)
        s = g.new_initial_state(log=True)
        for _ in range(120):
            if s.outcome is not None or s.dead_end is not None:
                break
            if g.is_chance(s):
                g.apply(s, rng.randrange(g.chance_outcomes(s)))
                continue
            d = g.decision(s)
            if d is None:
                break
            for p in range(n):
                places = hidden_places(g, s, p)
                recall = recalled(g, s, p)
                known = recall.hidden_known(places)
                remembered += len(known)
                assert all(s.loc[q] == z for q, z in known.items())
                hidden = {q for _, _, q in places}
                assert all(s.face[q] == f for q, f in recall.face.items() if q in hidden)
                t = Determinizer(g, s, p).sample(rng)
                assert sorted(map(sorted, t.zones)) and all(t.loc[q] == z for q, z in known.items())
            g.apply(s, rng.choice(d[1]), d[0])
    if name in ("democracy", "populus", "dream-duels"):
        assert remembered > 0       # cards seen and then put away are remembered in these


def test_a_counter_seen_by_its_owner_is_hidden_from_the_others():
    g = game_of(FIXTURE, 2)
    s, _ = at_the_guess(g, 1)
    coins = g.pvar_slots["coins"]
    assert s.pvars[coins] == [4, 3]
    assert g.observation(s, 0)["counters"]["coins"] == [4, None]
    assert g.observation(s, 1)["counters"]["coins"] == [None, 3]
    # the second player's samples hold the first player's coins at the declared start, whatever they are
    t = Determinizer(g, s, 1).sample(random.Random(2))
    assert t.pvars[coins] == [3, 3]
    assert Determinizer(g, s, 0).sample(random.Random(2)).pvars[coins] == [4, 3]


def test_the_table_shows_a_hidden_counter_to_its_owner_only():
    table = Table(rules_of(FIXTURE), 2, ["human", "human"], seed=4)
    table.advance()
    table.act(0, 1)
    for seat, mine, theirs in ((0, "P1", "P2"), (1, "P2", "P1")):
        view = table.view(seat)
        coins = next(c for c in view["counters"] if c["name"] == "coins")
        assert coins["values"][mine] is not None and coins["values"][theirs] is None
        assert coins["texts"][theirs] == "?"
        assert view["log"][-1].strip() == ("P1's coins is now 4" if seat == 0 else "P1's coins is now ?")
    assert next(c for c in table.view(None)["counters"] if c["name"] == "coins")["values"] == {"P1": 4, "P2": 3}


def test_seen_by_owner_needs_a_counter_kept_per_player(tmp_path):
    from dsl.loader import RuleFileError, load
    text = open(FIXTURE, encoding="utf-8").read().replace("counter coins per player = 3", "counter coins = 3")
    path = tmp_path / "bad.rules"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleFileError) as err:
        load(str(path))
    assert "is seen by its owner, but it is not kept per player or per team" in str(err.value.diagnostics)


def test_the_seed_games_counters_are_public_as_at_the_table():
    """Every counter of the seed games is public, as at the table (shared/seeds/): Bluff's bid is
    spoken; Byzantine's staking points are scored openly (1st 5, 2nd 3); Democracy's tribe points
    are the running score; Dream Duels' per-team values are a team's piece on the open board
    (column, row, facing), the way its face-down movement card is turned (the card lies turned
    on the table) and the open bookkeeping of encounters and placings; Populus' VP and FP are
    markers on the score track, food is paid and announced openly in a war ("after hearing the
    others' payments") and the seed gives food and ether no hidden place. So none needs a
    `seen by` line; the default (everyone) is the seeds' own."""
    for name in ("bluff", "byzantine", "democracy", "dream-duels", "populus"):
        g = game_of(str(GAMES / f"{name}.rules"), 4 if name != "populus" else 3)
        assert {d.seen_by for d in g.var_decls.values()} == {"everyone"}, name


def test_chance_and_recall_replay_the_same_game():
    """Keeping the log for recall changes nothing in the game: the same seed, the same actions."""
    g = game_of(str(GAMES / "bluff.rules"), 2)
    a = play(g, [ISMCTSAgent(8), RandomAgent()], game_rng(2, 0), index=0)
    b = play(g, [ISMCTSAgent(8), RandomAgent()], game_rng(2, 0), index=0)
    assert a.actions == b.actions and a.state.digest() == b.state.digest()
    assert any(actor == CHANCE for actor, _ in a.actions)


def test_solve_notes_only_the_counters_a_player_sees():
    from dsl.analyses.solve_tree import _Seen
    g = game_of(FIXTURE, 2)
    s, _ = at_the_guess(g, 1)
    t = s.clone()
    t.pvars[g.pvar_slots["coins"]][0] = 9          # the first player's coins, which only they see
    seen = _Seen(g)
    assert seen.table(s, 1) == seen.table(t, 1)
    assert seen.table(s, 0) != seen.table(t, 0)


def test_a_value_seen_by_nobody_is_imagined_at_its_start(tmp_path):
    from dsl.engine import Game
    from dsl.loader import load
    text = open(FIXTURE, encoding="utf-8").read().replace(
        "setup\n", "counter secret = 0\n  title ja \"秘密\" en \"secret\"\n  seen by nobody\n\nsetup\n  set secret to 7\n", 1)
    path = tmp_path / "secret.rules"
    path.write_text(text, encoding="utf-8")
    g = Game(load(str(path))[0], 2)
    s, _ = at_the_guess(g, 1)
    slot = g.var_slots["secret"]
    assert s.vars[slot] == 7 and "secret" not in g.observation(s, 0)["variables"]
    t = Determinizer(g, s, 1).sample(random.Random(3))
    assert t.vars[slot] == 0 and s.vars[slot] == 7
