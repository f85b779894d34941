"""What designers encoding published card and dice games met: each case a small rule set that
failed before (tests/fixtures/draw_targets.rules and rule texts written here)."""
from __future__ import annotations

import random

from dsl.agents import ISMCTSAgent, RandomAgent, play
from dsl.agents.infoset import Determinizer, hidden_places, recalled
from dsl.analyses.simulate import game_rng
from dsl.table import Table

from _util import ROOT, game_of, playtest, rules_of

DRAW_TARGETS = str(ROOT / "tests" / "fixtures" / "draw_targets.rules")


# ---------------------------------------------------------------- a draw into a hidden hand
def test_a_searching_agent_plays_a_game_that_draws_into_hidden_hands():
    g = game_of(DRAW_TARGETS, 3)
    for i in range(3):
        s = play(g, [ISMCTSAgent(8), RandomAgent(), ISMCTSAgent(8)], game_rng(2, i), record=False, index=i).state
        assert s.outcome is not None and s.dead_end is None


def test_simulate_with_searching_agents_over_draws_ends_without_a_traceback():
    for agents in ("ismcts:6", "strategy:generous,ismcts:4", "ismcts:4/generous"):
        r = playtest("simulate", DRAW_TARGETS, "-p", "2", "--agents", agents, "-n", "2")
        assert r.exit_code == 0, r.output
        assert "no dead ends" in r.output


def test_what_a_player_remembers_after_draws_is_true():
    """A draw moves pieces as a move does: a player who saw no card drawn knows of none where it
    lies, and never places one where it is not."""
    g = game_of(DRAW_TARGETS, 2)
    rng = random.Random(4)
    s = g.new_initial_state(log=True)
    drew = 0
    while s.outcome is None and s.dead_end is None:
        if g.is_chance(s):
            g.apply(s, rng.randrange(g.chance_outcomes(s)))
            continue
        for p in range(2):
            places = hidden_places(g, s, p)
            known = recalled(g, s, p).hidden_known(places)
            assert all(s.loc[q] == z for q, z in known.items())
            Determinizer(g, s, p).sample(rng)
        drew += sum(e["event"] == "draw" for e in s.log)
        d = g.decision(s)
        g.apply(s, rng.choice(d[1]), d[0])
    assert drew > 0


# ---------------------------------------------------------------- values kept per card, a target chosen
def _table(players=2, turns=4, seed=1):
    t = Table(rules_of(DRAW_TARGETS), players, ["human"] * players, seed)
    t.advance()
    for _ in range(turns):
        seat = t.humans_to_act()[0]
        t.act(seat, 1)
    return t


def test_a_value_kept_on_a_hidden_card_is_not_told_under_its_name():
    t = _table()
    game, log = t.game, t.state.log
    words = t.words("en")
    for seat in range(2):
        told = t.log(seat, "en")
        known_at = t._known_at(seat)
        hidden_sets = [(i, ev["piece"]) for i, ev in enumerate(log)
                       if ev["event"] == "set" and "piece" in ev and ev["piece"] not in known_at(i)]
        assert hidden_sets, "the game sets a value on a card the seat cannot see"
        # the table tells each value set on a card, the hidden ones by their kind alone
        slots = [line for line in told if "'s slot" in line]
        assert sum(line.startswith("   a hidden card's slot") for line in slots) == len(hidden_sets), slots
        assert not any(words.narrator.piece(p) in line for _, p in hidden_sets for line in slots)


def test_a_player_chosen_as_a_target_is_told_as_that_player_to_every_seat():
    t = _table(turns=2)
    log = t.state.log
    chose = [i for i, ev in enumerate(log) if ev["event"] == "choose"]
    assert chose
    for i in chose:
        ev = log[i]
        target = f"P{ev['move'][2] + 1}"
        designer = t.log(None, "en", trace=True)[i]
        assert designer.endswith(f", player {target}"), designer
        for seat in range(2):
            assert t.log(seat, "en", trace=True)[i].endswith(f", player {target}")
        assert t.log(None, "ja", trace=True)[i].endswith(f"、プレイヤー {target}")


