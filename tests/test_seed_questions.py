"""Readings of the seeds that the rule files once made without saying so are open questions
with a provisional answer: `check` lists each, and says play uses the `assume` block, so the
designer sees every rule the file adds to the seed."""
from __future__ import annotations

import pytest

from _util import GAMES, playtest

READINGS = [
    ("bluff", "play_direction"),        # `seating clockwise`: the seed says only 「次の手番」
    ("bluff", "bid_range"),             # faces 1-5, counts up to the dice in play
    ("byzantine", "trumps_ranked"),     # how several trumps rank: by the governor's rule
    ("byzantine", "parent_stakes"),     # the parent always proposes a card, never stakes
    ("byzantine", "one_round"),         # a game is one round of the 7 cards
    ("democracy", "tied_vote_card"),    # 「残りのカード」 takes the face-up vote too
    ("populus", "almighty_count"),      # one almighty card per player below 5 players
    ("populus", "optional_placement"),  # 「配置することができます」: a worker may stay home
    ("populus", "vandal_after_tie"),    # a vandal goes back when tied players all lose
    ("populus", "food_short"),          # short of food, a worker cannot go on unsuitable terrain
    ("dream-duels", "padding_cells"),   # パディング as a ring of cells a team can enter
    ("dream-duels", "charged_token"),   # the token spent on a card charge goes to the box
    ("dream-duels", "token_optional"),  # 「入手できる」: a team may leave the token
    ("dream-duels", "joker_landing"),   # a joker's team picks its square after the reveal, in team order
    ("dream-duels", "revival_order"),   # teams on one space take its life tokens in team number order
]


@pytest.mark.parametrize("game, question", READINGS, ids=lambda x: x)
def test_check_lists_the_reading_with_its_provisional_answer(game, question):
    r = playtest("check", GAMES / f"{game}.rules")
    assert r.exit_code == 0, r.output
    warning = f"warning: open question '{question}'"
    assert warning in r.output, f"{game}: {question} is not reported"
    after = r.output[r.output.index(warning):]
    assert f"play uses the provisional answer marked 'assume {question}'" in after.split("warning:")[1]


# Readings whose provisional answer is a declaration (a deck's table), which no `assume` can wrap:
# `check` still lists each, saying no rule carries it.
DECLARED = [
    ("populus", "tile_numbers"),        # the 15 tiles are the 15 pairs 1-1 to 5-5, one each
]


@pytest.mark.parametrize("game, question", DECLARED, ids=lambda x: x)
def test_check_lists_the_reading_a_declaration_answers(game, question):
    r = playtest("check", GAMES / f"{game}.rules")
    assert r.exit_code == 0, r.output
    assert f"warning: open question '{question}':" in r.output, f"{game}: {question} is not reported"
    assert f"warning: open question '{question}' is not attached to any rule" in r.output
