"""Language-server latency, beside the server of a baseline revision: a keystroke's diagnostics,
a hover sent right after a burst of edits, and a hover in one document while another, too
large for `check`, is opened.

Starts `playtest lsp` as an editor does (stdio, a pygls client), once with this tree's code
and once with the baseline's (`git archive REV dsl grammars`, unpacked into a temporary
folder, as bench/check_scaling.py does), and prints each figure side by side:

- keystroke: N seeded single-key edits of the file, each waited for (didChange to its
  publishDiagnostics): a letter typed and taken out again, or a line break added and removed;
- burst: 200 such edits of games/populus.rules sent as fast as the pipe takes them, then a
  hover on a parameter's name: the time from the hover to its answer, and from the first edit
  to the diagnostics of the last text;
- large document: games/bluff.rules open and analysed, then a document of 1.2 million
  characters opened (a chain of values each read by the next, as in bench/check_scaling.py:
  every line new, so no part of it was parsed before), then a hover in bluff.rules: the time
  to its answer; and the same with a document of 900,000 characters, within the limit, whose
  analysis takes tens of seconds.

Each figure of the baseline is cut off after --timeout seconds. Not a test: it prints figures
for the README and docs/speed-history.md.

    python bench/lsp_latency.py                     # against main
    python bench/lsp_latency.py --baseline none     # this tree only
"""
from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types as T
from pygls.lsp.client import BaseLanguageClient

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_scaling import chained_values  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "populus.rules"
OTHER = ROOT / "games" / "bluff.rules"
LARGE_CHARS = 1_200_000
NEAR_CHARS = 900_000


def edits(text: str, n: int, seed: int):
    """n (range, new text) single-key changes, each pair leaving the file as it was."""
    rng = random.Random(seed)
    lines = text.split("\n")
    body = [i for i, ln in enumerate(lines) if ln.startswith("    ") and ln.strip() and not ln.strip().startswith("#")]
    out = []
    while len(out) < n:
        i = rng.choice(body)
        col = rng.randint(4, len(lines[i]))
        at = T.Position(i, col)
        if rng.random() < 0.5:
            out += [(T.Range(at, at), "x"), (T.Range(at, T.Position(i, col + 1)), "")]
        else:
            out += [(T.Range(at, at), "\n"), (T.Range(at, T.Position(i + 1, 0)), "")]
    return out[:n]


def name_position(text: str, keyword: str = "parameter ") -> T.Position:
    """Where the first `parameter NAME` names its parameter."""
    at = text.index("\n" + keyword) + 1 + len(keyword)
    return T.Position(text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1))


class Session:
    """A server of the given code, its client, and when each version's diagnostics arrived."""

    def __init__(self, code: Path):
        self.code = code
        self.client = BaseLanguageClient("lsp-latency", "1")
        self.arrived: dict[tuple[str, int], float] = {}
        self.published = 0

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: T.PublishDiagnosticsParams):
            self.arrived[(params.uri, params.version)] = time.perf_counter()
            self.published += 1

    async def __aenter__(self):
        env = dict(os.environ, PYTHONPATH=str(self.code))
        await self.client.start_io(sys.executable, "-m", "dsl.cli", "lsp", cwd=str(self.code), env=env)
        await self.client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities()))
        self.client.initialized(T.InitializedParams())
        return self

    async def __aexit__(self, *exc):
        try:
            await asyncio.wait_for(self.client.shutdown_async(None), 10)
            self.client.exit(None)
        except (asyncio.TimeoutError, Exception):
            pass
        await self.client.stop()

    async def diagnostics(self, uri: str, version: int) -> float:
        while (uri, version) not in self.arrived:
            await asyncio.sleep(0.0005)
        return self.arrived[(uri, version)]

    def open(self, uri: str, text: str) -> None:
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(
            T.TextDocumentItem(uri=uri, language_id="playtest-rules", version=1, text=text)))

    def change(self, uri: str, version: int, rng: T.Range, new: str) -> None:
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=version), [T.TextDocumentContentChangePartial(range=rng, text=new)]))

    async def hover(self, uri: str, at: T.Position) -> float:
        """Seconds from sending a hover to its answer (which must say something)."""
        sent = time.perf_counter()
        got = await self.client.text_document_hover_async(T.HoverParams(T.TextDocumentIdentifier(uri), at))
        assert got is not None, "no hover"
        return time.perf_counter() - sent


async def keystroke(code: Path, path: Path, n: int, seed: int) -> list[float]:
    async with Session(code) as s:
        uri, text = path.resolve().as_uri(), path.read_text(encoding="utf-8")
        s.open(uri, text)
        await s.diagnostics(uri, 1)
        times = []
        for version, (rng, new) in enumerate(edits(text, n, seed), 2):
            sent = time.perf_counter()
            s.change(uri, version, rng, new)
            times.append(await s.diagnostics(uri, version) - sent)
        return times


