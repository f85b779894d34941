"""The registry of constructs: every node type is a construct with every hook its kind needs,
a missing hook is an error naming both, and every event play makes has a narrator."""
import random
from pathlib import Path

import pytest

from dsl import constructs
from dsl.constructs import registry
from dsl.engine import Game
from dsl.language import syntax as S
from dsl.loader import load
from dsl.printing.narrate import Narrator
from dsl.analyses.simulate import play_random

ROOT = Path(__file__).resolve().parent.parent


def _concrete(base):
    for cls in base.__subclasses__():
        yield cls
        yield from _concrete(cls)


def test_every_node_type_is_a_registered_construct():
    nodes = set(_concrete(S.Expr)) | set(_concrete(S.Stmt)) | set(_concrete(S.Decl))
    unregistered = {n.__name__ for n in nodes if n not in constructs.REGISTRY}
    assert unregistered == set()
    assert set(constructs.REGISTRY) == nodes


def test_every_construct_has_every_hook_of_its_kind():
    assert registry.missing_hooks() == []
    for c in constructs.REGISTRY.values():
        assert set(registry.HOOKS[c.kind]) <= set(c.hooks), c.node.__name__


def test_a_construct_without_a_hook_is_named_with_the_hook(monkeypatch):
    from dsl.constructs.move import Move
    c = constructs.REGISTRY[Move]
    monkeypatch.delitem(c.hooks, "read")
    assert registry.missing_hooks() == [f"Move ({c.module}): no 'read' hook"]
    with pytest.raises(registry.MissingHook, match=r"construct Move \(dsl.constructs.move\) has no 'read' hook"):
        constructs.hook(Move(S.NOWHERE, "all", None, None, None, "top"), "read")


def test_an_absent_hook_says_why():
    from dsl.constructs.flow import Flow
    with pytest.raises(registry.MissingHook, match="setup and play are read step by step"):
        constructs.hook(Flow("play", (), S.NOWHERE, ()), "read")


def test_a_node_type_nobody_registered_is_refused():
    class Stray(S.Stmt):
        pass
    with pytest.raises(registry.MissingHook, match="Stray is not a registered construct"):
        constructs.hook(Stray(S.NOWHERE), "compile")


def test_each_grammar_rule_is_built_by_one_construct():
    rules = constructs.grammar_rules()
    grammar = (ROOT / "grammars" / "rules.lark").read_text(encoding="utf-8")
    for rule in rules:
        assert f"{rule}" in grammar, rule


@pytest.mark.parametrize("path,players", [("games/bluff.rules", 3), ("games/democracy.rules", 4),
                                          ("games/byzantine.rules", 3), ("games/dream-duels.rules", 6),
                                          ("games/tictactoe.rules", 2), ("variants/bluff-life.rules", 3)])
def test_every_event_of_play_is_narrated_in_both_languages(path, players):
    """The narrator raises on an event no construct tells; play makes every kind it can."""
    rules, _ = load(str(ROOT / path))
    game = Game(rules, players)
    seen = set()
    for i in range(20):
        played = play_random(game, random.Random(i))
        s = game.new_initial_state(log=True)
        for actor, move in played.actions:
            s.apply(move, None if actor == -1 else actor)
        for lang in ("en", "ja"):
            lines = Narrator(game, lang).tell(s.log)
            assert all(isinstance(x, str) and x for x in lines)
        seen |= {e["event"] for e in s.log}
    assert {"choose", "end"} & seen or "dead_end" in seen
    assert seen - set(constructs.EVENTS) <= {"dead_end"}
