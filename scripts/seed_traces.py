"""The seed trace tables (docs/seeds/*.md): read their citations, find the stale ones, and
move a range that a rule-file edit shifted back onto what it quotes.

    python scripts/seed_traces.py          # list every stale citation (exit 1 if any)
    python scripts/seed_traces.py --fix    # move shifted ranges onto their quotes, then list
    python scripts/seed_traces.py --since REV   # move every range with its lines since git REV

A citation is `games/X.rules:FIRST-LAST (`construct`, ...)`, several ranges joined by commas,
each followed by the constructs it shows in backticks; a backticked text that is no line of
the file is prose and cites nothing. A range is stale when it does not show every construct
it quotes. `--fix` shifts a stale range by the smallest offset (within 60 lines) that makes it
show all its quotes again, opening on one of them where it can, so the extent a person chose is kept; a range it cannot place is
left for a person and listed. After edits to a rule file, `--since REV` (a git revision from
before the edits, e.g. HEAD) moves every range, stale or not, with the lines it cited.
"""
from __future__ import annotations

import difflib
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted(p for p in (ROOT / "docs" / "seeds").glob("*.md") if p.name != "README.md")
PATH = re.compile(r"(?:games|variants)/[\w-]+\.rules")
SPAN = re.compile(r"\s*(\d+)(?:-(\d+))?")
SEPARATOR = re.compile(r"\s*(?:,|and)\s*(?=\d)")
FURTHEST_SHIFT = 60


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
    if not wanted or _shows(lines, span.first, span.last, wanted):
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


def _move_ranges(table: Path, place) -> int:
    """Rewrite every range of the table to where `place(citation, span)` puts it (None: leave
    it); how many moved."""
    moved, rows = 0, []
    for row in table.read_text(encoding="utf-8").splitlines():
        edits = []
        for citation in citations(row) if row.startswith("|") else []:
            for span in citation.spans:
                placed = place(citation, span)
                if placed and placed != (span.first, span.last):
                    first, last = placed
                    edits.append((span.start, span.end, f"{first}-{last}" if last > first else f"{first}"))
        for start, end, text in sorted(edits, reverse=True):
            row = row[:start] + text + row[end:]
            moved += 1
        rows.append(row)
    table.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return moved


def fix(table: Path) -> int:
    """Shift every stale range of the table onto its quotes; how many moved."""
    return _move_ranges(table, lambda citation, span: _shifted(span, _lines(citation.path)))


def _line_map(old: list[str], new: list[str]):
    """Old line number -> new one, through the unchanged stretches between the versions; a
    line that was rewritten maps to where its stretch now starts."""
    moved = {}
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        for k in range(a0, a1):
            moved[k + 1] = b0 + 1 + (k - a0 if tag == "equal" else min(k - a0, max(b1 - b0 - 1, 0)))
    moved[len(old) + 1] = len(new) + 1
    return lambda n: moved.get(n, n)


def follow(table: Path, revision: str) -> int:
    """Move every range of the table as the rule files changed since `revision` (a git
    revision) moved the lines: each range follows its own lines, whether or not it is stale."""
    maps = {}

    def place(citation, span):
        if citation.path not in maps:
            was = subprocess.run(["git", "show", f"{revision}:{citation.path}"], cwd=ROOT,
                                 capture_output=True, text=True)
            maps[citation.path] = (_line_map(was.stdout.splitlines(), _lines(citation.path))
                                   if was.returncode == 0 else (lambda n: n))
        return maps[citation.path](span.first), maps[citation.path](span.last)
    return _move_ranges(table, place)


def main(argv: list[str]) -> int:
    if "--since" in argv:
        revision = argv[argv.index("--since") + 1]
        for table in TABLES:
            print(f"{table.name}: {follow(table, revision)} ranges moved with their lines since {revision}")
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


# Every construct justified -------------------------------------------------------------
# A line of a seed's rule file is justified when a trace table cites a range holding it, when
# it lies in a block the rule language itself marks as undecided (`question`, `assume`, a
# `provisional` parameter), or when a comment directly above its construct says where it comes
# from: `# seed: 「quote」` (the quote must be in the seed), `# readme: "quote"` (in the seeds
# README), `# modelling: reason` or `# assumption: reason`. A mark covers the construct under
# it and everything indented below that.

SEEDS = Path("/work/shared/seeds")
SEED_OF = {"bluff": "bluff.md", "byzantine": "byzantine.md", "democracy": "democracy.txt",
           "dream_duels": "dream-duels.md", "populus": "populus-draft5.txt"}
