"""Language-server latency: from a keystroke (didChange) to its diagnostics (publishDiagnostics),
on the largest seed rule file, beside the plain `check` of the same file.

Starts `playtest lsp` as an editor does (stdio, a pygls client), opens the file, then
sends N seeded single-key edits, each one waited for: a letter typed into a line and
taken out again (one item re-parsed) or a line break added and removed (every item
below moves down a line). Baselines: parse + check of the whole file in one process with
the parser already built, and `playtest check FILE` as a command (which builds the
parser each time). Not a test: it prints figures for the README.
"""
from __future__ import annotations

import argparse
import asyncio
import glob
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from lsprotocol import types as T  # noqa: E402
from pygls.lsp.client import BaseLanguageClient  # noqa: E402

from dsl.language.checker import check  # noqa: E402
from dsl.language.parser import parse_text  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def largest_game() -> Path:
    return max((Path(p) for p in glob.glob(str(ROOT / "games" / "*.rules"))),
               key=lambda p: p.read_text(encoding="utf-8").count("\n"))


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


async def measure(path: Path, n: int, seed: int):
    client = BaseLanguageClient("lsp-latency", "1")
    arrived: dict[int, float] = {}

    @client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def _diagnostics(params: T.PublishDiagnosticsParams):
        arrived[params.version] = time.perf_counter()

    async def wait(version: int) -> float:
        while version not in arrived:
            await asyncio.sleep(0.0005)
        return arrived[version]

    await client.start_io(sys.executable, "-m", "dsl.cli", "lsp")
    await client.initialize_async(T.InitializeParams(capabilities=T.ClientCapabilities()))
    client.initialized(T.InitializedParams())
    uri = path.resolve().as_uri()
    text = path.read_text(encoding="utf-8")
    sent = time.perf_counter()
    client.text_document_did_open(T.DidOpenTextDocumentParams(T.TextDocumentItem(uri=uri, language_id="playtest-rules", version=1, text=text)))
    first = await wait(1) - sent
    times = []
    for version, (rng, new) in enumerate(edits(text, n, seed), 2):
        sent = time.perf_counter()
        client.text_document_did_change(T.DidChangeTextDocumentParams(
            T.VersionedTextDocumentIdentifier(uri=uri, version=version), [T.TextDocumentContentChangePartial(range=rng, text=new)]))
        times.append(await wait(version) - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return first, times


def baseline(path: Path, repeat: int = 5):
    text = path.read_text(encoding="utf-8")
    parse_text(text, str(path))                 # build the parser once, as the server does
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        rules, _ = parse_text(text, str(path))
        check(rules)
        runs.append(time.perf_counter() - t)
    cli = []
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "dsl.cli", "check", str(path)], capture_output=True, cwd=ROOT)
        cli.append(time.perf_counter() - t)
    return statistics.median(runs), statistics.median(cli)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("file", nargs="?", help="a rule file (default: the largest in games/)")
    args = ap.parse_args()
    path = Path(args.file) if args.file else largest_game()
    lines = path.read_text(encoding="utf-8").count("\n")
    print(f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"{path.name} ({lines} lines), {args.edits} edits, seed {args.seed}")
    first, times = asyncio.run(measure(path, args.edits, args.seed))
    whole, cli = baseline(path)
    ms = lambda s: f"{s * 1000:.0f} ms"
    print(f"  didChange -> diagnostics: median {ms(statistics.median(times))}, "
          f"90th percentile {ms(sorted(times)[int(len(times) * 0.9) - 1])}, worst {ms(max(times))}")
    print(f"  didOpen -> diagnostics (first, parser built): {ms(first)}")
    print(f"  baseline, parse + check of the whole file (parser built): {ms(whole)}")
    print(f"  baseline, `playtest check` as a command: {ms(cli)}")


if __name__ == "__main__":
    main()
