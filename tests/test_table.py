"""The Table: nothing lost (the replay after every action, resume, undo recorded), clear
refusals that change nothing, determinism from the seed, options in words."""
from __future__ import annotations

import json
import os
import random

import pytest
from click.testing import CliRunner

from dsl.analyses import replay as replay_mod
from dsl.cli import main
from dsl.engine import Game
from dsl.loader import load
from dsl.table import Refused, Table


def rules(name):
    return load(os.path.join("games", f"{name}.rules"))[0]


def play_some(table, k, rng, after=None) -> int:
    """Up to k decisions of people, drawn with rng; how many were taken."""
    for i in range(k):
        if table.ended():
            return i
        seat = table.humans_to_act()[0]
        table.act(seat, rng.randrange(len(table.options(seat))) + 1)
        if after:
            after()
    return k


@pytest.mark.parametrize("game,players,seats", [("bluff", 2, ["human", "random"]),
                                                ("democracy", 3, ["human", "human", "random"]),
                                                ("tictactoe", 2, ["human", "random"])])
def test_the_replay_is_valid_after_every_action_and_resumes_to_the_same_state(tmp_path, game, players, seats):
    path = str(tmp_path / "game.json")
    table = Table(rules(game), players, seats, 42, path)
    table.advance()
    written = []

    def check():
        rep = replay_mod.load(path)
        data = json.loads(open(path, encoding="utf-8").read())
        assert data["seats"] == seats and rep.actions == table.actions
        s = replay_mod.run(Game(rules(game), players), rep.actions, log=False)
        assert s.digest() == rep.final_state == table.state.digest()
        written.append(len(rep.actions))
    check()
    taken = play_some(table, 6, random.Random(3), check)
    assert taken >= 2 and len(written) == taken + 1 and written == sorted(written) and written[-1] > written[0]
    mid = table.state.digest()
    resumed = Table.resume(path)
    assert resumed.state.digest() == mid and resumed.seats == seats and resumed.actions == table.actions
    assert resumed.view(0, "en") == {**table.view(0, "en"), "version": resumed.version}
    # both finish the same game from there with the same choices
    for t in (table, resumed):
        play_some(t, 10_000, random.Random(9))
        assert t.ended()
    assert resumed.state.digest() == table.state.digest()
    assert replay_mod.load(path).final_state == resumed.state.digest()


def test_the_same_seed_and_choices_give_the_same_game():
    a = Table(rules("bluff"), 3, ["human", "random", "ismcts:20"], 5)
    b = Table(rules("bluff"), 3, ["human", "random", "ismcts:20"], 5)
    for t in (a, b):
        t.advance()
        play_some(t, 10_000, random.Random(1))
    assert a.actions == b.actions and a.state.digest() == b.state.digest() and a.ended()
    c = Table(rules("bluff"), 3, ["human", "random", "ismcts:20"], 6)
    c.advance()
    assert c.actions != a.actions[:len(c.actions)]


def test_undo_goes_back_to_the_last_decision_of_a_person_and_is_recorded(tmp_path):
    path = str(tmp_path / "u.json")
    table = Table(rules("tictactoe"), 2, ["human", "random"], 8, path)
    table.advance()
    table.act(0, 5)
    before = list(table.actions)
    assert len(before) == 2 and before[0] == [0, ["choose", table.game.zone_names.index("grid(2,2)")]]
    version = table.version
    table.undo()
    assert table.actions == [] and table.version > version
    assert [o["text"] for o in table.options(0, "en")][4] == "Claim a square: row 2, column 2"
    data = json.loads(open(path, encoding="utf-8").read())
    assert data["undone"] == [{"at": 0, "actions": before}] and data["actions"] == []
    assert Table.resume(path).undone == data["undone"]
    with pytest.raises(Refused, match="no decision of a person"):
        table.undo()


def test_refusals_change_nothing(tmp_path):
    path = str(tmp_path / "r.json")
    table = Table(rules("tictactoe"), 2, ["human", "human"], 1, path)
    table.advance()
    saved = open(path, encoding="utf-8").read()
    digest, version = table.state.digest(), table.version
    for seat, index, why in [(1, 1, "not P2's decision"), (0, 0, "from 1 to 9"), (0, 10, "from 1 to 9"),
                             (5, 1, "no seat 5"), (0, "1", "from 1 to 9"), (0, True, "from 1 to 9")]:
        with pytest.raises(Refused, match=why):
            table.act(seat, index)
    assert table.state.digest() == digest and table.version == version and table.actions == []
    assert open(path, encoding="utf-8").read() == saved
    bots = Table(rules("tictactoe"), 2, ["human", "random"], 1)
    with pytest.raises(Refused, match="played by random"):
        bots.act(1, 1)


