"""The server's incremental parse (one parse per top-level item, spans moved into place)
gives the very tree `parse_text` gives for the whole file, and the same syntax errors."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from dsl.language.parser import parse_text
from dsl.lsp.chunks import ChunkParser, split

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "variants").glob("*.rules"))


def _both(text: str, path: str):
    whole, diags = parse_text(text, path)
    tree, chunk_diags, parsed = ChunkParser().parse(text, path)
    return whole, diags, tree, chunk_diags, parsed


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_rule_file_parses_to_the_same_tree(path: Path):
    whole, _, tree, diags, parsed = _both(path.read_text(encoding="utf-8"), str(path))
    assert parsed and diags == []
    assert repr(tree.decls) == repr(whole.decls)      # spans included (a syntax node's span is not compared by ==)


@pytest.mark.parametrize("name", ["games/bluff.rules", "games/tictactoe.rules", "variants/bluff-life.rules"])
def test_cut_and_broken_files_give_the_same_tree_and_errors(name: str):
    text = (ROOT / name).read_text(encoding="utf-8")
    rng = random.Random(name)
    for i in range(15):
        a, b = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        cut = [text[:a], text[:a] + text[b:], text[:a] + rng.choice(["(", ")", "\n  ", '"', "\n(", "rule "]) + text[a:]][i % 3]
        whole, diags, tree, chunk_diags, parsed = _both(cut, name)
        assert parsed == (whole is not None)
        if parsed:
            assert repr(tree.decls) == repr(whole.decls)
        assert [(d.span.line, d.span.column, d.message) for d in chunk_diags] == \
               [(d.span.line, d.span.column, d.message) for d in diags]


def test_a_line_inside_brackets_never_starts_an_item():
    text = "rule lose(loser,\nn)\n  pass\nrule other\n  pass\n"
    assert [line for line, _ in split(text)] == [1, 4]
    assert "".join(chunk for _, chunk in split(text)) == text