TABLE_OF = {"bluff": "bluff.md", "byzantine": "byzantine.md", "democracy": "democracy.md",
            "dream_duels": "dream-duels.md", "populus": "populus.md"}
MARK = re.compile(r"#\s*(seed|readme|modelling|assumption):\s*(.*)")
UNDECIDED = re.compile(r"(?:(?:add|replace)\s+)?(?:question\b|assume\b|parameter\b.*\bprovisional\b)")
HOLDER = re.compile(r"(counter|variable|zone|value|parameter|dice|token|deck|card|symbol|board|score)\b")
SECTIONS = {"setup", "play"}     # headings that hold constructs and claim nothing themselves
GAME = re.compile(r"^(?:game\s+(\w+)|variant\s+\w+\s+of\s+(\w+))", re.M)


def game_of(path: Path) -> str | None:
    found = GAME.search(path.read_text(encoding="utf-8"))
    return found and (found.group(1) or found.group(2))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block(lines: list[str], i: int) -> range:
    """Line i (0-based) and the lines indented below it."""
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > _indent(lines[i])
                              or (_indent(lines[j]) == _indent(lines[i]) and lines[j].strip() == "else")):
        j += 1
    return range(i, j)


def _normal(text: str) -> str:
    return re.sub(r"\s+", "", text)


def quote_found(quote: str, source: str) -> bool:
    """Each part of a quote (parts joined by …) is in the source, in order."""
    at = 0
    for part in filter(None, map(_normal, re.split(r"…|\.\.\.", quote))):
        at = source.find(part, at)
        if at < 0:
            return False
        at += len(part)
    return True


def _quote_of(text: str) -> str | None:
    found = re.search(r"「(.+)」|\"(.+)\"", text)
    return found and (found.group(1) or found.group(2))


def marks(path: Path) -> tuple[set[int], list[str]]:
    """The lines (1-based) the file's own marks cover, and every mark that is wrong."""
    lines = path.read_text(encoding="utf-8").splitlines()
    game = game_of(path)
    covered, wrong = set(), []
    sources = {"seed": _normal((SEEDS / SEED_OF[game]).read_text(encoding="utf-8")) if game in SEED_OF else "",
               "readme": _normal((SEEDS / "README.md").read_text(encoding="utf-8"))}
    pending: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith("#"):
            mark = MARK.match(text)
            if mark:
                pending.append((i + 1, mark.group(1), mark.group(2).strip()))
            continue
        if not text:
            pending = []
            continue
        for number, kind, said in pending:
            if kind in sources:
                quote = _quote_of(said)
                if not quote or not quote_found(quote, sources[kind]):
                    wrong.append(f"{path.name}:{number}: `# {kind}:` quotes no sentence of the "
                                 f"{'seed' if kind == 'seed' else 'seeds README'}: {said}")
            elif len(said) < 12:
                wrong.append(f"{path.name}:{number}: `# {kind}:` gives no reason")
        if pending or UNDECIDED.match(text):
            covered.update(n + 1 for n in _block(lines, i))
        pending = []
    return covered, wrong


def cited(game: str, path: Path) -> set[int]:
    """The lines of `path` the game's trace table cites. Citing the head of a declaration that
    only holds something (a counter, a zone, a value...) cites its indented lines too, so a
    `seen by` or `title` line added under it needs no new range."""
    table = ROOT / "docs" / "seeds" / TABLE_OF[game]
    where = path.relative_to(ROOT).as_posix()
    lines = path.read_text(encoding="utf-8").splitlines()
    out = set()
    for row in table.read_text(encoding="utf-8").splitlines():
        for citation in citations(row) if row.startswith("|") else []:
            if citation.path == where:
                for span in citation.spans:
                    out.update(range(span.first, span.last + 1))
    for n in sorted(out):
        if 1 <= n <= len(lines) and HOLDER.match(lines[n - 1]):
            out.update(k + 1 for k in _block(lines, n - 1))
    return out


def unjustified(path: Path) -> list[str]:
    """Each construct line of a seed's rule file that nothing justifies, and each wrong mark."""
    game = game_of(path)
    covered, wrong = marks(path)
    covered |= cited(game, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    return wrong + [f"{path.name}:{n}: {line.strip()}" for n, line in enumerate(lines, 1)
                    if line.strip() and not line.strip().startswith("#") and n not in covered
                    and line.strip() not in SECTIONS]


def seed_rule_files() -> list[Path]:
    return [p for p in sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "variants").glob("*.rules"))
            if game_of(p) in SEED_OF]
