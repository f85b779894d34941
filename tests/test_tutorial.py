"""docs/tutorial.md and docs/tutorial.ja.md, run as a reader follows them: every rule file
saved where the page says, every command run in order in an empty folder, with the exit status
the page gives (0 unless a `# exits N` says otherwise), and every output shown found in what
the commands printed."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from _util import ROOT

from dsl.cli import main

PAGES = ["tutorial.md", "tutorial.ja.md"]


def steps(page: str) -> list[tuple]:
    """('file', path, text), ('commands', [(line, status)]) and ('output', [lines]) in page order."""
    out = []
    lines = (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"```(\w+)$", lines[i])
        if not fence:
            i += 1
            continue
        end = lines.index("```", i + 1)
        body = lines[i + 1:end]
        if fence.group(1) == "rules":
            said = next(line for line in reversed(lines[:i]) if line.strip())
            path = re.findall(r"`([^`]+\.rules)`", said)[-1]
            out.append(("file", path, "\n".join(body) + "\n"))
        elif fence.group(1) == "sh":
            commands = []
            for line in body:
                status = re.search(r"#\s*exits (\d+)\s*$", line)
                command = line.split("#")[0].strip() if "#" in line else line.strip()
                if command:
                    commands.append((command, int(status.group(1)) if status else 0))
            out.append(("commands", commands))
        elif fence.group(1) == "text":
            out.append(("output", [line for line in body if line.strip() and line.strip() != "..."]))
        i = end + 1
    return out


def _words(line: str) -> str:
    return " ".join(line.split())


@pytest.mark.parametrize("page", PAGES)
def test_the_tutorial_runs_as_written(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    printed = ""
    ran = 0
    for step in steps(page):
        if step[0] == "file":
            path = tmp_path / step[1]
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(step[2], encoding="utf-8")
        elif step[0] == "commands":
            printed = ""
            for command, status in step[1]:
                words = shlex.split(command)
                assert words[0] == "playtest", command
                r = CliRunner().invoke(main, words[1:])
                assert r.exception is None or isinstance(r.exception, SystemExit), (command, repr(r.exception))
                assert r.exit_code == status, (command, r.output)
                printed += r.output
                ran += 1
        else:
            shown = {_words(line) for line in printed.splitlines()}
            missing = [line for line in step[1] if _words(line) not in shown]
            assert missing == [], printed
    assert ran >= 15
    for written in ("my-first-game.rules", "high-card.html", "high-card-ja.html", "out/high-card.html",
                    "out/high-card.json", "out/high-card.csv"):
        assert (tmp_path / written).stat().st_size > 0, written


def test_both_languages_build_the_same_game_with_the_same_commands():
    # the Japanese page adds --lang ja where a command prints words; nothing else differs
    def made(page):
        return [s if s[0] == "file" else ("commands", [(c.replace(" --lang ja", ""), k) for c, k in s[1]])
                for s in steps(page) if s[0] != "output"]
    assert made("tutorial.ja.md") == made("tutorial.md")


def test_the_steps_are_read_from_the_page():
    found = steps("tutorial.md")
    files = [s[1] for s in found if s[0] == "file"]
    assert files == ["games/high-card.rules", "variants/high-card-tie-nobody.rules"]
    commands = [c for s in found if s[0] == "commands" for c in s[1]]
    assert ("playtest simulate games/high-card.rules -p 3 --fail-on dead-ends", 3) in commands
    for verb in ("new", "check", "simulate", "fuzz", "replay", "variants", "diff", "book", "report"):
        assert any(c.split()[1] == verb for c, _ in commands), verb
