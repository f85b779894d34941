"""Expressions, comprehensions, move listing and pause-free statements run as generated Python
(dsl/engine/source.py, Moves.option_filler, dsl/engine/fused.py): hostile names and texts in a
rule file stay inert data, and a game plays exactly as it does through the constructs' closures
and the general move-listing loop."""
import pathlib
import re

import pytest

from dsl.analyses.simulate import game_rng, play_random
from dsl.engine import Game, source
from dsl.engine.values import Piece, Player
from dsl.language.checker import check
from dsl.language.parser import parse_text

from _util import BLUFF, DEMOCRACY, GAMES, rules_of

PAYLOAD = "__import__('os').system('touch {marker}')"

# Every name is one Python or the generated code gives meaning to; every text would be code
# if it were pasted into the source instead of written by repr.
HOSTILE = '''game __import__
  players 2 to 3

deck k0
  in __builtins__
  cards
    | s | lambda |
    | "{payload}" | 1 |
    | "quote \\" and back\\\\slash" | 2 |
    | "new\\nline" | 3 |
    | "ünïcødé 札" | 4 |

zone __builtins__ is deck, shared, seen by everyone
zone eval is hand, per player, seen by everyone

variable os = "{payload}"
counter 名前 per player = 0

value k1(x) = x.s = os or x.s = "quote \\" and back\\\\slash" or x.lambda >= 3 and x.s != "new\\nline" or x.s = "ünïcødé 札"

play
  repeat until empty(__builtins__) or count(x in __builtins__ where x.s = "\\\\" or x.lambda > 99) > 0
    for each s in players
      step take
        s chooses k2 from __builtins__ where k1(k2)
          move k2 to eval(s)
          add k2.lambda to 名前(s)
          set os to k2.s
        if empty(__builtins__)
          end game by highest 名前(p) for p in players
'''

# All generated code may name: the state's fields, a dict's get and a list's methods, the
# locals of a generated move lister, fused statement (a move's m-names) or play-out (and its
# random generator), and the values the generator bound (k0, k1, ...). A rule file's own name
# never appears.
_ALLOWED_NAME = re.compile(r"^(s|loc_slots|vars|pvars|face|zones|loc|revealed|looked|pop|memo|fired|log|outcome|dead_end|rounds|"
                           r"get|setdefault|moves|append|extend|insert|remove|clear|size|L|out|x|a|b|v|coll|d|d\d|v\d|at|ip|"
                           r"err|items\d+|k\d+|k|keys|m[zdskmplrn]|sv|z|rng|actions|watch|p|chooser|move|pending|"
                           r"alive|ticks|moves|saved|whole|i|j|x0|drawn|c[ztpfojrin]|choice|randrange|parts|"
                           r"h_(vars|loc_slots)\d+|h_(face|revealed|loc|alive|zones|pvars))$")


def _hostile(tmp_path):
    marker = tmp_path / "pwned"
    text = HOSTILE.format(payload=PAYLOAD.format(marker=marker))
    rules, diagnostics = parse_text(text, str(tmp_path / "hostile.rules"))
    assert rules is not None and not diagnostics
    assert [d for d in check(rules) if d.severity == "error"] == []
    return rules, marker


def _generated(monkeypatch):
    """Every function the generator makes while a game compiles."""
    made = []
    real = source.Source.function

    def recording(src, params, body, statements=False):
        made.append(real(src, params, body, statements))
        return made[-1]
    monkeypatch.setattr(source.Source, "function", recording)
    return made


def _closures_only(monkeypatch):
    """Expressions through their constructs' closures, moves listed by the general loop."""
    monkeypatch.setattr(source, "_generator", lambda e: None)
    monkeypatch.setattr(Game, "option_filler", lambda *args: None)


def _alike_through_closures(played, monkeypatch):
    """What `played()` gives with generated code, which it gives again through the closures alone."""
    generated = played()
    _closures_only(monkeypatch)
    assert played() == generated
    return generated


def _plays(game, games=30):
    return [(p.actions, p.state.to_json()) for p in
            (play_random(game, game_rng(5, i), i) for i in range(games))]


