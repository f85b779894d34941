"""The seed trace tables (docs/seeds/*.md) stay true to the rule files: every reference
`games/X.rules:LINES (`construct`, ...)` shows, within those lines, each construct it quotes.
A rule file edited above a traced rule moves it; the table must move with it."""
from __future__ import annotations

import re

import pytest

from _util import ROOT

TABLES = sorted((ROOT / "docs" / "seeds").glob("*.md"))
REFERENCE = re.compile(r"((?:games|variants)/[\w-]+\.rules):([\d, \-]+?)\s*\(([^)]*)\)")


def _lines(spans: str) -> list[tuple[int, int]]:
    out = []
    for part in re.findall(r"\d+(?:-\d+)?", spans):
        first, _, last = part.partition("-")
        out.append((int(first), int(last or first)))
    return out


@pytest.mark.parametrize("table", [t for t in TABLES if t.name != "README.md"], ids=lambda t: t.name)
def test_each_reference_shows_what_it_quotes(table):
    checked, stale = 0, []
    for row in table.read_text(encoding="utf-8").splitlines():
        for path, spans, quoted in REFERENCE.findall(row):
            lines = (ROOT / path).read_text(encoding="utf-8").splitlines()
            shown = "\n".join("\n".join(lines[a - 1:b]) for a, b in _lines(spans))
            for code in re.findall(r"`([^`]+)`", quoted):
                probe = code.split("...")[0].strip()
                if not any(probe in line for line in lines):
                    continue        # prose in backticks (`low ≤ high`), not a line of the file
                checked += 1
                if probe not in shown:
                    stale.append(f"{path}:{spans.strip()} does not show `{probe}`")
    assert checked >= 20
    assert stale == []
