"""`check` on files a designer gets half right: a patch left in a game behind a syntax error, a
file of strategies beside its game, a negative count, a chain nested too deep, a variant
replacing what the game lacks. Each is a positioned error with a hint, never a traceback."""
from __future__ import annotations

import inspect
import re
import shutil

import pytest

from _util import BLUFF, GAMES, ROOT, playtest, rules_text

from dsl.constructs import registry
from dsl.language import checker
from dsl.language.diagnostics import RuleFileError
from dsl.loader import load

POSITIONED = re.compile(r"^\S+\.rules:\d+:\d+: error: ", re.M)


def errors_printed(*args):
    r = playtest("check", *args)
    assert r.exit_code == 1, r.output
    assert POSITIONED.search(r.output), r.output
    return r.output


# ---------------------------------------------------------------- the checker over partial trees
def test_the_checker_calls_only_the_hooks_it_names():
    source = inspect.getsource(checker)
    called = set(re.findall(r"""\bhook\([^,]+,\s*["'](\w+)["']\)""", source))
    assert called and called <= set(checker.HOOKS)


def test_every_construct_has_every_hook_the_checker_calls():
    """The checker meets any construct a file can hold (a patch left in a game, a variant's
    head in a file of strategies, either behind a syntax error): each has the hooks it calls."""
    lacking = [f"{node.__name__}: {name}" for node in registry.loaded() for name in checker.HOOKS
               if not registry.has(node, name)]
    assert lacking == []


PATCH_BEHIND_A_SYNTAX_ERROR = [
    # (the file, whether the patch is reported: in a game, yes; before a variant's broken head,
    # the variant is checked with its game once its head parses)
    # a game holding a patch, with a syntax error elsewhere
    (lambda: rules_text(BLUFF) + "\nadd value foo = 1\n\nrule broken(\n", "'add'"),
    # a variant whose head is broken, a patch before it
    (lambda: "add value foo = 1\n\n" + rules_text(ROOT / "variants" / "bluff-life.rules")
     .replace("variant bluff_life of bluff", "variant bluff_life of", 1), None),
    # a patch replacing a value, in a game with a stray character
    (lambda: rules_text(BLUFF).replace("\nplay\n", "\nreplace value x = 1\n\nplay (\n", 1), "'replace'"),
]


@pytest.mark.parametrize("make, patch", PATCH_BEHIND_A_SYNTAX_ERROR)
def test_a_patch_behind_a_syntax_error_is_a_positioned_error_not_a_traceback(make, patch, tmp_path):
    path = tmp_path / "g.rules"
    path.write_text(make(), encoding="utf-8")
    with pytest.raises(RuleFileError) as info:
        load(str(path))
    assert info.value.diagnostics and all(d.span.line >= 1 for d in info.value.diagnostics)
    out = errors_printed(path)
    assert "MissingHook" not in out and "no 'check' hook" not in out
    assert (f"error: {patch} belongs in a variant file" in out) == (patch is not None), out


def test_a_file_of_strategies_with_a_syntax_error_is_not_checked_as_a_game(tmp_path):
    root = _game_and_strategies(tmp_path, "strategies for bluff\n\nstrategy x\n  prefer raise where (\n")
    out = errors_printed(root / "strategies" / "bluff.rules")
    assert "no 'game' declaration" not in out and "not a game" not in out
    assert "bluff.rules:4:" in out


# ---------------------------------------------------------------- strategies beside a game
def _game_and_strategies(tmp_path, strategies: str, game: str | None = None):
    (tmp_path / "games").mkdir()
    (tmp_path / "strategies").mkdir()
    (tmp_path / "games" / "bluff.rules").write_text(game or rules_text(BLUFF), encoding="utf-8")
    (tmp_path / "strategies" / "bluff.rules").write_text(strategies, encoding="utf-8")
    return tmp_path


def test_a_game_is_checked_with_the_strategies_beside_it(tmp_path, monkeypatch):
    root = _game_and_strategies(tmp_path, "strategies for bluff\n\nstrategy x\n  prefer no_such_decision\n")
    monkeypatch.chdir(root)
    out = errors_printed("games/bluff.rules")
    assert "strategies/bluff.rules:4:3: error: strategy 'x': the game has no decision 'no_such_decision'" in out
    assert "games/bluff.rules: failed" in out


