"""Parsed rule files kept on disk between commands, only where the user asks for it: the folder
PLAYTEST_CACHE names. Parsing is most of `playtest check` on a large game, and a designer runs
it again and again on a file that changed in one line, or not at all.

An entry is the syntax tree of one file, keyed by its path, its text and the code that parses
(the grammar and every module of the language and the constructs, by size and time of change,
and the Python version), so a changed file or a changed playtest is parsed again. The tree is
data: reading it back runs none of the rule file's text. It is kept with pickle, which trusts
the folder as Python trusts __pycache__, so a folder another user may write to is not used.

Every text ever checked would otherwise stay (a designer's every edit is a new entry), so each
new entry prunes the folder (`_prune`): entries not used for MAX_AGE_DAYS go, then the least
recently used until the folder holds MAX_MEGABYTES at most. Reading an entry marks it used.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import stat
import sys
import tempfile
import time
from functools import lru_cache
from typing import Optional

VARIABLE = "PLAYTEST_CACHE"
_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # the dsl package
_CODE = ("language", "constructs")
_GRAMMAR = os.path.join(os.path.dirname(_ROOT), "grammars", "rules.lark")
MAX_AGE_DAYS = 30
MAX_MEGABYTES = 256
_PART_SECONDS = 3600            # a .part this old was left by a write that died


def folder() -> Optional[str]:
    """The cache folder, if the user named one and it is theirs alone to write."""
    path = os.environ.get(VARIABLE)
    if not path:
        return None
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.stat(path)
    except OSError:
        return None
    mine = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    if not stat.S_ISDIR(st.st_mode) or not mine or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return None
    return path


@lru_cache(maxsize=1)
def _code_version() -> bytes:
    h = hashlib.sha256(sys.version.encode())
    files = [_GRAMMAR] + sorted(os.path.join(_ROOT, part, name) for part in _CODE
                                for name in os.listdir(os.path.join(_ROOT, part)) if name.endswith(".py"))
    for path in files:
        st = os.stat(path)
        h.update(f"{path}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    return h.digest()


def _entry(where: str, path: str, text: str) -> str:
    key = hashlib.sha256(_code_version() + os.path.abspath(path).encode() + b"\0" + text.encode()).hexdigest()
    return os.path.join(where, key + ".tree")


def get(path: str, text: str):
    """The tree parsed from `text` at `path` before, or None."""
    where = folder()
    if where is None:
        return None
    entry = _entry(where, path, text)
    try:
        with open(entry, "rb") as f:
            tree = pickle.load(f)
    except Exception:           # absent, cut short or from another playtest: parse again
        return None
    from .syntax import RuleFile
    if not (isinstance(tree, RuleFile) and tree.source == text and tree.path == path):
        return None
    try:
        os.utime(entry)         # used now: pruned last
    except OSError:
        pass
    return tree


def put(path: str, text: str, tree) -> None:
    """Keep `tree`, written whole or not at all; a folder that takes no file is left alone."""
    where = folder()
    if where is None:
        return
    try:
        fd, temporary = tempfile.mkstemp(dir=where, suffix=".part")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(tree, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(temporary, _entry(where, path, text))
        except BaseException:
            os.unlink(temporary)
            raise
    except (OSError, pickle.PicklingError, RecursionError):
        return
    _prune(where)


def _prune(where: str, now: Optional[float] = None) -> None:
    """Entries unused for MAX_AGE_DAYS removed, then the least recently used until the rest
    take MAX_MEGABYTES at most (the newest is kept whatever its size). Another command pruning
    at the same time, or a file that will not go, is no error: the next entry prunes again."""
    now = time.time() if now is None else now
    entries = []
    try:
        names = os.listdir(where)
    except OSError:
        return
    for name in names:
        full = os.path.join(where, name)
        try:
            st = os.stat(full)
        except OSError:
            continue
        if name.endswith(".part"):
            if now - st.st_mtime > _PART_SECONDS:
                _remove(full)
        elif name.endswith(".tree"):
            if now - st.st_mtime > MAX_AGE_DAYS * 86400:
                _remove(full)
            else:
                entries.append((st.st_mtime, st.st_size, full))
    entries.sort(reverse=True)                  # the most recently used first
    kept = 0
    for i, (_, size, full) in enumerate(entries):
        kept += size
        if i and kept > MAX_MEGABYTES * 1024 * 1024:
            _remove(full)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
