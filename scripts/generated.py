"""Write generated/: the rulebook, sheet and card sheets of every game and variant, ja and en.

    python scripts/generated.py           (make generated)
    python scripts/generated.py --html    only the HTML (fast; what the currency test compares)
    python scripts/generated.py bluff     only the games named (and their variants)

Every output goes to generated/<game>/<stem>-<kind>-<lang>.<html|pdf>, where the stem is
the game's or the variant's file name, and generated/index.html links them all. The
outputs depend only on the rule files, so a rerun with unchanged rules changes nothing.
"""
from __future__ import annotations

import glob
import os
import sys
from dataclasses import dataclass
from html import escape

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dsl.printing import book  # noqa: E402
from dsl.variants import overlay  # noqa: E402
from dsl.loader import load  # noqa: E402
from dsl.language.parser import parse_file  # noqa: E402
from dsl.analyses.replay import write_atomic  # noqa: E402
from dsl.language.syntax import Component, text_of  # noqa: E402

OUT = "generated"
LANGS = ("en", "ja")


@dataclass(frozen=True)
class Target:
    game: str            # the game's file stem, the folder
    rules: str           # the file given to the loader: a game, or a variant (which brings its game)
    kind: str            # book, sheet or cards
    lang: str

    def path(self, fmt: str) -> str:
        stem = os.path.splitext(os.path.basename(self.rules))[0]
        return os.path.join(OUT, self.game, f"{stem}-{self.kind}-{self.lang}.{fmt}")


def rule_sets(only=()) -> list[tuple[str, str]]:
    """(game stem, file) for every game (or those named) and every variant of it, games first."""
    out = []
    for game_path in sorted(glob.glob("games/*.rules")):
        stem = os.path.splitext(os.path.basename(game_path))[0]
        if only and stem not in only:
            continue
        name = parse_file(game_path).game.name
        out.append((stem, game_path))
        out += [(stem, v) for v in sorted(glob.glob("variants/*.rules")) if overlay.head(parse_file(v)).game == name]
    return out


def targets(only=()) -> list[Target]:
    return [t for stem, path in rule_sets(only) for t in targets_of(stem, path)]


def targets_of(stem: str, path: str) -> list[Target]:
    """The printouts of one game or variant: book and sheet, and card sheets where it has a deck."""
    rules, _ = load(path)
    kinds = ["book", "sheet"] + (["cards"] if any(c.kind == "deck" for c in rules.of(Component)) else [])
    return [Target(stem, path, kind, lang) for kind in kinds for lang in LANGS]


def output(t: Target, fmt: str) -> str | bytes:
    rules, _ = load(t.rules)
    base = load(rules.path)[0] if rules.variants else None
    return book.make(t.kind, fmt, rules, t.lang, base)


def index(all_targets: list[Target]) -> str:
    """generated/index.html: one table per game, a row per rule set, a link per output."""
    rows: dict[str, dict[str, list[Target]]] = {}
    for t in all_targets:
        rows.setdefault(t.game, {}).setdefault(t.rules, []).append(t)
    parts = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
             "<title>playtest: generated rulebooks</title>",
             "<style>body{font-family:system-ui,'Noto Sans JP',sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}"
             "table{border-collapse:collapse;margin-bottom:2rem}td,th{border:1px solid #ccd;padding:.2rem .5rem;text-align:left}"
             "th{background:#f1f4f7}.file{color:#667;font-size:.85em}</style>",
             "</head>", "<body>", "<h1>Rulebooks, sheets and cards</h1>",
             "<p>Written by <code>make generated</code> from the rule files in games/ and variants/. "
             "Each rule set: the rulebook, the one-page sheet and (where the game has cards) the card sheets, "
             "in English and Japanese, as HTML and PDF.</p>"]
    for game, sets in rows.items():
        parts += [f"<h2>{escape(game)}</h2>", "<table>", "<tr><th>rules</th><th>rulebook</th><th>sheet</th><th>cards</th></tr>"]
        for path, ts in sets.items():
            head = parse_file(path)
            h = overlay.head(head)
            texts = h.texts if h else head.game.texts
            title = " / ".join(x for x in (text_of(texts, "title", "en"), text_of(texts, "title", "ja")) if x)
            cells = []
            for kind in book.KINDS:
                links = [f'<a href="{escape(os.path.relpath(t.path(fmt), OUT))}">{t.lang} {fmt}</a>'
                         for t in ts if t.kind == kind for fmt in ("html", "pdf")]
                cells.append("<td>" + " · ".join(links) + "</td>")
            parts.append(f'<tr><td>{escape(title)}<div class="file">{escape(path)}</div></td>{"".join(cells)}</tr>')
        parts.append("</table>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)


def main(argv: list[str]) -> int:
    formats = ("html",) if "--html" in argv else ("html", "pdf")
    only = [a for a in argv if not a.startswith("-")]
    all_targets = targets(only)
    wanted = {os.path.join(OUT, "index.html")}
    for t in all_targets:
        for fmt in formats:
            path = t.path(fmt)
            wanted.add(path)
            data = output(t, fmt)
            old = open(path, "rb").read() if os.path.exists(path) else None
            new = data if isinstance(data, bytes) else data.encode("utf-8")
            if old != new:
                write_atomic(path, data)
                print(f"wrote {path}")
    if only:
        print(f"{len(all_targets)} outputs x {len(formats)} formats current for {', '.join(only)}")
        return 0
    write_atomic(os.path.join(OUT, "index.html"), index(all_targets))
    # outputs of rule sets that no longer exist would go stale: remove them
    for fmt in formats:
        for path in glob.glob(os.path.join(OUT, "*", f"*.{fmt}")):
            # findings, reports and skill are written by their own make targets
            others = [os.path.join(OUT, d) + os.sep for d in ("findings", "reports", "skill")]
            if path not in wanted and not any(path.startswith(o) for o in others):
                os.unlink(path)
                print(f"removed {path}")
    print(f"{len(all_targets)} outputs x {len(formats)} formats current in {OUT}/")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
