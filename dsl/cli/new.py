"""new: write a commented starter game to grow one's own from."""
from __future__ import annotations

import os
import re
import shutil
import sys
import unicodedata
from importlib import resources

import click

from .common import main, _fail, writable_or_exit, write_or_exit


def program() -> str:
    """How to run this playtest as the user types it: `playtest` when the shell finds this very
    one, else its path (e.g. .venv/bin/playtest right after `make demo`)."""
    beside = os.path.join(os.path.dirname(sys.executable), "playtest")
    found = shutil.which("playtest")
    if found and os.path.realpath(found) == os.path.realpath(beside):
        return "playtest"
    if os.path.exists(beside):
        relative = os.path.relpath(beside)
        return relative if not relative.startswith("..") else beside
    return f"{sys.executable} -m dsl.cli"


# the kernel's own folders: what is written there is no file a designer keeps
_SYSTEM_FOLDERS = ("/dev", "/proc", "/sys")


def _usable_or_exit(name: str) -> None:
    """A name `new` can make a rule file of, or exit 2 saying why: no control characters (a tab,
    a newline or an escape would end up in the starter's comments and commands, and a terminal
    would show something else than the file's name), and neither a device, a pipe or a socket
    (`new /dev/null`) nor a file in the kernel's folders."""
    odd = next((c for c in name if unicodedata.category(c).startswith("C")), None)
    if odd is not None:
        _fail(f"{name!r}: a game's file name has no control characters (it has {odd!r}); "
              f"use letters, digits, '-' and '_', e.g. my-game", 2)
    if os.path.exists(name) and not (os.path.isfile(name) or os.path.isdir(name)):
        _fail(f"'{name}' is a device, a pipe or a socket, not a name for a rule file; e.g. my-game", 2)
    folder = os.path.realpath(os.path.dirname(os.path.abspath(name)))
    if any(folder == f or folder.startswith(f + os.sep) for f in _SYSTEM_FOLDERS):
        _fail(f"'{name}': {folder} is the system's, not a folder for rule files; e.g. games/my-game", 2)


@main.command(help="""Write a starter game to grow your own from: NAME.rules, a small dice race
whose comments explain each part of a rule file. It checks, simulates and prints as it is.

\b
  playtest new my-game                  (writes my-game.rules)
  playtest new games/my-game            (writes games/my-game.rules)

An existing file is never overwritten. A name with a control character (a newline, a tab, an
escape), a device or a pipe (/dev/null), or a file in /dev, /proc or /sys is refused.""")
@click.argument("name")
def new(name):
    from ..language.diagnostics import RuleFileError
    from ..loader import load
    _usable_or_exit(name)
    path = name if name.endswith(".rules") else name + ".rules"
    stem = os.path.basename(path)[: -len(".rules")]
    ident = re.sub(r"[^a-z0-9_]+", "_", stem.lower()).strip("_")
    if not re.match(r"[a-z]", ident):
        _fail(f"'{name}': a game's name starts with a letter, e.g. my-game", 2)
    if os.path.lexists(path):
        _fail(f"{path} already exists: choose another name, or move that file away (it is left as it is)")
    text = (resources.files(__package__) / "starter.rules").read_text(encoding="utf-8")
    title = stem.replace("-", " ").replace("_", " ").strip().capitalize()
    text = text.replace("{{name}}", ident).replace("{{title}}", title.replace('"', "'")).replace("{{file}}", path)
    text = text.replace("{{stem}}", stem)
    writable_or_exit(path, name)          # makes the folder it names, as a designer expects
    write_or_exit(path, text)
    try:
        load(path)
    except RuleFileError as e:       # a name the language keeps for itself, say
        os.remove(path)
        _fail(f"'{name}' cannot name a game: {e.diagnostics[0].message}; choose another name", 2)
    run = program()
    click.echo(f"wrote {path}: a dice race to grow your game from (its comments explain each part)")
    click.echo("next:")
    for command, what in ((f"check {path}", "mistakes and open questions"),
                          (f"simulate {path} -p 3", "1000 random games: who wins, how long, dead ends"),
                          (f"book {path} -o {stem}.html", "the rulebook")):
        click.echo(f"  {run} {command:<40} {what}")