def test_the_seed_games_check_with_their_strategies(monkeypatch):
    monkeypatch.chdir(ROOT)
    for game in sorted(GAMES.glob("*.rules")):
        assert playtest("check", f"games/{game.name}").exit_code == 0


def _hidden_governor(tmp_path):
    shutil.copytree(ROOT / "strategies", tmp_path / "strategies")
    (tmp_path / "games").mkdir()
    text = rules_text(GAMES / "byzantine.rules")
    line = "zone governor is governor, shared, seen by everyone"
    assert line in text, "byzantine.rules changed: update this test"
    (tmp_path / "games" / "byzantine.rules").write_text(text.replace(line, line.replace("everyone", "nobody")),
                                                          encoding="utf-8")
    return tmp_path


def test_once_a_game_hides_a_zone_the_strategies_reading_it_are_refused_where_they_are_written(tmp_path, monkeypatch):
    monkeypatch.chdir(_hidden_governor(tmp_path))
    strategies = rules_text(tmp_path / "strategies" / "byzantine.rules").splitlines()
    for args in (["check", "games/byzantine.rules"], ["check", "strategies/byzantine.rules"]):
        r = playtest(*args)
        refused = [line for line in r.output.splitlines() if "reads what its player cannot see" in line]
        assert r.exit_code == 1 and refused, r.output
        for line in refused:
            path, row, col = line.split(":")[:3]
            assert path == "strategies/byzantine.rules", line
            assert "governor" in strategies[int(row) - 1] or "rule_now" in strategies[int(row) - 1]


def test_the_agents_refuse_hidden_reads_positioned_in_the_file_of_strategies(tmp_path, monkeypatch):
    from dsl.agents.strategy import StrategyError, declared
    from dsl.engine import Game
    monkeypatch.chdir(_hidden_governor(tmp_path))
    rules, _ = load("games/byzantine.rules")
    with pytest.raises(StrategyError) as info:
        declared(Game(rules, 4))
    told = [line for line in str(info.value).splitlines() if ": error: " in line]
    assert told and all(line.split(":")[0].endswith("strategies/byzantine.rules") for line in told), told


def test_a_file_of_strategies_with_only_its_head_is_joined_once(tmp_path, monkeypatch):
    from dsl.agents.strategy import declared
    from dsl.engine import Game
    monkeypatch.chdir(_game_and_strategies(tmp_path, "# none yet\n\nstrategies for bluff\n"))
    rules, _ = load("strategies/bluff.rules")
    assert declared(Game(rules, 2)) == {}
    r = playtest("simulate", "strategies/bluff.rules", "-n", "1", "-p", "2", "--agents", "strategy:x,random")
    assert "already declared" not in r.output and "declares no strategy 'x'" in r.output
    assert playtest("check", "strategies/bluff.rules").exit_code == 0
    assert playtest("check", "games/bluff.rules").exit_code == 0


# ---------------------------------------------------------------- counts
@pytest.mark.parametrize("count, said", [
    ("-1", "the count of 'die' is -1: a count cannot be below 0"),
    ("start_dice - 6", "the count of 'die' is -1: a count cannot be below 0"),
    ("4 - player_count", "the count of 'die' is -1 with 5 players: a count cannot be below 0"),
])
def test_a_negative_count_of_pieces_is_a_positioned_error_with_a_hint(count, said, tmp_path):
    text = rules_text(BLUFF)
    assert "  count start_dice per player\n" in text, "bluff.rules changed: update this test"
    path = tmp_path / "g.rules"
    path.write_text(text.replace("  count start_dice per player\n", f"  count {count} per player\n", 1), encoding="utf-8")
    out = errors_printed(path)
    line = text[:text.index("  count start_dice per player")].count("\n") + 1
    assert f"g.rules:{line}:9: error: {said}" in out
    assert "hint: write how many there are, 0 or more" in out


def test_a_count_of_0_and_a_count_that_is_never_negative_check():
    from _util import errors_of
    text = rules_text(BLUFF)
    for count in ("0", "6 - player_count", "max(0, 3 - player_count)"):
        assert errors_of(text.replace("  count start_dice per player\n", f"  count {count} per player\n", 1)) == []