def test_hostile_names_and_texts_are_inert_data(tmp_path, monkeypatch):
    rules, marker = _hostile(tmp_path)
    made = _generated(monkeypatch)
    game = Game(rules, 2)
    assert game.play_out(game.new_initial_state(), game_rng(5, 0), None), "random play's code is generated on first use"
    assert made, "the where clause and the values are generated"
    texts = {PAYLOAD.format(marker=marker), 'quote " and back\\slash', "new\nline", "ünïcødé 札"}
    seen_texts = set()
    for f in made:
        code = f.__code__
        assert f.__globals__["__builtins__"] == {}
        names = set(code.co_names) | set(code.co_varnames)
        assert all(_ALLOWED_NAME.match(n) for n in names), names
        seen_texts |= {k for k in code.co_consts if isinstance(k, str)}
    # the rule file's texts reach the code only as string constants, unchanged: the cards' texts
    # and the move's option name (a column of the cards is a bound list); and 'ip', which a fused
    # statement's error carries
    assert seen_texts == texts | {"choose", "\\", "ip"}
    assert any("at" in f.__code__.co_varnames for f in made), "a pause-free statement is fused"
    assert texts >= {v for v in game.piece_attrs[0].values() if isinstance(v, str)}

    s = game.new_initial_state()
    first = s.legal_moves()
    assert first == [("choose", Piece(0)), ("choose", Piece(1)), ("choose", Piece(3))]
    s.apply(("choose", Piece(0)))           # the card whose text is the payload: now `os` holds it
    assert s.vars[game.var_slots["os"]] == PAYLOAD.format(marker=marker)
    # P2 may take the card whose text is the quote (as written, escapes read) or the unicode one;
    # the one worth 3 is the new line, which the condition leaves out
    assert s.legal_moves() == [("choose", Piece(1)), ("choose", Piece(3))]
    s.apply(("choose", Piece(1)))
    assert s.vars[game.var_slots["os"]] == 'quote " and back\\slash'
    for p in _plays(game):
        assert p[1]["outcome"] is not None or p[1]["dead_end"] is not None
    assert not marker.exists()


# Random play's own code: a roll, a choice drawn without listing its moves, a simultaneous
# choice from each player's hand, with names Python gives meaning to.
HOSTILE_PLAY = '''game eval
  players 2 to 3
dice __import__
  faces 1, 2, 3
  count 2 per player
  in exec
zone exec is supply, shared, seen by everyone
zone compile is hand, per player, seen by owner
counter lambda = 0
variable os = "{payload}"
play
  repeat until lambda > 6
    for each s in players
      move 1 from exec to compile(s)
      roll compile(s)
    first(players) chooses k1 from 1 to 3, k2 from 1 to 2
      add k1 to lambda
      set os to "quote \\" and back\\\\slash"
    each s in players simultaneously chooses k3 from compile(s)
      move k3 to exec
  end game winners [first(players)]
'''


def test_random_plays_own_code_names_nothing_of_the_rule_file(tmp_path, monkeypatch):
    marker = tmp_path / "pwned"
    rules, diagnostics = parse_text(HOSTILE_PLAY.format(payload=PAYLOAD.format(marker=marker)), str(tmp_path / "h.rules"))
    assert rules is not None and not diagnostics and [d for d in check(rules) if d.severity == "error"] == []
    generated = _plays(Game(rules, 3))
    made = _generated(monkeypatch)
    game = Game(rules, 3)
    assert game.play_out(game.new_initial_state(), game_rng(5, 0), None)
    texts = set()
    for f in made:
        names = set(f.__code__.co_names) | set(f.__code__.co_varnames)
        assert all(_ALLOWED_NAME.match(n) for n in names), sorted(n for n in names if not _ALLOWED_NAME.match(n))
        texts |= {k for k in f.__code__.co_consts if isinstance(k, str)}
    # the rule file's texts as escaped literals, and the engine's own: an option's and its values' names,
    # an error's attribute, the watcher's (engine.errors.counts_moves)
    assert texts == {PAYLOAD.format(marker=marker), 'quote " and back\\slash', "choose", "ip", "k1", "k2",
                     "counts_moves"}
    _closures_only(monkeypatch)
    monkeypatch.setattr(Game, "fusing", False)
    assert _plays(Game(rules, 3)) == generated
    assert not marker.exists()


def test_hostile_game_plays_as_through_the_closures(tmp_path, monkeypatch):
    rules, _ = _hostile(tmp_path)
    _alike_through_closures(lambda: _plays(Game(rules, 3)), monkeypatch)


@pytest.mark.parametrize("path, players", [(BLUFF, 2), (BLUFF, 4), (DEMOCRACY, 4), (GAMES / "populus.rules", 3),
                                           (GAMES / "tictactoe.rules", 2), (GAMES / "dream-duels.rules", 2),
                                           (GAMES / "byzantine.rules", 3),
                                           (GAMES.parent / "tests" / "fixtures" / "connect-four-4x3.rules", 2)])
