"""Check time against the size of the file, from 1 kB to 1 MB, beside a baseline revision.

Four shapes of file, each grown to a size by repeating one declaration: a chain of values
each read by the next (`value v1 = v0 + 1`), values naming unknown names, a chain of rules
each carrying out the next (`do r1`), and a seed game's declarations repeated under new
names. Each figure is the CPU time of reading, parsing and checking the file in a fresh
process, as `playtest check` does (the grammar's analysis already cached). The baseline is
the same measure run on another revision's code (`git archive REV`), each cut off after
--timeout seconds. Not a test: tests/test_check_scaling.py holds the property (the work
grows in step with the file) as counts, never as time.

    python bench/check_scaling.py                       # against main by default
    python bench/check_scaling.py --baseline main --timeout 120
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1_000, 4_000, 16_000, 64_000, 256_000, 999_000)

SMALL = "game g\n  players 2 to 2\n\ncounter total = 0\n\nplay\n  {play}\n  end game\n\n"


def _grown(head: str, item, size: int) -> tuple[str, int]:
    """head followed by item(0), item(1)... up to `size` characters; and how many items."""
    parts, length, n = [head], len(head), 0
    while True:
        piece = item(n)
        if length + len(piece) > size and n:
            return "".join(parts), n
        parts.append(piece)
        length += len(piece)
        n += 1


def chained_values(size: int) -> str:
    """value v0 = total + 1, value v1 = v0 + 1, ...: the last one is what play sets."""
    body, n = _grown("", lambda i: f"value v{i} = v{i - 1} + 1\n" if i else "value v0 = total + 1\n", size - 100)
    return SMALL.format(play=f"set total to v{n - 1}") + body


def unknown_names(size: int) -> str:
    """Values each naming a name declared nowhere."""
    return _grown(SMALL.format(play="add 1 to total"), lambda i: f"value w{i} = unknown{i} + 1\n", size)[0]


def chained_rules(size: int) -> str:
    """rule r0 does r1, r1 does r2, ...: play carries out the first."""
    text, n = _grown(SMALL.format(play="do r0"), lambda i: f"rule r{i}\n  add 1 to total\n  do r{i + 1}\n\n", size - 40)
    return text + f"rule r{n}\n  add 1 to total\n"


def repeated_declarations(size: int) -> str:
    """Bluff, then its declarations again and again, each copy's names made new (a copy's
    symbols, setup and play are left out: a game has one of each)."""
    source = (ROOT / "games" / "bluff.rules").read_text(encoding="utf-8")
    start = source.index("\nparameter")
    head, body = source[:start + 1], source[start + 1:]
    names = re.findall(r"^(?:parameter|dice|zone|counter|variable|question|value|rule|trigger)\s+(\w+)", body, re.M)
    declared = re.compile(r"\b(" + "|".join(map(re.escape, names)) + r")\b")
    body = re.sub(r"^symbol \w+\n(  .*\n)*", "", body, flags=re.M)
    body = re.sub(r"^(setup|play)\b.*?(?=^\S)", "", body, flags=re.M | re.S)
    text, _ = _grown(head + source[start + 1:], lambda i: declared.sub(lambda m: f"{m.group(1)}_{i}", body), size)
    return text


SHAPES = {"values": chained_values, "unknown": unknown_names, "rules": chained_rules, "repeated": repeated_declarations}

# Run in a fresh process with the code under test first on sys.path: the CPU time of
# reading, parsing and checking one file, and the number of diagnostics.
_MEASURE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from dsl.language.parser import parse_text
from dsl.language.checker import check
parse_text("game g\\n", "warm.rules")
text = open(sys.argv[2], encoding="utf-8").read()
t = time.process_time()
rules, diags = parse_text(text, "g.rules")
if rules is not None:
    diags = check(rules)
print(time.process_time() - t, len(diags))
"""


def measure(code: Path, path: Path, timeout: float):
    """(seconds, diagnostics) of checking `path` with the code in `code`; None past the timeout."""
    try:
        out = subprocess.run([sys.executable, "-c", _MEASURE, str(code), str(path)], capture_output=True,
                             text=True, timeout=timeout, check=True).stdout.split()
    except subprocess.TimeoutExpired:
        return None
    except subprocess.CalledProcessError as e:
        tail = e.stderr.strip().splitlines()[-1:] or ["?"]
        return tail[0][:40]
    return float(out[0]), int(out[1])


def baseline_tree(rev: str, into: Path) -> Path:
    """The code of revision `rev`, unpacked (dsl/ and grammars/ are all checking needs)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "dsl", "grammars"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _shown(result) -> str:
    if result is None:
        return "timeout"
    if isinstance(result, str):
        return "crash"
    return f"{result[0]:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="main", help="revision (or folder holding its dsl/ and grammars/) to compare with (default main); 'none' for none")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds before a baseline figure is cut off")
    ap.add_argument("--shapes", default=",".join(SHAPES), help="which shapes, comma-separated")
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        old = None
        if Path(args.baseline).is_dir():
            old = Path(args.baseline).resolve()       # a tree of the code before, unpacked already
        elif args.baseline != "none":
            (tmp / "baseline").mkdir()
            old = baseline_tree(args.baseline, tmp / "baseline")
        for shape in args.shapes.split(","):
            slow = False            # once the baseline times out, larger files would too
            for size in SIZES:
                path = tmp / f"{shape}-{size}.rules"
                path.write_text(SHAPES[shape](size), encoding="utf-8")
                now = measure(ROOT, path, 600)
                before = None if old is None or slow else measure(old, path, args.timeout)
                slow = slow or (old is not None and before is None)
                rows.append({"shape": shape, "bytes": path.stat().st_size, "now": now, "before": before})
                if not args.json:
                    if len(rows) == 1:
                        print(f"{'shape':<9} {'bytes':>9} {'now s':>7} {'µs/byte':>8} {'before s':>9} {'diagnostics':>11}")
                    per = f"{now[0] / rows[-1]['bytes'] * 1e6:.2f}" if isinstance(now, tuple) else "-"
                    was = _shown(before) if old is not None else "-"
                    print(f"{shape:<9} {rows[-1]['bytes']:>9,} {_shown(now):>7} {per:>8} {was:>9} "
                          f"{now[1] if isinstance(now, tuple) else '-':>11}", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
