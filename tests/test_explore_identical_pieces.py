"""explore counts positions, not piece identities: identical pieces are interchangeable."""
from __future__ import annotations

import sys
from pathlib import Path

from dsl.analyses.explore import explore
from dsl.engine import Game
from dsl.loader import load

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import connect_four_count  # noqa: E402


def _explore(name: str):
    rules, _ = load(str(ROOT / "tests" / "fixtures" / name))
    return explore(Game(rules, 2))


def test_two_identical_stones_make_four_boards_not_five():
    # empty; a stone in cell 1 or in cell 2; both cells full (one end), whichever stone went where
    r = _explore("identical_stones.rules")
    assert (r.states, r.decision_states, r.chance_states, r.terminal_states) == (4, 3, 0, 1)


def test_connect_four_with_a_board_and_tokens_matches_a_brute_force_count():
    positions, won, full = connect_four_count.count(4, 3)
    assert (positions, won, full) == (12_031, 204, 792)         # the brute force, by itself
    r = _explore("connect-four-4x3.rules")
    assert r.states == positions
    assert r.terminal_states == won + full


def test_a_board_takes_its_size_from_parameters():
    text = (ROOT / "tests" / "fixtures" / "connect-four-4x3.rules").read_text(encoding="utf-8")
    text = text.replace("board grid\n  grid 4 by 3\n", "parameter wide = 4\nparameter high = 3\n\nboard grid\n  grid wide by high\n")
    path = ROOT / "tests" / "fixtures" / "_sized.rules"
    try:
        path.write_text(text, encoding="utf-8")
        rules, _ = load(str(path))
        game = Game(rules, 2)
        assert game.board_sizes["grid"] == (4, 3)
        assert len([z for z in game.zone_names if z.startswith("grid(")]) == 12
        assert explore(game).states == 12_031
    finally:
        path.unlink()
