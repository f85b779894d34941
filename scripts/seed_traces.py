"""The seed trace tables (docs/seeds/*.md): read their citations, find the stale ones, and
move a range that a rule-file edit shifted back onto what it quotes.

    python scripts/seed_traces.py          # list every stale citation (exit 1 if any)
    python scripts/seed_traces.py --fix    # move shifted ranges onto their quotes, then list

A citation is `games/X.rules:FIRST-LAST (`construct`, ...)`, several ranges joined by commas,
each followed by the constructs it shows in backticks; a backticked text that is no line of
the file is prose and cites nothing. A range is stale when it does not show every construct
it quotes. `--fix` shifts a stale range by the smallest offset (within 20 lines) that makes it
show all its quotes again, opening on one of them where it can, so the extent a person chose is kept; a range it cannot place is
left for a person and listed.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted(p for p in (ROOT / "docs" / "seeds").glob("*.md") if p.name != "README.md")
PATH = re.compile(r"(?:games|variants)/[\w-]+\.rules")
SPAN = re.compile(r"\s*(\d+)(?:-(\d+))?")
SEPARATOR = re.compile(r"\s*(?:,|and)\s*(?=\d)")
FURTHEST_SHIFT = 20


@dataclass
class Span:
    first: int
    last: int
    quotes: list[str]
    start: int = 0          # where the numbers are in the row, for rewriting them
    end: int = 0


@dataclass
class Citation:
    path: str
    spans: list[Span] = field(default_factory=list)


def _bracket(text: str, pos: int) -> tuple[str, int] | None:
    """The text inside the brackets opening at `pos` (nested brackets allowed), and the end."""
    opened = re.compile(r"\s*\(").match(text, pos)
    if not opened:
        return None
    depth, quoted = 0, False
    for i in range(opened.end() - 1, len(text)):
        quoted ^= text[i] == "`"        # a quoted construct may hold unbalanced brackets
        depth += 0 if quoted else {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return text[opened.end():i], i + 1
    return text[opened.end():], len(text)


def citations(row: str) -> list[Citation]:
    out = []
    for found in PATH.finditer(row):
        citation = Citation(found.group())
        out.append(citation)
        pos = found.end()
        if not row.startswith(":", pos):
            continue
        pos += 1
        while (span := SPAN.match(row, pos)):
            first, last = int(span.group(1)), int(span.group(2) or span.group(1))
            pos = span.end()
            inside = _bracket(row, pos)
            quotes = []
            if inside:
                quotes = re.findall(r"`([^`]+)`", inside[0])
                pos = inside[1]
            citation.spans.append(Span(first, last, quotes, span.start(1), span.end()))
            joined = SEPARATOR.match(row, pos)
            if not joined:
                break
            pos = joined.end()
    return out


def construct(code: str) -> str:
    """What a quote claims is in the file: `a ... b` claims `a`."""
    return code.split("...")[0].strip()


def _lines(path: str) -> list[str]:
    return (ROOT / path).read_text(encoding="utf-8").splitlines()


def claims(span: Span, lines: list[str], row: str = "") -> list[str]:
    """The constructs a range must show: those quoted in its own brackets; a range with none
    shows one of the constructs quoted anywhere in its row (`_one_of`)."""
    return [c for c in map(construct, span.quotes) if c and any(c in line for line in lines)]


def row_claims(row: str, lines: list[str]) -> list[str]:
    return [c for c in map(construct, re.findall(r"`([^`]+)`", row)) if c and any(c in line for line in lines)]


def _shows(lines: list[str], first: int, last: int, wanted: list[str]) -> bool:
    shown = "\n".join(lines[first - 1:last])
    return all(c in shown for c in wanted)


def stale(table: Path) -> tuple[int, list[str]]:
    """How many quoted constructs were checked, and each citation that fails."""
    checked, out = 0, []
    for number, row in enumerate(table.read_text(encoding="utf-8").splitlines(), 1):
        if not row.startswith("|"):
            continue
        for citation in citations(row):
            lines = _lines(citation.path)
            for span in citation.spans:
                wanted = claims(span, lines)
                where = f"{table.name}:{number}: {citation.path}:{span.first}-{span.last}"
                if not 1 <= span.first <= span.last <= len(lines):
                    out.append(f"{where} is outside the file")
                if wanted:
                    checked += len(wanted)
                    missing = [c for c in wanted if not _shows(lines, span.first, span.last, [c])]
                    if missing:
                        out.append(f"{where} does not show " + ", ".join(f"`{c}`" for c in missing))
                    continue
                anywhere = row_claims(row, lines)
                checked += 1
                if not any(_shows(lines, span.first, span.last, [c]) for c in anywhere):
                    out.append(f"{where} shows none of the constructs its row quotes"
                               + (" (it quotes none)" if not anywhere else ""))
    return checked, out


def _shifted(span: Span, lines: list[str]) -> tuple[int, int] | None:
    wanted = claims(span, lines)
    if not wanted:
        return None
    # a range that opens on a quoted construct is the one a person wrote; else any that shows
    for opens in (True, False):
        for distance in range(FURTHEST_SHIFT + 1):
            for offset in (distance, -distance) if distance else (0,):
                first, last = span.first + offset, span.last + offset
                if (1 <= first and last <= len(lines) and _shows(lines, first, last, wanted)
                        and (not opens or any(c in lines[first - 1] for c in wanted))):
                    return first, last
    return None


def fix(table: Path) -> int:
    """Shift every stale range of the table onto its quotes; how many moved."""
    moved, rows = 0, []
    for row in table.read_text(encoding="utf-8").splitlines():
        edits = []
        for citation in citations(row) if row.startswith("|") else []:
            lines = _lines(citation.path)
            for span in citation.spans:
                placed = _shifted(span, lines)
                if placed and placed != (span.first, span.last):
                    first, last = placed
                    edits.append((span.start, span.end, f"{first}-{last}" if last > first else f"{first}"))
        for start, end, text in sorted(edits, reverse=True):
            row = row[:start] + text + row[end:]
            moved += 1
        rows.append(row)
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return moved


def main(argv: list[str]) -> int:
    if "--fix" in argv:
        for table in TABLES:
            print(f"{table.name}: {fix(table)} ranges moved")
    failures = 0
    for table in TABLES:
        checked, found = stale(table)
        failures += len(found)
        print(f"{table.name}: {checked} quoted constructs checked, {len(found)} stale")
        for line in found:
            print("  " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