# ---------------------------------------------------------------- chains nested too deep
def test_a_chain_nested_too_deep_says_what_each_figure_counts():
    from test_check_chains import SHAPES, errors
    from dsl.language import limits
    found = errors(SHAPES["values"](150))
    assert len(found) == 1
    m = re.fullmatch(r"value 'v(\d+)' is nested (\d+) levels deep \(at most (\d+) levels\) once its chain of "
                     r"(\d+) rules and values, v\d+ -> .* -> v0, is written out where each is used", found[0].message)
    assert m, found[0].message
    first, depth, most, links = map(int, m.groups())
    assert most == limits.MAX_CHAIN_DEPTH < depth
    assert links == first + 1          # v(first) down to v0, each named once
    assert "a level is a statement or expression inside another" in found[0].hint


# ---------------------------------------------------------------- variants and choices
def test_replacing_a_setup_the_game_lacks_hints_to_add_it(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "variants").mkdir()
    shutil.copy(GAMES / "tictactoe.rules", tmp_path / "games")
    assert "\nsetup\n" not in rules_text(GAMES / "tictactoe.rules")
    v = tmp_path / "variants" / "v.rules"
    v.write_text('variant v of tictactoe\n  title en "v"\n\nreplace setup\n  pass\n', encoding="utf-8")
    out = errors_printed(v)
    assert "v.rules:4:1: error: no setup to replace" in out
    assert "hint: the game has none: write 'add setup' to give it one" in out
    v.write_text('variant v of tictactoe\n  title en "v"\n\nadd setup\n  pass\n', encoding="utf-8")
    assert playtest("check", v).exit_code == 0


def _docs_block(containing: str) -> str:
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```rules\n(.*?)```", text, re.S)
    found = [b for b in blocks if containing in b]
    assert len(found) == 1, f"docs/language.md has no single example with {containing!r}"
    return found[0]


def test_the_filtered_simultaneous_choice_of_the_docs_lets_only_those_who_pass_choose():
    from _util import parsed
    from dsl.engine import Game
    example = _docs_block("where coins(p) > 0 simultaneously chooses")
    text = ("game g\n  players 3 to 3\n\ncounter coins per player = 2\ncounter bids per player = 0\n\n"
            "setup\n  set coins(player(2)) to 0\n\nplay\n"
            + "".join("  " + line + "\n" for line in example.splitlines())
            + "  end game winners highest(bids(p) for p in players)\n")
    rules = parsed(text)
    from dsl.language.checker import check
    assert [d for d in check(rules) if d.severity == "error"] == []
    state = Game(rules, 3).new_initial_state()
    assert sorted(state.current_actors()) == [0, 2]        # seat 2 has no coins: it does not choose
    while not state.is_terminal():
        seat = state.current_actors()[0]
        state.apply(state.legal_moves(seat)[-1], seat)
    assert state.returns()[1] < state.returns()[0] == state.returns()[2]


@pytest.mark.parametrize("stray, said", [
    ("add value foo = 1", "strategies/bluff.rules:{line}:1: error: 'add' belongs in a variant file"),
    ('variant v of bluff\n  title en "v"', "strategies/bluff.rules:{line}:1: error: 'variant v of bluff' begins a variant file"),
])
def test_a_patch_or_a_variant_head_in_a_file_of_strategies_is_a_positioned_error(stray, said, tmp_path, monkeypatch):
    text = rules_text(ROOT / "strategies" / "bluff.rules") + f"\n{stray}\n"
    monkeypatch.chdir(_game_and_strategies(tmp_path, text))
    line = text.count("\n") - stray.count("\n")
    for path in ("strategies/bluff.rules", "games/bluff.rules"):
        assert said.format(line=line) in errors_printed(path)


# ---------------------------------------------------------------- found by mutating the strategies
def test_a_line_longer_than_the_board_is_found_missing_without_building_it():
    """A strategy's `in_a_row(1000000, ...)` on tic-tac-toe's grid, asked at every move, went
    over the mutation bound: each space's run of a million was built before its end was found
    off the board. Measured in memory, not time."""
    import tracemalloc
    from dsl.engine import geometry
    assert geometry.lines.__wrapped__(3, 3, "all", 3) == geometry.lines(3, 3, "all", 3)
    assert len(geometry.lines(3, 3, "all", 3)) == 8
    tracemalloc.start()
    try:
        assert geometry.lines.__wrapped__(3, 3, "all", 1_000_000) == ()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 100_000, peak