def test_seed_games_play_as_through_the_closures(path, players, monkeypatch):
    rules = rules_of(str(path))
    _alike_through_closures(lambda: _plays(Game(rules, players), 12), monkeypatch)


def test_a_range_past_the_bound_ends_the_game_alike(monkeypatch):
    """The generated move lister works a range out as `domain` does, refusal included."""
    text = BLUFF.read_text(encoding="utf-8").replace(
        "number from 1 to dice_in_play where", "number from 1 to dice_in_play * 100000 where")
    rules, diagnostics = parse_text(text, str(BLUFF))
    assert rules is not None and [d for d in check(rules) if d.severity == "error"] == []

    def first_raise():
        s = Game(rules, 3).new_initial_state()
        while s.is_chance():
            s.apply(0)
        s.apply(("choose", 1, 1))       # the opening bid; the next player may raise or call
        return s.legal_moves(), s.dead_end
    moves, dead_end = _alike_through_closures(first_raise, monkeypatch)
    assert moves == [] and dead_end.kind == "too many options" and dead_end.rule == "bidding"
    assert dead_end.message == "'number' may be any of 1,500,000 numbers (at most 100,000 moves in one decision)"


def test_code_run_in_place_renames_its_values_and_leaves_its_texts_whole():
    """A fused statement runs an expression's code in place with its values bound again
    (source.inlined): a bound name is renamed, the same letters inside a text literal are not."""
    src = source.Source(None)
    words = {"k0": "k1(s)"}
    text = src.value(words) + ".get(" + repr("k0") + ") + " + repr(" k0 'k1' k0(s)")
    fn = src.function("s", text)
    fn.code = (text, src.names)
    into = source.Source(None)
    into.value(object())            # k0 is taken here already: the dictionary becomes k1
    code = source.inlined(fn, into.value)
    assert code == "(k1.get('k0') + \" k0 'k1' k0(s)\")"
    assert into.function("s", code)(None) == fn(None) == "k1(s) k0 'k1' k0(s)"


def test_the_calls_code_makes_are_found_by_their_names():
    """source.called: which bound values code calls (a move lister is told whether its code can
    write a local slot by it); a method call is left out, a call it cannot name is None."""
    names = {"k0": len, "k1": list, "k2": "not called"}
    text = "out.append(k0(k1(s.zones[z])) if not (k2) else k0)\nx = (k0)(s)(1) + 'k1(s)'\n"
    assert source.called(text, names) == [len, list, None, None]


@pytest.mark.parametrize("code, reads", [
    ("(s.face[x] == s.vars[0])", False),        # a comprehension's test with its slot read from x
    ("s.loc_slots[4] + s.loc_slots[10]", False),  # other slots
    ("s.loc_slots[3] + 1", True),
    ("s.loc_slots[k0[3]]", True),               # a slot worked out: it may be this one
    ("(s.face[x] == k1[x]) or k0(s)", True),    # the state handed to a function, which may read it
    ("k0(x) + k2[s.zones[k3]]", False),
    ("k1('s') + 's.loc_slots[3]'", False),      # the letters inside a text
])
def test_code_that_may_read_a_local_slot_is_told_apart(code, reads):
    """source.reads_slots: a loop that writes slot 3 only for code that may read it (a
    comprehension's test and item, a move lister's `where`) skips the write for any other."""
    assert source.reads_slots(code, (3,)) is reads


def test_what_no_pass_of_a_loop_changes_is_read_once_before_it():
    """source.hoisted: a comprehension's test and item and a move lister's `where` read a
    variable, the state's lists and other local slots once, before the loop; the loop's own
    slot is read where it was, and the same letters inside a text are left as they are."""
    names = {"k0": len, "k1": object()}
    ahead, texts = source.hoisted(["(s.face[x] == s.vars[0]) or s.loc_slots[4] == 's.vars[0]'",
                                   "s.loc_slots[3] + s.vars[0] + k0(s.zones[s.loc_slots[4]])"], (3,), names)
    assert texts == ["(h_face[x] == h_vars0) or h_loc_slots4 == 's.vars[0]'",
                     "s.loc_slots[3] + h_vars0 + k0(h_zones[h_loc_slots4])"]
    assert ahead == ["h_face = s.face", "h_vars0 = s.vars[0]", "h_loc_slots4 = s.loc_slots[4]", "h_zones = s.zones"]
    # a call that may write a slot (k1 is not known to keep them) leaves every slot read in the loop
    ahead, texts = source.hoisted(["s.loc_slots[4] + s.vars[1]", "k1(s)"], (3,), names)
    assert texts == ["s.loc_slots[4] + h_vars1", "k1(s)"]
    assert ahead == ["h_vars1 = s.vars[1]"]
    # nor while the loop's own line may write a slot, before its first pass
    ahead, _ = source.hoisted(["s.loc_slots[4]"], (3,), names, before=["for x in k1(s):"])
    assert ahead == []
    # a local of that name in the code already: nothing is read into it
    ahead, texts = source.hoisted(["h_vars1 + s.vars[1]"], (), names)
    assert (ahead, texts) == ([], ["h_vars1 + s.vars[1]"])