def test_a_member_chosen_by_a_team_is_told_as_that_player():
    from dsl.analyses import replay as R
    from dsl.analyses.simulate import play_random
    from dsl.printing.narrate import Narrator
    from _util import GAMES
    g = game_of(str(GAMES / "dream-duels.rules"), 4)
    told = 0
    for i in range(6):
        s = R.run(g, play_random(g, game_rng(1, i), i).actions, log=True)
        for lang in ("en", "ja"):
            n = Narrator(g, lang)
            for ev in s.log:
                if ev["event"] == "choose" and ev.get("players"):
                    line = n.event(ev)
                    assert all(f"P{ev['move'][1 + k] + 1}" in line for k in ev["players"]), line
                    assert " member member " not in line
                    told += 1
    assert told > 0


# ---------------------------------------------------------------- names, warnings, coverage, the book, replays
OPTION_LIKE_A_ZONE = """game opt_zone
  players 2 to 2

deck card
  in stock
  cards
    | name  | count |
    | guard | 6     |

zone stock is deck, shared, seen by everyone
zone discard is discard, shared, seen by everyone
  title ja "捨て札" en "discard pile"
zone hand is hand, per player, seen by owner

setup
  for each p in players
    move 2 from stock to hand(p)

play
  for each p in players
    p chooses one of
      option discard with c from hand(p)
        title ja "1枚捨てる" en "Throw a card away"
        move c to discard
      option keep
        pass
  end game
"""


