"""Parsed rule files kept on disk only where PLAYTEST_CACHE names a folder of the user's own:
a file read again is not parsed again, its tree is the one parsing gives, and a changed file,
a folder others may write to or a damaged entry fall back on parsing."""
from __future__ import annotations

import os
import shutil

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