def test_seats_must_be_one_per_player_and_known_agents():
    with pytest.raises(ValueError, match="3 seats for 2 players"):
        Table(rules("bluff"), 2, ["human", "random", "random"], 1)
    with pytest.raises(ValueError, match="unknown agent 'clever'"):
        Table(rules("bluff"), 2, ["human", "clever"], 1)


def test_options_read_in_words_in_both_languages():
    table = Table(rules("bluff"), 2, ["random", "human"], 3)
    table.advance()
    en = [o["text"] for o in table.options(1, "en")]
    ja = [o["text"] for o in table.options(1, "ja")]
    assert "Call bluff" in en and "ブラフ!" in ja
    raise_en = [t for t in en if t.startswith("Raise the bid: face ")]
    assert raise_en and all(", count " in t for t in raise_en)
    assert any(t.startswith("宣言を上げる: 目 ") and "、個数 " in t for t in ja)
    assert not any("(" in t or "#" in t or "'" in t for t in en + ja)


def test_the_result_in_words_and_the_replay_command_reads_the_file(tmp_path):
    path = str(tmp_path / "t.json")
    table = Table(rules("tictactoe"), 2, ["human", "random"], 4, path)
    table.advance()
    play_some(table, 100, random.Random(2))
    assert table.ended()
    winners = [f"P{int(p) + 1}" for p in table.state.outcome]
    assert table.result("en") in ({1: f"{winners[0]} wins"}.get(len(winners)), "a draw: nobody wins")
    out = CliRunner().invoke(main, ["replay", path])
    assert out.exit_code == 0, out.output
    assert out.output.strip().splitlines()[-1] == f"state {table.state.digest()}"


def test_resume_refuses_a_file_that_is_not_a_tables_replay(tmp_path):
    path = tmp_path / "x.json"
    table = Table(rules("tictactoe"), 2, ["human", "random"], 4, str(path))
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["seats"]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(replay_mod.ReplayError, match="'seats' must list who sits"):
        Table.resume(str(path))
    data["seats"] = ["human", "random"]
    data["actions"] = [[0, ["choose", 999]]]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(replay_mod.ReplayError, match="action 1"):
        Table.resume(str(path))
    assert table.ended() is False


@pytest.mark.parametrize("game", ["bluff", "byzantine", "democracy", "dream-duels", "populus", "tictactoe"])
def test_a_whole_game_with_bots_replays_and_resumes_to_the_state_it_ended_in(tmp_path, game):
    r = rules(game)
    n = min(3, r.game.max_players) if r.game.min_players <= 3 else r.game.min_players
    table = Table(r, n, ["human"] + ["random"] * (n - 1), 3)
    table.advance()
    play_some(table, 10_000, random.Random(1))
    assert table.ended()
    # a dead end a bot meets is met again where the replay is run (the bot is asked when it is first)
    again = replay_mod.run(Game(r, n), table.actions, log=False)
    assert again.digest() == table.state.digest() and again.is_terminal()
    path = tmp_path / "end.json"
    path.write_text(json.dumps(table.to_json()), encoding="utf-8")
    assert Table.resume(str(path)).state.digest() == table.state.digest()


def test_a_whole_number_seed_plays_the_game_it_always_played():
    """Seed material beside whole-number seeds changed nothing for those: three bots from seed 7
    play the very actions they played before the material existed (the digest was taken then)."""
    import hashlib
    t = Table(rules("bluff"), 3, ["random", "random", "random"], 7)
    t.advance()
    assert hashlib.sha256(json.dumps(t.actions).encode()).hexdigest() \
        == "c0ecbb9bac707633f25054a0f88886574bc47608f05f6acd00a867effcc6fca1"


def test_seed_material_is_at_least_128_bits_kept_in_the_replay_and_resumed(tmp_path):
    with pytest.raises(ValueError, match="16 bytes or more"):
        Table(rules("bluff"), 2, ["human", "random"], b"15 bytes only..")
    material = os.urandom(32)
    path = str(tmp_path / "g.json")
    t = Table(rules("bluff"), 2, ["human", "random"], material, path)
    t.advance()
    play_some(t, 3, random.Random(1))
    data = json.loads(open(path, encoding="utf-8").read())
    assert data["chance"] == material.hex() and data["seed"] == 0
    again = Table.resume(path)
    assert again.material == material and again.actions == t.actions
    # the same material and choices: the same dice; other material: other dice
    twin = Table(rules("bluff"), 2, ["human", "random"], material)
    twin.advance()
    other = Table(rules("bluff"), 2, ["human", "random"], os.urandom(32))
    other.advance()
    assert twin.actions == t.actions[:len(twin.actions)] and other.actions != twin.actions
    data["chance"] = "abcd"
    open(path, "w", encoding="utf-8").write(json.dumps(data))
    with pytest.raises(replay_mod.ReplayError, match="'chance' must be the seed material"):
        Table.resume(path)