def _written(tmp_path, text, name="g.rules"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_an_option_named_like_a_zone_is_told_by_its_own_title(tmp_path):
    from dsl.loader import load
    for text, en, ja in ((OPTION_LIKE_A_ZONE, "Throw a card away", "1枚捨てる"),
                         (OPTION_LIKE_A_ZONE.replace('        title ja "1枚捨てる" en "Throw a card away"\n', ""),
                          "discard", "discard")):
        rules, _ = load(_written(tmp_path, text))
        t = Table(rules, 2, ["human", "human"], 1)
        t.advance()
        assert [o["text"] for o in t.view(0, "en")["options"]][0] == f"{en}: guard"
        t.act(0, 1)
        assert f"P1: {en} guard" in t.log(None, "en", trace=True)
        assert f"P1: {ja} guard" in t.log(None, "ja", trace=True)
        assert "   move guard to discard pile" in t.log(None, "en", trace=True)     # the zone keeps its title


def test_a_game_for_one_player_count_is_not_told_to_start_at_another(tmp_path):
    r = playtest("check", _written(tmp_path, OPTION_LIKE_A_ZONE))
    assert "player count 2 cannot be played" in r.output
    assert "players 3 to 3" not in r.output
    assert "hint: write what happens at 2 players, or give the player counts the game is for" in r.output


def test_a_range_unplayable_at_both_ends_is_not_told_to_shrink_to_the_other(tmp_path):
    """`players 2 to 3` where every game ends alike at 2 and at 3: 'players 3 to 3' would not cure it."""
    text = OPTION_LIKE_A_ZONE.replace("players 2 to 2", "players 2 to 3")
    assert text != OPTION_LIKE_A_ZONE
    r = playtest("check", _written(tmp_path, text))
    assert "player count 2 cannot be played" in r.output and "player count 3 cannot be played" in r.output
    assert "players 3 to 3" not in r.output and "players 2 to 2" not in r.output
    assert "hint: write what happens at 2 players (3 players cannot be played either" in r.output
    assert "hint: write what happens at 3 players (2 players cannot be played either" in r.output


CHAIN = """game chain
  players 2 to 2
counter n = 0
play
  for each p in players
    p chooses x from 1 to 2
      if x = 1
        add 1 to n
      else if x = 2
        add 2 to n
      else
        add 3 to n
  end game winners [first(players)]
"""


def test_coverage_names_the_else_of_a_chain_after_its_last_test(tmp_path):
    r = playtest("fuzz", _written(tmp_path, CHAIN), "-p", "2", "-n", "20", "--seed", "1")
    assert r.exit_code == 0, r.output
    never = [line for line in r.output.splitlines() if "never reached" in line]
    assert len(never) == 1
    assert "else after else if x = 2" in never[0] and "if x = 1" not in never[0]
    assert never[0].endswith(":9:15)")            # the line of the last test, `else if x = 2`


CHIPS = """game chips
  players 2 to 3

component chip
  title ja "チップ" en "chip"
  count 10 per player
  kept as chips

counter chips per player = 10
  title ja "チップ" en "chips"

play
  for each p in players
    p chooses x from 1 to 2
      subtract x from chips(p)
  end game by highest chips(p) for p in players ties share
"""


def test_chips_kept_as_a_counter_are_not_printed_as_unused(tmp_path):
    import re
    from dsl.loader import load
    from dsl.printing.book import render
    rules, _ = load(_written(tmp_path, CHIPS))
    en = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", render("book", "html", rules, "en")))
    ja = re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", render("book", "html", rules, "ja")))
    assert "the rules do not track it" not in en and "the rules count it as chips" in en
    assert "ルールでは管理しない" not in ja and "ルールではチップとして数える" in ja
    unused = load(_written(tmp_path, CHIPS.replace("  kept as chips\n", "")))[0]
    assert "the rules do not track it" in render("book", "html", unused, "en")
    r = playtest("check", _written(tmp_path, CHIPS.replace("kept as chips", "kept as chipz")))
    assert r.exit_code == 1 and "kept as 'chipz', which is no counter or variable" in r.output
    assert "did you mean 'chips'?" in r.output


def test_a_replay_ends_with_the_final_scores(tmp_path):
    from dsl.analyses import replay as R
    from dsl.analyses.simulate import play_random
    g = game_of(DRAW_TARGETS, 2)
    played = play_random(g, game_rng(1, 0), 0)
    path = str(tmp_path / "r.json")
    R.save(R.stamped(R.Replay(DRAW_TARGETS, [], 2, 1, 0, played.actions), g), path)
    points = [played.state.pvars[g.pvar_slots["points"]][p] for p in range(2)]
    r = playtest("replay", path)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[-2] == f"Final points: P1 {points[0]}, P2 {points[1]}"
    assert playtest("replay", path, "--lang", "ja").output.splitlines()[-2] == f"最終得点: P1 {points[0]}、P2 {points[1]}"


# ---------------------------------------------------------------- ranges of numbers
RANGES = """game ranges
  players 2 to 2
counter total per player = 0
counter n = 0
counter empty_passes = 0
play
  for each p in players
    p chooses guess from 2..12 where guess != 7
      add guess to total(p)
  for each k in 1..3
    add k to n
  for each k in 3..1
    add 1 to empty_passes
  if contains(5..n, 6) and count(2..12) = 11 and sum(1..4) = 10
    add 100 to n
  end game by highest total(p) for p in players ties share
"""


def test_a_range_is_a_collection_of_numbers_for_each_choose_and_contains(tmp_path):
    from dsl.engine import Game
    from dsl.loader import load
    rules, warnings = load(_written(tmp_path, RANGES))
    g = Game(rules, 2)
    s = g.new_initial_state(log=True)
    player, moves = g.decision(s)
    assert [m[1:] for m in moves] == [(k,) for k in range(2, 13) if k != 7]
    g.apply(s, moves[2], player)                                  # 4
    player, moves = g.decision(s)
    g.apply(s, moves[0], player)                                  # 2
    assert s.is_terminal() and s.dead_end is None
    assert s.vars[g.var_slots["n"]] == 106 and s.vars[g.var_slots["empty_passes"]] == 0
    from dsl.printing.narrate import Narrator
    told = Narrator(g, "en").tell(s.log)
    assert "P1: chooses number 4" in told and "P2: chooses number 2" in told
    import re
    from dsl.printing.book import render
    en = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", render("book", "html", rules, "en")))
    ja = re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", render("book", "html", rules, "ja")))
    assert "For each of the numbers from 1 to 3 :" in en and "1〜3の数それぞれについて:" in ja


def test_a_range_past_what_a_decision_may_offer_or_of_no_numbers_is_reported(tmp_path):
    big = RANGES.replace("from 2..12 where", "from 1..(1000000 * 1000) where")
    r = playtest("simulate", _written(tmp_path, big), "-p", "2", "-n", "1")
    assert "evaluation failed" in r.output and "more than the 100,000 a decision may offer" in r.output
    r = playtest("check", _written(tmp_path, RANGES.replace("1..3", "1..first(players)")))
    assert r.exit_code == 1 and "expected a number here, but this is a player" in r.output


def _docs_range_example() -> str:
    import re
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    at = text.index("**Ranges of numbers: `A..B`.**")
    return re.search(r"```rules\n(.*?)```", text[at:], re.S).group(1)


def test_the_range_example_of_the_language_guide_checks_plays_and_reads(tmp_path):
    import re
    from dsl.analyses.simulate import play_random
    from dsl.loader import load
    from dsl.printing.book import render
    path = _written(tmp_path, _docs_range_example())
    r = playtest("check", path)
    assert r.exit_code == 0 and "(0 errors, 0 warnings)" in r.output, r.output
    rules, _ = load(path)
    g = game_of(path, 3)
    for i in range(20):
        assert play_random(g, game_rng(1, i), i).state.dead_end is None
    en = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", render("book", "html", rules, "en")))
    ja = re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", render("book", "html", rules, "ja")))
    assert "Choose a number ( 2 to 12 )" in en
    assert "guess is from the total rolled − 1 to the total rolled + 1" in en
    assert "数(2〜12)を選ぶ" in ja and "予想が出目の合計−1〜出目の合計+1のどれか" in ja


SET_PIECE = """game set_piece
  players 2 to 2

deck card
  in stock
  cards
    | name  | count |
    | guard | 3     |
    | spy   | 3     |

zone stock is deck, shared, seen by nobody
zone hand is hand, per player, seen by owner
variable picked = nobody

setup
  for each p in players
    draw 2 from stock to hand(p)

play
  for each p in players
    p chooses c from hand(p)
      set picked to c
  end game
"""


def test_a_piece_set_as_a_value_is_told_by_name_only_to_those_who_see_it(tmp_path):
    from dsl.loader import load
    rules, _ = load(_written(tmp_path, SET_PIECE))
    t = Table(rules, 2, ["human", "human"], 1)
    t.advance()
    t.act(0, 1)
    picked = t.state.vars[t.game.var_slots["picked"]]
    name = t.words("en").name(picked)
    assert f"   picked = {name}" in t.log(None, "en", trace=True) and f"   picked = {name}" in t.log(0, "en", trace=True)
    assert "   picked = a hidden card" in t.log(1, "en", trace=True)
    assert not any("#" in line for line in t.log(1, "en") + t.log(1, "en", trace=True))


NUMBERED = """game numbered
  players 2 to 2

deck card
  in stock
  cards for each number in NUMBERS
    | colour |
    | red    |
    | blue   |

zone stock is deck, shared, seen by everyone
zone hand is hand, per player, seen by owner
counter best per player = 0

play
  for each p in players
    p chooses c from stock
      move c to hand(p)
      set best(p) to c.number
  end game by highest best(p) for p in players ties share
"""


def test_a_card_table_repeats_its_rows_over_a_range_as_over_the_list(tmp_path):
    from dsl.engine import Game
    from dsl.loader import load
    games = [Game(load(_written(tmp_path, NUMBERED.replace("NUMBERS", numbers), f"{i}.rules"))[0], 2)
             for i, numbers in enumerate(("1..5", "[1, 2, 3, 4, 5]"))]
    assert [a.piece_attrs for a in games][0] == games[1].piece_attrs and len(games[0].pieces) == 10
    r = playtest("check", _written(tmp_path, NUMBERED.replace("NUMBERS", "1..200000")))
    assert r.exit_code == 1 and "more than the 100,000 pieces a game may hold" in r.output
