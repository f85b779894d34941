"""The VS Code extension's files: valid JSON, a TextMate grammar whose regexes compile and
that knows every keyword of grammars/rules.lark and every builtin, wired to `playtest lsp`.
(Tokenizing with VS Code's own engine, vscode-textmate + Oniguruma, was checked by hand:
see docs/editors.md.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

from dsl.engine.builtins import BUILTINS

ROOT = Path(__file__).resolve().parent.parent
VSCODE = ROOT / "editors" / "vscode"


def _json(name: str):
    return json.loads((VSCODE / name).read_text(encoding="utf-8"))


def _regexes(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("match", "begin", "end") and isinstance(value, str):
                yield value
            else:
                yield from _regexes(value)
    elif isinstance(node, list):
        for x in node:
            yield from _regexes(x)


def test_the_extension_is_wired_to_the_server():
    package = _json("package.json")
    grammar = _json("syntaxes/rules.tmLanguage.json")
    language = package["contributes"]["languages"][0]
    assert language["extensions"] == [".rules"]
    assert package["contributes"]["grammars"][0] == {"language": language["id"], "scopeName": grammar["scopeName"],
                                                    "path": "./syntaxes/rules.tmLanguage.json"}
    assert package["activationEvents"] == [f"onLanguage:{language['id']}"]
    assert "vscode-languageclient" in package["dependencies"]
    _json(language["configuration"])
    script = (VSCODE / package["main"]).read_text(encoding="utf-8")
    assert 'args: ["lsp"]' in script and f'language: "{language["id"]}"' in script


def test_the_grammar_compiles_and_knows_every_keyword_and_builtin():
    grammar = _json("syntaxes/rules.tmLanguage.json")
    patterns = list(_regexes(grammar))
    assert len(patterns) == 15
    for p in patterns:
        re.compile(p)
    words = {w for p in patterns for group in re.findall(r"\(([\w|]+)\)", p) for w in group.split("|")}
    keywords = set(re.findall(r'"([a-z]+)"', (ROOT / "grammars" / "rules.lark").read_text(encoding="utf-8")))
    assert keywords - words == set()
    builtin = grammar["repository"]["builtin"]["match"]
    assert set(re.search(r"\(([\w|]+)\)", builtin).group(1).split("|")) == set(BUILTINS)


def test_the_grammar_scopes_a_line_as_expected():
    """The regexes read a line the way the grammar's pattern order intends (first match wins)."""
    grammar = _json("syntaxes/rules.tmLanguage.json")
    repo = grammar["repository"]
    order = [p["include"][1:] for p in grammar["patterns"]]
    line = "      move up to count(cup(p)) from supply to lost  # why"
    scopes, at = [], 0
    while at < len(line):
        best = None
        for name in order:
            m = re.compile(repo[name].get("match") or repo[name]["begin"]).search(line, at)
            if m and m.group() and (best is None or m.start() < best[1].start()):
                best = (name, m)
        if best is None:
            break
        scopes.append((best[0], best[1].group().strip()))
        at = best[1].end()
    assert scopes == [("keyword", "move"), ("keyword", "up"), ("keyword", "to"), ("builtin", "count"),
                      ("keyword", "from"), ("keyword", "to"), ("comment", "# why")]