def test_bluffs_raises_and_matching_dice_read_the_bid_once(monkeypatch):
    """Hoisting is switched on where it is meant to be: Bluff's move lister (the raises, whose
    `where` reads the bid) and `matching` (a comprehension whose test reads the bid's face and
    the dice's faces) read the bid and the faces' list once, before their loops."""
    made = _generated(monkeypatch)
    game = Game(rules_of(BLUFF), 2)
    assert play_random(game, game_rng(1, 0), 0, record=False).state.moves > 0
    locals_ = [set(f.__code__.co_varnames) for f in made]
    assert any({"h_vars0", "h_vars1"} <= names and {"v0", "v1"} <= names for names in locals_), "the raises"
    assert any({"h_face", "h_vars0"} <= names and "x" in names for names in locals_), "matching"


def test_only_the_statements_that_set_them_write_a_variable_or_replace_the_states_lists():
    """What source.hoisted rests on: no expression writes a variable (only `set` and a starting
    value do) and nothing but making and copying a state replaces one of its lists, in the
    engine's Python or in the code its constructs generate. A new place that assigns either
    (`=` or `+=`, whatever the index) fails here."""
    assigned = r"\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
    lists = re.compile(r"(\w+)\.(?:face|revealed|loc|alive|zones|pvars)" + assigned)
    variables = re.compile(r"\bvars\[(?:[^\[\]]|\[[^\]]*\])*\]" + assigned)
    found = set()
    for path in sorted(pathlib.Path(source.__file__).parents[1].rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        found |= {(path.name, "list", m.group(1)) for m in lists.finditer(text)}
        found |= {(path.name, "variable") for _ in variables.finditer(text)}
    # Machine.blank_state makes a state, State.clone copies one; `items.zones` is a collection
    # function's own mark (Compiler.collection), not the state's
    assert found == {("machine.py", "list", "s"), ("state.py", "list", "c"), ("compiler.py", "list", "items"),
                     ("machine.py", "variable"), ("assign.py", "variable")}


# A value's name hidden by a value's parameter and by a loop's variable (which hold zones):
# what a name stands for is looked up where it is read.
_HIDDEN_VALUE = '''game probe
  players 2 to 2
board grid
  grid 2 by 2
  adjacency all
token mark
  count 3 per player
  in marks
zone marks is supply, per player, seen by everyone
value z = alive_players()
value f(z) = count(x for x in z where true)
counter total = 0
counter spaces_counted = 0
play
  add f(if total >= 0 then marks else marks) + count(z) to total
  for each z in spaces(grid)
    add count(z) + 1 to spaces_counted
  end game winners [player(1)]
'''


def _set_up(text, tmp_path):
    """The game of a 2-player probe that checks without an error, and its state after setup."""
    rules, diagnostics = parse_text(text, str(tmp_path / "probe.rules"))
    assert rules is not None and not diagnostics and [d for d in check(rules) if d.severity == "error"] == []
    game = Game(rules, 2)
    return game, game.new_initial_state()


def test_a_name_that_hides_a_value_is_read_as_the_name(tmp_path, monkeypatch):
    def played():
        game, s = _set_up(_HIDDEN_VALUE, tmp_path)
        return s.vars[game.var_slots["total"]], s.vars[game.var_slots["spaces_counted"]], s.outcome, s.dead_end
    # both players' marks, and the players still in
    assert _alike_through_closures(played, monkeypatch) == (6 + 2, 4, (Player(0),), None)


_EXTREMES = '''game probe
  players 2 to 2
symbol red
symbol black
deck card
  in stock
  cards
    | rank | colour | seat |
    | 3    | red    | 1    |
    | 5    | red    | 2    |
    | 5    | black  | 3    |
    | 2    | black  | 4    |
    | 5    | red    | 5    |
    | 2    | red    | 6    |
zone stock is deck, shared, seen by everyone
value best_red = highest(c.rank for c in stock where c.colour = red)
value lowest_all = lowest(c.rank for c in stock)
value nothing_high = highest(c.rank for c in stock where c.rank > 9)
value black_total = sum(c.rank for c in stock where c.colour = black)
value red_count = sum(1 for c in stock where c.colour = red)
counter best_count = 0
counter best_first = 0
counter best_last = 0
counter lowest_count = 0
counter lowest_first = 0
counter nothing_count = 0
counter black_sum = 0
counter reds = 0
play
  set best_count to count(best_red)
  set best_first to first(best_red).seat
  set best_last to top(best_red).seat
  set lowest_count to count(lowest_all)
  set lowest_first to first(lowest_all).seat
  set nothing_count to count(nothing_high)
  set black_sum to black_total
  set reds to red_count
  end game winners [player(1)]
'''


def test_highest_lowest_and_sum_of_a_comprehension_give_the_items_in_order(tmp_path, monkeypatch):
    """highest() and lowest() worked in their comprehension's loop (comprehension.compile's
    `result`): ties kept in the zone's order, a condition nothing meets; and sums beside them."""
    def played():
        game, s = _set_up(_EXTREMES, tmp_path)
        names = ("best_count", "best_first", "best_last", "lowest_count", "lowest_first", "nothing_count",
                 "black_sum", "reds")
        return [s.vars[game.var_slots[n]] for n in names], s.outcome, s.dead_end
    assert _alike_through_closures(played, monkeypatch) == ([2, 2, 5, 2, 4, 0, 7, 4], (Player(0),), None)


def _cards_ranked(top: int) -> str:
    """A 2-player probe's opening: cards of rank 1 to `top` in a shared stock, and hands."""
    rows = "".join(f"    | {r:<4} |\n" for r in range(1, top + 1))
    return ("game probe\n  players 2 to 2\ndeck card\n  in stock\n  cards\n    | rank |\n" + rows
            + "zone stock is deck, shared, seen by everyone\nzone hand is hand, per player, seen by owner\n")


def _texts_made(monkeypatch) -> list:
    """The code of every function the generator makes from now on."""
    texts = []
    real = source.Source.function

    def recording(src, params, body, statements=False):
        texts.append(body)
        return real(src, params, body, statements)
    monkeypatch.setattr(source.Source, "function", recording)
    return texts


_THREE_PARAMETERS = _cards_ranked(8) + """counter picks = 0
counter total = 0
value between(lo, hi) = count(c in stock where c.rank > min(lo, hi) and c.rank < max(lo, hi))
play
  shuffle stock
  for each p in players
    move 3 from stock to hand(p)
  repeat 3 times
    each p in players simultaneously chooses card from hand(p)
      move card to stock
    first(players) chooses a from stock, b from stock, n from 1 to 8 where a.rank < b.rank and between(a.rank, n) > 1 and a.owner = nobody and hand(first(players)).owner = first(players)
      add 1 to picks
      add between(b.rank, n) to total
      move a to hand(first(players))
  end game
"""


def test_an_option_of_three_parameters_and_a_values_arguments_run_in_place(tmp_path, monkeypatch):
    """The moves of an option of three parameters are listed by generated code (Moves.option_filler)
    whose `where` reads a piece's owner in place and calls a value with arguments; the value's
    comprehension reads the arguments in place (read once, before its loop), not by calling
    their functions; min and max of two numbers are Python's: the same games as through the
    closures."""
    texts = _texts_made(monkeypatch)
    rules, diagnostics = parse_text(_THREE_PARAMETERS, str(tmp_path / "probe.rules"))
    assert rules is not None and not diagnostics
    Game(rules, 2)
    lister = next(x for x in texts if "for v2 in d2:" in x)
    assert re.search(r"\(k\d+\[v0\] if k\d+\(v0\) is k\d+ else k\d+\[v0\]\) == None", lister)
    between = [x for x in texts if "for x in s.zones[z]:" in x and "h_loc_slots" in x]
    assert len(between) == 2            # in the `where`, and in the option's body
    assert all(re.search(r"\(k\d+\[x\] > k\d+\(\(k\d+\[h_loc_slots\d+\]\), \(h_loc_slots\d+\)\)\)", x) for x in between)
    assert not any(re.search(r"k\d+\(s\)", x) for x in between)
    plays = _alike_through_closures(lambda: _plays(Game(rules, 2), 20), monkeypatch)
    assert len({repr(p) for p in plays}) > 1


def test_each_term_of_a_where_is_tried_in_the_outermost_loop_it_can_be():
    """A move lister's `where` (Moves.option_filler) splits into its terms: each goes to the loop
    of the last parameter it reads (by value, or by slot: a call handed the state may read any),
    never before a term written before it, so the terms are tried in their order and stop at
    the same one; an `or`, or the same letters in a text, is one term."""
    from dsl.engine.moves import _tests_by_loop
    params = [("a", 3, None, None), ("b", 4, None, None), ("n", 5, None, None)]
    rest = "((((k0[v0] == None) and (k1[v1] > v0)) and (k2[v0] < 3)) and (k3(s) > 0))"
    assert _tests_by_loop(rest, params) == [["(k0[v0] == None)"], ["(k1[v1] > v0)", "(k2[v0] < 3)"], ["(k3(s) > 0)"]]
    assert _tests_by_loop("((k0[v0] == 1) or (k1[v1] == 2))", params) == [[], ["((k0[v0] == 1) or (k1[v1] == 2))"], []]
    assert _tests_by_loop("(s.loc_slots[5] > 1) and (v0 > 0)", params) == [[], [], ["(s.loc_slots[5] > 1)", "(v0 > 0)"]]
    assert _tests_by_loop('("v2 and" == k0[v0]) and (k1[v1] > 0)', params) == [['("v2 and" == k0[v0])'], ["(k1[v1] > 0)"], []]


_EMPTY_INNER = """game probe
  players 2 to 2
deck card
  in stock
  cards
    | rank |
    | 0    |
    | 1    |
zone stock is deck, shared, seen by everyone
zone pile is discard, shared, seen by everyone
counter picks = 0
play
  first(players) chooses a from stock, b from pile where 10 // a.rank > 0 and b.rank >= 0
    add 1 to picks
  end game
"""


def test_a_where_term_of_an_outer_loop_is_not_tried_when_a_later_loop_has_nothing(tmp_path, monkeypatch):
    """With no `b` to take there is no move, and the term about `a` alone, which fails for the
    card of rank 0, is never tried: the player has no legal move, as through the closures."""
    def played():
        game, s = _set_up(_EMPTY_INNER, tmp_path)
        assert game.decision(s) is None
        return s.dead_end.kind, s.dead_end.message
    assert _alike_through_closures(played, monkeypatch) == ("no legal move", "P1 has no legal move")


_OWNER_OF_A_FIRST = _cards_ranked(4) + """counter t = 0
play
  for each p in players
    p chooses c from stock where first(x in stock where x.rank > 0).owner = nobody
      add c.rank to t
      move c to hand(p)
  end game
"""


def test_an_owner_of_something_worked_out_takes_the_slots_the_closures_take(tmp_path, monkeypatch):
    """`x.owner` is written in place only for a local; of anything else (here a comprehension's
    first item) it is left to the closure before any part of it is generated, so its
    comprehension gets one slot, not one more for each time it was generated."""
    def played():
        game, s = _set_up(_OWNER_OF_A_FIRST, tmp_path)
        return game.n_slots, _plays(game, 5)
    assert _alike_through_closures(played, monkeypatch)[0] == 5


_PASSED_ON = """game probe
  players 2 to 2
counter u = 1
counter t = 0
counter v = 0
value d1(x) = x + x
value d2(x) = d1(d1(x))
value d3(x) = d2(d2(x))
value d4(x) = d3(d3(x))
value d5(x) = d4(d4(x))
value l1(x) = max(min(x, 100), 1) + 1
value l2(x) = l1(l1(l1(l1(x))))
value l3(x) = l2(l2(l2(l2(x))))
value l4(x) = l3(l3(l3(x)))
play
  set t to d5(u)
  set v to l4(u)
  end game
"""


def test_values_passing_their_parameter_on_keep_their_code_small(tmp_path, monkeypatch):
    """An argument is written where its parameter is read only when its code is short and
    calls nothing but Python's own functions: a value reading its parameter twice and passing it on five times, or
    nested 48 deep, gives code of a few hundred characters (written in place every time, it
    grew twofold with each link, and the nested one went past what Python reads)."""
    texts = _texts_made(monkeypatch)
    game, s = _set_up(_PASSED_ON, tmp_path)
    assert max(len(x) for x in texts) < 2_000
    assert (s.vars[game.var_slots["t"]], s.vars[game.var_slots["v"]], s.dead_end) == (2 ** 16, 49, None)


_BOUND_BY_ANOTHER = _cards_ranked(3) + """counter t = 0
play
  first(players) chooses a from stock, n from 1 to 3 where n < a.rank
    add n to t
  end game
"""


def test_a_range_bound_that_reads_another_parameter_is_tested_for_each_move(tmp_path, monkeypatch):
    """`n < a.rank` cannot narrow n's range before a has a value: it is tested with each
    move, not compiled as a bound (which failed with "unknown name 'a'")."""
    def listed():
        game, s = _set_up(_BOUND_BY_ANOTHER, tmp_path)
        return [(game.piece_label[m[1]], m[2]) for m in game.decision(s)[1]]
    assert _alike_through_closures(listed, monkeypatch) == [("2", 1), ("3", 1), ("3", 2)]


_FAILING_ITEMS = '''game probe
  players 2 to 2
deck card
  in stock
  cards
    | rank |
    | 3    |
    | 5    |
    | 2    |
zone stock is deck, shared, seen by everyone
counter total = 0
play
  set total to count({fn}((if c.rank = 3 then nobody else 10 // (c.rank - 2)) for c in stock))
  end game winners [player(1)]
'''


@pytest.mark.parametrize("fn", ["highest", "lowest", "sum"])
def test_a_comprehension_with_two_failing_items_fails_at_the_last_as_when_its_values_were_gathered(fn, tmp_path):
    """Every value is worked out before any is compared or added: the division by zero of the
    last card is the dead end, not the first card's value of the wrong kind, and the loop's
    slot holds the last card, as it did when the builtin was given the gathered values."""
    text = _FAILING_ITEMS.format(fn=fn) if fn != "sum" else _FAILING_ITEMS.replace("count({fn}(", "(sum(")
    rules, diagnostics = parse_text(text, str(tmp_path / "failing.rules"))
    assert rules is not None and not diagnostics
    s = Game(rules, 2).new_initial_state()
    assert s.dead_end is not None and "divided by zero" in s.dead_end.message
    assert s.to_json()["position"]["locals"] == [2]


def _chain(n, step):
    values = "\n".join(f"value v{k} = {step.format(prev=f'v{k - 1}')}" for k in range(1, n + 1))
    return f'''game probe
  players 2 to 2
counter c = 1
counter out = 0
value v0 = c + 1
{values}
play
  set out to v{n} % 1000
  end game winners [player(1)]
'''


def _chain_played(n, step, tmp_path):
    game, s = _set_up(_chain(n, step), tmp_path)
    assert s.dead_end is None
    return s.vars[game.var_slots["out"]]


def test_a_long_chain_of_values_compiles(tmp_path):
    """Each value reads the values it names through their own functions, so no generated
    expression nests deeper than its own rule's: the longest chain `check` passes (each value is
    two levels of limits.MAX_CHAIN_DEPTH) compiles and plays."""
    assert _chain_played(72, "{prev} + 1", tmp_path) == 74


def test_code_grows_with_each_value_that_reads_another_twice_not_twofold(tmp_path, monkeypatch):
    monkeypatch.setattr(source, "_compiled", {})
    assert _chain_played(12, "{prev} + {prev}", tmp_path) == 2 ** 13 % 1000
    # about 140 characters a link; each value's code written into its reader's would be 2 ** 12 times one
    assert sum(len(text) for text in source._compiled) < 10_000


_ARGUMENTS_OF_MIN_AND_MAX = _cards_ranked(8) + """counter total = 0
value within(lo, hi) = count(c in stock where c.rank >= lo and c.rank <= hi)
value least = 2
play
  shuffle stock
  for each p in players
    move 3 from stock to hand(p)
  repeat 3 times
    first(players) chooses a from hand(first(players)), n from 1 to 8 where within(min(a.rank, n), max(a.rank, n)) > 1
      add within(min(n, least), a.rank) to total
      move a to stock
  end game
"""


def test_an_argument_calling_only_pythons_own_functions_is_read_in_place(tmp_path, monkeypatch):
    """An argument whose code calls min or max (Python's own, in place) is written where its
    parameter is read, its slots read once before the comprehension's loop; one that calls a
    function handed the state (here a value kept in the memo) is still called by its function."""
    texts = _texts_made(monkeypatch)
    rules, diagnostics = parse_text(_ARGUMENTS_OF_MIN_AND_MAX, str(tmp_path / "probe.rules"))
    assert rules is not None and not diagnostics
    Game(rules, 2)
    within = [x for x in texts if "for x in s.zones[z]:" in x]
    in_place = r"k\d+\(\(?k\d+\[h_loc_slots\d+\]\)?, \(?h_loc_slots\d+\)?\)"
    assert len(within) == 2
    where = next(x for x in within if len(re.findall(in_place, x)) == 2)
    assert not re.search(r"k\d+\(s\)", where)
    body = next(x for x in within if x is not where)
    assert re.search(r"k\d+\(s\)", body)
    plays = _alike_through_closures(lambda: _plays(Game(rules, 2), 20), monkeypatch)
    assert len({repr(p) for p in plays}) > 1


_ZONE_PER_PIECE = _cards_ranked(3) + """token stone
  count 6
  in bag
zone bag is supply, shared, seen by everyone
zone spot is space, per card, seen by everyone
counter filled = 0
value open_cards = count(c in stock where empty(spot(c)))
play
  repeat 3 times
    for each p in players
      p chooses c from stock where count(spot(c)) < 2
        move 1 from bag to spot(c)
        set filled to count(c in stock where empty(spot(c)) = false)
  end game winners (if open_cards = 0 then [player(1)] else [player(2)])
"""


def test_a_zone_kept_per_piece_is_found_in_place_and_fails_alike(tmp_path, monkeypatch):
    """`spot(c)` of a zone kept per piece is generated (zone.zone_of_piece, which writes no slot),
    so a comprehension over it keeps its item in a local, not in its slot each pass: the same games
    as through the closures, and for something that is not such a piece the same dead end."""
    texts = _texts_made(monkeypatch)
    rules, diagnostics = parse_text(_ZONE_PER_PIECE, str(tmp_path / "probe.rules"))
    assert rules is not None and not diagnostics
    Game(rules, 2)
    counted = [x for x in texts if "for x in " in x and "h_zones[k" in x]
    assert counted and not any(re.search(r"for x in [^\n]*:\n\s+L\[\d+\] = x", x) for x in counted)
    assert not any(re.search(r"k\d+\(s\)", x) for x in counted)

    def not_a_space(key):
        text = _ZONE_PER_PIECE.replace("move 1 from bag to spot(c)", f"move 1 from bag to spot({key})")
        rules, _ = parse_text(text, str(tmp_path / "probe.rules"))
        return {p[1]["dead_end"]["message"] for p in _plays(Game(rules, 2), 3)}
    # a stone (piece 3), and the first player: a number too, yet no card's spot
    plays, stone, player = _alike_through_closures(
        lambda: (_plays(Game(rules, 2), 20), not_a_space("first(bag)"), not_a_space("p")), monkeypatch)
    assert len({repr(p) for p in plays}) > 1 and all(p[1]["dead_end"] is None for p in plays)
    assert stone == {"'spot' is kept per card, and piece #3 is not one"}
    assert player == {"'spot' is kept per card, and P1 is not one"}


_OWNERS_OF_PIECES = _cards_ranked(8) + """counter held = 0
counter unowned = 0
play
  shuffle stock
  for each p in players
    move 3 from stock to hand(p)
  set held to count(c in all(hand) where c.owner = nobody and holder(c) = first(players))
  first(players) chooses a from hand(first(players))
    set unowned to count(c in all(hand) where c.owner = a.owner)
  end game
"""


def test_the_owner_of_a_piece_in_a_zone_is_read_without_telling_it_from_a_zone(tmp_path, monkeypatch):
    """A comprehension over the pieces in zones knows its item is a piece (Env.holds_piece), so
    `c.owner` reads the pieces' owners straight away; an option's parameter may be anything and
    is still told apart (`type(a) is Piece`). The same game as through the closures."""
    texts = _texts_made(monkeypatch)

    def played():
        game, _ = _set_up(_OWNERS_OF_PIECES, tmp_path)
        s = play_random(game, game_rng(1, 0), 0).state
        return s.vars[game.var_slots["held"]], s.vars[game.var_slots["unowned"]], s.outcome, s.dead_end
    assert _alike_through_closures(played, monkeypatch) == (3, 6, (), None)
    counts = [x for x in texts if "for z in " in x and "out += 1" in x]
    assert len(counts) == 2
    assert all(re.search(r"\(k\d+\[x\] == ", x) for x in counts) and not any("(x) is" in x for x in counts)
    assert any(re.search(r"k\d+\(h_loc_slots\d+\) is k\d+", x) for x in counts)       # a.owner: told apart