async def burst(code: Path, n: int, seed: int) -> tuple[float, float, int]:
    """(hover answered, last text's diagnostics, diagnostics published) after n rapid edits."""
    async with Session(code) as s:
        uri, text = GAME.as_uri(), GAME.read_text(encoding="utf-8")
        s.open(uri, text)
        await s.diagnostics(uri, 1)
        await s.hover(uri, name_position(text))     # warm: the first hover reads the game's words
        s.published = 0
        start = time.perf_counter()
        for version, (rng, new) in enumerate(edits(text, n, seed), 2):
            s.change(uri, version, rng, new)
        answered = await s.hover(uri, name_position(text))
        last = await s.diagnostics(uri, n + 1) - start
        return answered, last, s.published


async def large(code: Path) -> float:
    """Seconds for a hover in one document after a 1.2-million-character one was opened."""
    async with Session(code) as s:
        uri, text = OTHER.as_uri(), OTHER.read_text(encoding="utf-8")
        s.open(uri, text)
        await s.diagnostics(uri, 1)
        await s.hover(uri, name_position(text))
        s.open((ROOT / "large.rules").as_uri(), chained_values(LARGE_CHARS))
        return await s.hover(uri, name_position(text))


async def near_limit(code: Path) -> float:
    """Seconds for a hover in one document while one of 900,000 characters (within the limit)
    is being analysed."""
    async with Session(code) as s:
        uri, text = OTHER.as_uri(), OTHER.read_text(encoding="utf-8")
        s.open(uri, text)
        await s.diagnostics(uri, 1)
        await s.hover(uri, name_position(text))
        s.open((ROOT / "near.rules").as_uri(), chained_values(NEAR_CHARS))
        return await s.hover(uri, name_position(text))


def baseline_tree(rev: str, into: Path) -> Path:
    """The code of revision `rev`, unpacked (dsl/ and grammars/ are all the server needs)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "dsl", "grammars"], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def run(coroutine, timeout: float | None):
    """The coroutine's result, or None past the timeout."""
    async def bounded():
        try:
            return await asyncio.wait_for(coroutine, timeout)
        except asyncio.TimeoutError:
            return None
    return asyncio.run(bounded())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="main", help="revision (or folder holding its dsl/ and grammars/) to compare with; 'none' for none")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds before a baseline figure is cut off")
    ap.add_argument("--edits", type=int, default=60, help="keystrokes waited for one by one")
    ap.add_argument("--burst", type=int, default=200, help="edits sent at once before the hover")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("file", nargs="?", default=str(GAME), help="the rule file typed into (default populus.rules)")
    args = ap.parse_args()
    path = Path(args.file)
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}; seed {args.seed}")
    ms = lambda s: "cut off" if s is None else f"{s * 1000:.0f} ms" if s < 10 else f"{s:.1f} s"
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"now": ROOT}
        if Path(args.baseline).is_dir():
            trees["baseline"] = Path(args.baseline).resolve()
        elif args.baseline != "none":
            trees["baseline"] = baseline_tree(args.baseline, Path(tmp))
        rows: dict[str, list[str]] = {}
        for name, code in trees.items():
            limit = None if name == "now" else args.timeout
            times = run(keystroke(code, path, args.edits, args.seed), limit)
            rows.setdefault(f"keystroke -> diagnostics, median of {args.edits} ({path.name})", []).append(
                ms(statistics.median(times)) if times else ms(None))
            rows.setdefault("  worst", []).append(ms(max(times)) if times else ms(None))
            b = run(burst(code, args.burst, args.seed), limit)
            rows.setdefault(f"hover right after {args.burst} rapid edits ({GAME.name})", []).append(ms(b and b[0]))
            rows.setdefault("  first edit -> diagnostics of the last text", []).append(ms(b and b[1]))
            rows.setdefault("  diagnostics published for the burst", []).append(str(b[2]) if b else "-")
            rows.setdefault(f"hover in {OTHER.name} after opening {LARGE_CHARS:,} characters", []).append(
                ms(run(large(code), limit)))
            rows.setdefault(f"hover in {OTHER.name} while {NEAR_CHARS:,} characters are analysed", []).append(
                ms(run(near_limit(code), limit)))
            print(f"  measured {name} ({code})", flush=True)
    width = max(map(len, rows))
    print(f"{'':<{width}}  {'now':>9}" + (f"  {'baseline ' + args.baseline:>16}" if len(trees) > 1 else ""))
    for label, cells in rows.items():
        print(f"{label:<{width}}  {cells[0]:>9}" + (f"  {cells[1]:>16}" if len(cells) > 1 else ""))


if __name__ == "__main__":
    main()
