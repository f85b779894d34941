"""Strategies declared in the rule language: every seed game's check, each plays the move
worked out by hand on constructed states, the checker refuses a strategy that reads what its
player cannot see and names the decisions a strategy never covers, and what a strategy
chooses depends on its player's observation alone (a hypothesis property, which catches a
peeking strategy compiled past the checker)."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from dsl.agents import ISMCTSAgent, StrategyAgent, parse_agent, play
from dsl.agents.strategy import declared, policy
from dsl.constructs.registry import hook
from dsl.constructs.strategy import Policy
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.language.diagnostics import RuleFileError
from dsl.language.parser import parse_file
from dsl.loader import load
from dsl.printing.prose import Voice, plain

from _util import GAMES, ROOT, game_of, zone
from test_agents_no_peeking import reached, twin

STRATEGIES = ROOT / "strategies"
SEEDS = {"bluff": 2, "byzantine": 4, "democracy": 4, "dream-duels": 4, "populus": 3, "tictactoe": 2}


def seed_game(name, n=None):
    return game_of(str(STRATEGIES / f"{name}.rules"), n or SEEDS[name])


def diagnostics(tmp_path, text, game="bluff"):
    """Check a file of strategies for a seed game; (errors, warnings) as formatted lines."""
    path = tmp_path / "mine.rules"
    path.write_text(f"strategies for {game.replace('-', '_')}\n\n" + text)
    try:
        _, found = load(str(path))
        errors = []
    except RuleFileError as e:
        found = e.diagnostics
        errors = [d for d in found if d.severity == "error"]
    warnings = [d for d in found if d.severity == "warning" and d.span.file == str(path)]
    return [(d.span.line, d.span.column, d.message, d.hint) for d in errors], [d.message for d in warnings]


# ---------------------------------------------------------------- every seed game
@pytest.mark.parametrize("name", sorted(SEEDS))
def test_each_seed_games_strategies_check_and_are_two_or_more(name):
    rules, found = load(str(STRATEGIES / f"{name}.rules"))
    assert not [d for d in found if d.severity == "error"]
    strategies = rules.of(S.Strategy)
    assert len(strategies) >= 2
    assert all(d.span.file == str(STRATEGIES / f"{name}.rules") for d in strategies)


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_the_game_file_finds_its_strategies_beside_it(name):
    game = game_of(str(GAMES / f"{name}.rules"), SEEDS[name])
    assert list(declared(game)) == [d.name for d in load(str(STRATEGIES / f"{name}.rules"))[0].of(S.Strategy)]


@pytest.mark.parametrize("name", sorted(SEEDS))
def test_each_strategy_plays_whole_games_and_the_same_seed_gives_the_same_games(name):
    game = seed_game(name)
    for strategy in declared(game):
        agents = [StrategyAgent(strategy)] + [parse_agent("random")] * (game.n - 1)
        first = play(game, agents, random.Random(3), record=True)
        again = play(game, agents, random.Random(3), record=True)
        assert first.actions == again.actions
        assert first.state.is_terminal()


# ---------------------------------------------------------------- hand-computed choices
def _bluff_opening(faces):
    game = seed_game("bluff")
    s = game.new_initial_state()
    rng = random.Random(1)
    while game.is_chance(s):
        game.apply(s, rng.randrange(game.chance_outcomes(s)), validate=False)
    for cup, values in enumerate(faces, 1):
        for p, f in zip(s.zones[zone(game, f"cup({cup})")], values):
            s.face[p] = f
    s.memo.clear()
    return game, s


def _choice(game, s, strategy, seed=0):
    """What the strategy plays here, as an agent (on a state dealt again from its view) and as
    the bare policy on the true state: the two agree when it reads only what it sees."""
    from dsl.agents.infoset import Determinizer
    player, moves = game.decision(s)
    as_agent = StrategyAgent(strategy).act(s, player, random.Random(seed), moves)
    rng = random.Random(seed)
    Determinizer(game, s, player).sample(rng)       # the agent's draws before its own
    assert policy(game, strategy).choose(s.clone(), player, moves, rng) == as_agent
    return as_agent


def test_bluff_cautious_opens_on_its_best_face_raises_by_one_and_calls_past_a_third():
    game, s = _bluff_opening([[2, 2, 2, 6, 1], [5, 5, 3, 3, 3]])
    # its dice count 4 for face 2 (three 2s and the wild 6), 2 for face 1, 1 for 3, 4 and 5
    assert _choice(game, s, "cautious") == ("choose", 2, 1)
    game.apply(s, ("choose", 2, 1))
    # the second player holds three 3s and two 5s: the best face from 2 up is 3, one more die
    assert _choice(game, s, "cautious") == ("raise", 3, 2)
    s.vars[game.var_slots["bid_count"]] = 4        # 4 x 3 = 12 > 10 dice in play
    s.memo.clear()
    assert _choice(game, s, "cautious") == ("call_bluff",)
    s.vars[game.var_slots["bid_count"]] = 3        # 9 <= 10: it raises to 4 of its best face
    s.memo.clear()
    assert _choice(game, s, "cautious") == ("raise", 3, 4)


def test_bluff_reckoner_expects_its_own_dice_plus_a_third_of_the_others():
    game, s = _bluff_opening([[4, 4, 1, 1, 2], [5, 5, 3, 3, 3]])
    # face 4: 2 of its own + 5/3 of the others' = 3.67, so it opens at most 3; the highest count
    # any face allows is 3 (faces 1 and 4), drawn at random between them
    seen = {_choice(game, s, "reckoner", seed) for seed in range(20)}
    assert seen == {("choose", 1, 3), ("choose", 4, 3)}
    game.apply(s, ("choose", 4, 3))
    # the second player holds no 4: it expects 0 + 5/3 = 1.67 fours, below the bid of 3
    assert _choice(game, s, "reckoner") == ("call_bluff",)


def _ttt_after(moves):
    game = seed_game("tictactoe")
    s = game.new_initial_state()
    for col, row in moves:
        player, legal = game.decision(s)
        game.apply(s, next(m for m in legal if game.space_at[int(m[1])][1:] == (col, row)), player)
    return game, s


def test_tictactoe_careful_completes_its_line_then_blocks_then_takes_the_centre():
    game, s = _ttt_after([(1, 1), (3, 1), (1, 2)])          # P2 to move; P1 threatens (1, 3)
    assert game.space_at[int(_choice(game, s, "careful")[1])][1:] == (1, 3)
    game, s = _ttt_after([(1, 1), (3, 1), (1, 2), (3, 2)])  # P1 can win at (1, 3); P2 threatens (3, 3)
    assert game.space_at[int(_choice(game, s, "careful")[1])][1:] == (1, 3)
    game, s = _ttt_after([(1, 1)])
    assert game.space_at[int(_choice(game, s, "careful")[1])][1:] == (2, 2)
    game, s = _ttt_after([(2, 2)])                          # centre gone: a corner, at random
    corners = {game.space_at[int(_choice(game, s, "careful", seed)[1])][1:] for seed in range(30)}
    assert corners == {(1, 1), (1, 3), (3, 1), (3, 3)}


STRENGTH = {r: k for k, r in enumerate(["6", "7", "8", "9", "10", "J", "Q", "K", "A", "3", "4", "5"])}


def test_democracy_trumper_plays_its_strongest_trump_else_its_weakest_card():
    game = seed_game("democracy")
    checked = {"trump": 0, "no trump": 0}
    for seed in range(40):
        s = reached(game, seed, 2 + seed % 7)
        if s is None or game.decision(s) is None:
            continue
        player, moves = game.decision(s)
        trump = s.vars[game.var_slots["trump"]]
        hand = [m[1] for m in moves]
        strength = {p: STRENGTH.get(str(game.piece_attrs[p].get("rank")), 12) for p in hand}
        trumps = [p for p in hand if game.piece_attrs[p].get("suit") == trump]
        pool = trumps or hand
        best = (max if trumps else min)(strength[p] for p in pool)
        chosen = _choice(game, s, "trumper", seed)[1]
        assert chosen in pool and strength[chosen] == best
        checked["trump" if trumps else "no trump"] += 1
    assert checked["trump"] > 0 and checked["no trump"] > 0


# ---------------------------------------------------------------- the checker
def test_a_strategy_reading_a_value_of_hidden_dice_is_refused_where_it_reads_it(tmp_path):
    errors, _ = diagnostics(tmp_path, "strategy peek\n  prefer call_bluff where matching < bid_count\n")
    assert errors == [(4, 27, "strategy 'peek' reads what its player cannot see: 'matching', "
                              "a value reading d.face, of a piece the player cannot see", errors[0][3])]
    assert "cup(me)" in errors[0][3] and "count(...)" in errors[0][3]


def test_reading_another_players_cup_is_refused_and_ones_own_and_the_sizes_are_not(tmp_path):
    errors, _ = diagnostics(tmp_path, "strategy peek\n"
                            "  prefer call_bluff where count(d in cup(bidder) where d.face = bid_face) = 0\n")
    assert [(line, col) for line, col, *_ in errors] == [(4, 56)]      # at d.face
    assert "d.face, of a piece the player cannot see" in errors[0][2]
    errors, _ = diagnostics(tmp_path, "strategy fair\n"
                            "  prefer call_bluff where count(d in cup(me) where d.face = bid_face) = 0"
                            " and count(cup(bidder)) < count(all(cup))\n")
    assert errors == []


def test_a_choice_among_pieces_the_player_cannot_see_cannot_be_judged_by_them(tmp_path):
    # in Dream Duels the winner of a battle takes a card from the loser's hidden hand
    errors, _ = diagnostics(tmp_path, "strategy peek\n  prefer hurt by highest c.number\n", "dream-duels")
    assert len(errors) == 1 and "c.number, of a piece the player cannot see" in errors[0][2]
    errors, _ = diagnostics(tmp_path, "strategy blind\n  prefer hurt\n  prefer one by highest c.number\n",
                            "dream-duels")
    assert errors == []


def test_the_decisions_a_strategy_never_covers_are_named(tmp_path):
    errors, warnings = diagnostics(tmp_path, "strategy caller\n  prefer call_bluff\n")
    assert errors == [] and warnings == ["strategy 'caller' never prefers among: opening_bid, raise"]
    _, warnings = diagnostics(tmp_path, "strategy all\n  prefer call_bluff\n  prefer raise\n  prefer opening_bid\n")
    assert warnings == []


def test_an_unknown_decision_and_a_wrong_kind_of_condition_are_errors(tmp_path):
    errors, _ = diagnostics(tmp_path, "strategy typo\n  prefer rase\n")
    assert errors[0][:3] == (4, 3, "strategy 'typo': the game has no decision 'rase'") and "raise" in errors[0][3]
    errors, _ = diagnostics(tmp_path, "strategy wrong\n  prefer raise where face\n  prefer raise by highest nothing_here\n")
    assert [e[0] for e in errors] == [4, 5]
    assert "unknown name 'nothing_here'" in errors[1][2]


def test_a_file_of_strategies_for_another_game_or_a_head_in_a_game_is_refused(tmp_path):
    path = tmp_path / "other.rules"
    path.write_text("strategies for bluff\n\nstrategy x\n  prefer take\n")
    game = parse_file(str(GAMES / "tictactoe.rules"))
    from dsl.agents.strategy import joined
    from dsl.language.checker import check
    found = check(joined(game, parse_file(str(path))))
    assert "these strategies are for the game 'bluff', not 'tictactoe'" in [d.message for d in found]


# ---------------------------------------------------------------- no peeking, as a property
def _peeking_policy(game, tmp_path):
    """A strategy that reads the hidden dice, compiled past the checker: what the property catches."""
    path = tmp_path / "peek.rules"
    path.write_text("strategies for bluff\n\nstrategy peek\n  prefer call_bluff where matching < bid_count\n")
    return Policy(game, parse_file(str(path)).of(S.Strategy)[0])


def _same_choice_on_twins(game, choose, seed, steps, twin_seed, act_seed):
    s = reached(game, seed, steps)
    if s is None:
        return
    player, moves = game.decision(s)
    t = twin(game, s, player, random.Random(twin_seed))
    assert game.observation(t, player) == game.observation(s, player)
    r1, r2 = random.Random(act_seed), random.Random(act_seed)
    assert choose(s.clone(), player, moves, r1) == choose(t.clone(), player, moves, r2), "peeked"
    assert r1.getstate() == r2.getstate(), "drew differently"


@pytest.mark.parametrize("name", ["bluff", "byzantine", "democracy", "dream-duels"])
def test_a_strategys_choice_depends_only_on_the_observation(name):
    game = seed_game(name)
    for strategy in declared(game):
        checked = policy(game, strategy)
        agent = StrategyAgent(strategy)

        @settings(max_examples=15, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(seed=st.integers(0, 10_000), steps=st.integers(0, 60), twin_seed=st.integers(0, 2**16),
               act_seed=st.integers(0, 2**16))
        def prop(seed, steps, twin_seed, act_seed):
            # the checked policy read on the true state: what the checker lets through is seen
            _same_choice_on_twins(game, checked.choose, seed, steps, twin_seed, act_seed)
            _same_choice_on_twins(game, lambda s, p, m, r: agent.act(s, p, r, m), seed, steps, twin_seed, act_seed)
        prop()


def test_a_peeking_strategy_compiled_past_the_checker_is_caught_and_the_agent_still_cannot_peek(tmp_path):
    game = seed_game("bluff")
    peek = _peeking_policy(game, tmp_path)

    @settings(max_examples=60, deadline=None, database=None, derandomize=True, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 10_000), steps=st.integers(1, 8), twin_seed=st.integers(0, 2**16),
           act_seed=st.integers(0, 2**16))
    def on_the_true_state(seed, steps, twin_seed, act_seed):
        _same_choice_on_twins(game, peek.choose, seed, steps, twin_seed, act_seed)
    with pytest.raises(AssertionError, match="peeked"):
        on_the_true_state()

    from dsl.agents.infoset import Determinizer

    @settings(max_examples=30, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(seed=st.integers(0, 10_000), steps=st.integers(1, 8), twin_seed=st.integers(0, 2**16),
           act_seed=st.integers(0, 2**16))
    def as_an_agent(seed, steps, twin_seed, act_seed):
        # the agent reads a state dealt again from its view: even this strategy cannot peek
        _same_choice_on_twins(game, lambda s, p, m, r: peek.choose(Determinizer(game, s, p).sample(r), p, m, r),
                              seed, steps, twin_seed, act_seed)
    as_an_agent()


# ---------------------------------------------------------------- agents, rollouts, readings
def test_agent_specs_for_strategies_and_rollouts():
    a = parse_agent("strategy:cautious")
    assert isinstance(a, StrategyAgent) and a.name == "strategy:cautious"
    b = parse_agent("ismcts:20/cautious")
    assert isinstance(b, ISMCTSAgent) and b.rollout.strategy == "cautious" and b.name == "ismcts:20/cautious"
    for bad in ("strategy:", "strategy:a:b", "flat:20/cautious", "ismcts:20/", "random/cautious"):
        with pytest.raises(ValueError):
            parse_agent(bad)


def test_ismcts_with_a_strategy_for_rollouts_plays_reproducibly_and_differs_from_random_rollouts():
    game = seed_game("bluff")
    searched = parse_agent("ismcts:30/cautious")
    agents = [searched, parse_agent("random")]
    first = play(game, agents, random.Random(5), record=True)
    assert play(game, agents, random.Random(5), record=True).actions == first.actions
    plain_search = play(game, [parse_agent("ismcts:30"), parse_agent("random")], random.Random(5), record=True)
    assert plain_search.actions != first.actions


def test_a_strategy_reads_in_the_rulebooks_words_in_both_languages():
    rules, _ = load(str(STRATEGIES / "bluff.rules"))
    cautious = next(d for d in rules.of(S.Strategy) if d.name == "cautious")
    en = plain(hook(cautious, "read")(Voice(rules, "en"), cautious))
    ja = plain(hook(cautious, "read")(Voice(rules, "ja"), cautious))
    # a move is its option's title, quoted: 'Raise the bid' mid-sentence is a name, not the verb
    assert en.startswith("Cautious: “Call bluff” when the bid count × 3 is more than the dice in play; "
                         "otherwise “Raise the bid” when the count is the bid count + 1, the one with the highest number of "
                         "dice under your cup showing the face")
    assert en.endswith("; otherwise at random.")
    assert ja.startswith("慎重派:宣言の数 × 3が場のさいころの数より大きいなら「ブラフ!」。そうでなければその個数が宣言の数 + 1なら「宣言を上げる」")
    assert ja.endswith("それ以外は無作為に選ぶ。")


def test_a_game_with_strategies_declared_in_it_compiles_and_plays_as_before():
    rules, _ = load(str(STRATEGIES / "bluff.rules"))
    plain_rules, _ = load(str(GAMES / "bluff.rules"))
    with_strategies, without = Game(rules, 2), Game(plain_rules, 2)
    a = play(with_strategies, [parse_agent("random")] * 2, random.Random(9), record=True)
    b = play(without, [parse_agent("random")] * 2, random.Random(9), record=True)
    assert a.actions == b.actions


def test_a_value_passed_the_player_reads_their_own_hidden_zone(tmp_path):
    """`me` keeps being the player inside a value: hand(p) with p = me is their own hand."""
    errors, _ = diagnostics(tmp_path, "strategy mine\n  prefer vote by highest count(c in hand(me) where void_of(me, c.suit))\n",
                            "byzantine")
    assert errors == []
    errors, _ = diagnostics(tmp_path, "strategy theirs\n  prefer vote where void_of(parent, lead)\n", "byzantine")
    assert len(errors) == 1 and "'void_of', a value reading c.suit, of a piece the player cannot see" in errors[0][2]


def test_the_editor_checks_a_file_of_strategies_with_its_game():
    from dsl.lsp.resolve import Workspace
    path = str(STRATEGIES / "bluff.rules")
    text = (STRATEGIES / "bluff.rules").read_text() + "\nstrategy peek\n  prefer call_bluff where matching < bid_count\n"
    analysis = Workspace().analyse(path, text)
    last = len(text.splitlines())
    assert [(d.severity, d.span.line, d.span.column) for d in analysis.diagnostics] == \
        [("warning", last - 1, 1), ("error", last, 27)]


# ---------------------------------------------------------------- the other seed games, by hand
def _decisions_offering(name, kind, wanted=12, steps=(0, 400)):
    """States of random games where the deciding player is offered moves of this option."""
    game = seed_game(name)
    found = []
    for seed in range(200):
        for step in range(steps[0], steps[1], 7):
            s = reached(game, seed, step)
            if s is not None and any(m[0] == kind for m in game.decision(s)[1]):
                found.append(s)
                break
        if len(found) >= wanted:
            break
    assert found, f"no {kind} decision reached in {name}"
    return game, found


def _attr(game, piece, name):
    return game.piece_attrs[int(piece)].get(name)


def test_byzantine_point_taker_goes_for_a_rich_governor_with_its_highest_card():
    game, states = _decisions_offering("byzantine", "vote")
    for k, s in enumerate(states):
        player, moves = game.decision(s)
        governor = s.zones[zone(game, "governor")][-1]
        votes = [m[1] for m in moves if m[0] == "vote"]
        numbers = [_attr(game, c, "number") for c in votes]
        best = max(numbers) if _attr(game, governor, "points") >= 2 else min(numbers)
        chosen = _choice(game, s, "point_taker", k)
        assert chosen[0] == "vote" and _attr(game, chosen[1], "number") == best


def test_byzantine_staker_stakes_whenever_the_governor_allows_and_its_tokens_suffice():
    game, states = _decisions_offering("byzantine", "stake")
    for k, s in enumerate(states):
        player, moves = game.decision(s)
        governor = s.zones[zone(game, "governor")][-1]
        tokens = len(s.zones[zone(game, f"tokens_of({player + 1})")])
        chosen = _choice(game, s, "staker", k)
        if tokens >= _attr(game, governor, "stake"):
            assert chosen == ("stake",)
        else:
            votes = [m[1] for m in moves if m[0] == "vote"]
            assert chosen[0] == "vote" and _attr(game, chosen[1], "number") == min(_attr(game, c, "number") for c in votes)


def test_populus_builder_lowers_prosperity_then_blessing_then_its_lowest_card():
    game, states = _decisions_offering("populus", "numbered", steps=(0, 200))
    for k, s in enumerate(states):
        player, moves = game.decision(s)
        numbers = {_attr(game, m[1], "number") for m in moves if m[0] == "numbered"}
        want = 3 if 3 in numbers else 1 if 1 in numbers else min(numbers)
        chosen = _choice(game, s, "builder", k)
        assert chosen[0] == "numbered" and _attr(game, chosen[1], "number") == want


def test_dream_duels_fighter_presents_for_movement_its_lowest_card_that_is_no_joker():
    game, states = _decisions_offering("dream-duels", "card", wanted=8, steps=(0, 300))
    for k, s in enumerate(states):
        player, moves = game.decision(s)
        numbers = [_attr(game, m[1], "number") for m in moves if m[0] == "card"]
        chosen = _choice(game, s, "fighter", k)
        assert chosen[0] == "card" and _attr(game, chosen[1], "number") == min(numbers) != 25


@pytest.mark.parametrize("name,text", [
    ("democracy", "strategy peek\n  prefer vote where count(c in all(played) where c.suit = trump) > 0\n"),
    ("populus", "strategy peek\n  prefer numbered where count(t in tile_box where t.low = 1) > 0\n"),
    ("byzantine", "strategy peek\n  prefer stake where top(draw).points > 2\n"),
])
def test_each_seed_game_refuses_a_peeking_strategy(tmp_path, name, text):
    errors, _ = diagnostics(tmp_path, text, name)
    assert len(errors) == 1 and "reads what its player cannot see" in errors[0][2]


@pytest.mark.parametrize("name,covered", [("democracy", ["vote"]), ("populus", ["numbered", "place"]),
                                          ("tictactoe", [])])
def test_each_seed_game_names_the_decisions_a_strategy_leaves_to_chance(tmp_path, name, covered):
    from dsl.constructs.strategy import decisions
    kinds = list(decisions(load(str(GAMES / f"{name}.rules"))[0]))
    text = "strategy some\n" + "".join(f"  prefer {k}\n" for k in covered) + "  prefer " + kinds[-1] + "\n"
    _, warnings = diagnostics(tmp_path, text, name)
    left = [k for k in kinds if k not in covered + [kinds[-1]]]
    assert warnings == ([f"strategy 'some' never prefers among: {', '.join(left)}"] if left else [])
