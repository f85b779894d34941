"""Parsed rule files kept on disk only where PLAYTEST_CACHE names a folder of the user's own:
a file read again is not parsed again, its tree is the one parsing gives, and a changed file,
a folder others may write to or a damaged entry fall back on parsing."""
from __future__ import annotations

import os
import shutil
import time

import pytest

from dsl.language import parser, tree_cache
from dsl.loader import load

from _util import GAMES


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(tree_cache.VARIABLE, str(folder))
    return folder


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "dream-duels.rules"
    shutil.copy(GAMES / "dream-duels.rules", path)
    return str(path)


def _no_parsing(monkeypatch):
    def refused(*args):
        raise AssertionError("parsed again")
    monkeypatch.setattr(parser, "_parse", refused)


def test_a_file_read_again_is_not_parsed_again_and_is_the_same_tree(cache, game, monkeypatch):
    parsed = parser.parse_file(game)
    assert len(os.listdir(cache)) == 1 and oct(os.stat(cache).st_mode & 0o777) == "0o700"
    _no_parsing(monkeypatch)
    again = parser.parse_file(game)
    assert again == parsed and again is not parsed
    rules, diagnostics = load(game)          # the checker finds the same in the kept tree
    monkeypatch.undo()
    assert [d.message for d in diagnostics] == [d.message for d in load(game)[1]]


def test_without_the_variable_nothing_is_kept(tmp_path, game, monkeypatch):
    monkeypatch.delenv(tree_cache.VARIABLE, raising=False)
    parser.parse_file(game)
    assert list(tmp_path.iterdir()) == [tmp_path / "dream-duels.rules"]


def test_a_changed_file_is_parsed_again(cache, game):
    parser.parse_file(game)
    with open(game, "a", encoding="utf-8") as f:
        f.write("\n# one more line\n")
    assert parser.parse_file(game).source.endswith("# one more line\n")
    assert len(os.listdir(cache)) == 2


def test_a_folder_others_may_write_to_is_not_used(cache, game, monkeypatch):
    os.makedirs(cache)
    os.chmod(cache, 0o777)
    parser.parse_file(game)
    assert os.listdir(cache) == []


def test_a_damaged_entry_is_parsed_again(cache, game):
    parsed = parser.parse_file(game)
    (entry,) = os.listdir(cache)
    with open(os.path.join(cache, entry), "wb") as f:
        f.write(b"\x80\x05not a tree")
    assert parser.parse_file(game) == parsed



def _edit(tmp_path, i: int) -> tuple:
    """Edit i of one small game (each a new text, so a new entry): its path and text."""
    path = tmp_path / "tictactoe.rules"
    text = (GAMES / "tictactoe.rules").read_text(encoding="utf-8") + f"\n# edit {i}\n"
    path.write_text(text, encoding="utf-8")
    return str(path), text


def _checked(tmp_path, i: int) -> str:
    """Edit i parsed (kept or read back); its entry's file."""
    path, text = _edit(tmp_path, i)
    parser.parse_file(path)
    return os.path.basename(tree_cache._entry(os.environ[tree_cache.VARIABLE], path, text))


def _trees(cache) -> set:
    return {name for name in os.listdir(cache) if name.endswith(".tree")}


def _aged(cache, name: str, seconds: float) -> None:
    full = os.path.join(cache, name)
    os.utime(full, (time.time() - seconds,) * 2)


def test_entries_unused_for_a_month_are_removed_as_a_new_one_is_kept(cache, tmp_path):
    entries = [_checked(tmp_path, i) for i in range(3)]
    assert _trees(cache) == set(entries)
    month = tree_cache.MAX_AGE_DAYS * 86400
    _aged(cache, entries[0], month + 60)
    _aged(cache, entries[1], month + 60)
    _aged(cache, entries[2], month - 3600)          # used within the month: kept
    (cache / "left.part").write_bytes(b"x")         # a write that died long ago
    _aged(cache, "left.part", 2 * 3600)
    newest = _checked(tmp_path, 3)
    assert set(os.listdir(cache)) == {entries[2], newest}


def test_the_folder_keeps_to_its_size_the_least_recently_used_going_first(cache, tmp_path, monkeypatch):
    entries = [_checked(tmp_path, i) for i in range(3)]
    size = max(os.path.getsize(cache / name) for name in entries)
    monkeypatch.setattr(tree_cache, "MAX_MEGABYTES", 3.5 * size / 1024 / 1024)     # room for three entries
    for age, name in zip((300, 200, 100), entries):
        _aged(cache, name, age)
    assert _checked(tmp_path, 0) == entries[0]      # read back: used now, no longer the oldest
    newest = _checked(tmp_path, 3)
    assert _trees(cache) == {entries[0], entries[2], newest}       # edit 1, the least recently used, went
    assert sum(os.path.getsize(cache / name) for name in _trees(cache)) <= 3.5 * size
    for i in range(4, 10):
        _checked(tmp_path, i)
        assert len(_trees(cache)) == 3
