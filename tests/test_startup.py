"""Start-up: `playtest --help` and `check` import only what they use; a game's rules are compiled
once per process for the same content; the rulebook counts pieces without compiling."""
import json
import subprocess
import sys

import pytest

from dsl.engine import Game, compiled
from dsl.engine import source
from dsl.loader import load
from dsl.language import syntax as S
from dsl.analyses.sweep import with_values

# what --help needs none of: play, the analyses, printing, the table, the editor
HEAVY = ("dsl.engine.machine", "dsl.engine.compiler", "dsl.analyses.simulate", "dsl.analyses.batches",
         "dsl.analyses.replay", "dsl.agents", "dsl.printing.book", "dsl.table", "dsl.lsp")
# check plays a few random games at the ends of the players range (a count that cannot be
# played is a warning), so it may compile and play; it still needs no agents, printing, table
# or editor
HEAVY_FOR_CHECK = ("dsl.analyses.replay", "dsl.agents", "dsl.printing.book", "dsl.table", "dsl.lsp")


def _modules_after(args: list) -> set:
    code = ("import sys, runpy; sys.argv = ['playtest', *%r]\n"
            "try:\n    runpy.run_module('dsl.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "import json; print(json.dumps(sorted(sys.modules)), file=sys.stderr)") % (args,)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.mark.parametrize("args, heavy", [(["--help"], HEAVY), (["check", "games/bluff.rules"], HEAVY_FOR_CHECK),
                                         (["simulate", "--help"], HEAVY)])
def test_help_and_check_import_only_what_they_use(args, heavy):
    loaded = _modules_after(args)
    assert "dsl.cli.check" in loaded           # the command ran, with every command registered
    assert not [m for m in loaded if m.startswith(heavy)]


def test_check_still_loads_the_checker():
    assert {"dsl.loader", "dsl.language.checker"} <= _modules_after(["check", "games/bluff.rules"])


def test_the_same_rules_read_twice_compile_once():
    a, _ = load("games/bluff.rules")
    b, _ = load("games/bluff.rules")
    assert a is not b
    assert compiled(a, 3) is compiled(b, 3)
    assert compiled(a, 3) is not compiled(a, 4)


def test_rules_of_other_content_compile_apart():
    rules, _ = load("games/dream-duels.rules")
    param = rules.of(S.Parameter)[0]
    changed = with_values(rules, {param.name: 7})
    assert compiled(changed, 2) is not compiled(rules, 2)
    assert compiled(changed, 2).params[param.name] == 7


@pytest.mark.parametrize("path", ["games/democracy.rules", "games/dream-duels.rules", "games/populus.rules"])
def test_laid_out_counts_the_pieces_a_compiled_game_has(path):
    rules, _ = load(path)
    for n in (rules.game.min_players, rules.game.max_players):
        whole, laid = Game(rules, n), Game.laid_out(rules, n)
        assert laid.kind_pieces == whole.kind_pieces
        assert laid.params == whole.params
        assert laid.code == []          # nothing compiled


def test_the_tokenizer_runs_once_per_text():
    source._tokens.cache_clear()
    rules, _ = load("games/dream-duels.rules")
    Game(rules, 2)
    first = source._tokens.cache_info()
    Game(rules, 3)
    again = source._tokens.cache_info()
    assert first.misses > 100
    assert again.hits > first.hits and again.misses - first.misses < first.misses / 2
