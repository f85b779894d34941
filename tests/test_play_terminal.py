"""`playtest play` through a real pseudo-terminal (pexpect): whole games of Bluff and of
tic-tac-toe against a random bot, in English and Japanese; the game ends, the result is
printed, and the saved replay tells the same game with `playtest replay`. Also a plain pipe,
hot-seat for two people, quitting and resuming."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pexpect
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROMPT = {"en": r"Your choice \(1(?:-(\d+))?, u undo", "ja": r"番号を選んでください \(1(?:〜(\d+))?、u"}
RESULT = {"en": r"Result: ([^\r\n\x1b]*)", "ja": r"結果: ([^\r\n\x1b]*)"}
HELD = {"en": r"Press Enter to continue \(q to stop\)", "ja": r"Enter で続ける"}
QUESTIONS = {"en": r"answer a few questions about the game\?", "ja": r"質問に答えますか"}
# a generous bound for a slow shared machine; the test asserts what is shown, never how fast
WAIT = 120


def cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "dsl.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          encoding="utf-8", **kw)


def spawn(*args):
    return pexpect.spawn(sys.executable, ["-m", "dsl.cli", *args], cwd=ROOT, encoding="utf-8",
                         timeout=WAIT, dimensions=(50, 120), env={**os.environ, "TERM": "xterm-256color"})


def play_through(child, lang, pick) -> tuple:
    """Answers every prompt with pick(number of options); (decisions taken, result line)."""
    taken = 0
    while True:
        i = child.expect([PROMPT[lang], RESULT[lang], HELD[lang]])
        if i == 2:                              # a held moment: looked at, and on
            child.sendline("")
            continue
        if i == 1:
            result = child.match.group(1)
            child.expect(QUESTIONS[lang])       # after the end, the questionnaire: skipped
            child.sendline("")
            return taken, result
        n = int(child.match.group(1) or 1)
        child.sendline(str(pick(n)))
        taken += 1
        assert taken < 500


def plain(text: str) -> str:
    """The screen's text without its colours and cursor moves."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def replayed_to_the_same_state(path):
    saved = json.loads(open(path, encoding="utf-8").read())
    out = cli("replay", path)
    assert out.returncode == 0, out.stderr
    assert "(the replay stops before the game ends)" not in out.stdout
    assert out.stdout.strip().splitlines()[-1] == f"state {saved['final_state']}"
    return saved


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_game_of_bluff_against_a_random_bot(tmp_path, lang):
    path = str(tmp_path / "bluff.json")
    child = spawn("play", "games/bluff.rules", "-p", "2", "--seed", "5", "--lang", lang, "--save", path)
    # raise while the bid is low, then call bluff (the last option) to end rounds quickly
    taken, result = play_through(child, lang, lambda n: n if n < 10 else 1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert taken >= 1
    saved = replayed_to_the_same_state(path)
    assert saved["seats"] == ["human", "random"] and saved["seed"] == 5
    winner = re.search(r"P[12]", result).group(0)
    assert result == (f"{winner}の勝ち" if lang == "ja" else f"{winner} wins")
    decisions = [a for a in saved["actions"] if a[0] == 0]
    assert len(decisions) == taken


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_whole_game_of_tictactoe_against_a_random_bot(tmp_path, lang):
    path = str(tmp_path / "ttt.json")
    child = spawn("play", "games/tictactoe.rules", "--seed", "2", "--lang", lang, "--save", path)
    child.expect("Tic-tac-toe" if lang == "en" else "三目並べ")
    taken, result = play_through(child, lang, lambda n: 1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = replayed_to_the_same_state(path)
    assert 3 <= taken <= 5 and len([a for a in saved["actions"] if a[0] == 0]) == taken
    assert re.fullmatch(r"P[12] wins|a draw: nobody wins" if lang == "en" else r"P[12]の勝ち|引き分け\(勝者なし\)", result)


def test_quit_keeps_the_game_and_resume_goes_on_from_it(tmp_path):
    path = str(tmp_path / "q.json")
    child = spawn("play", "games/tictactoe.rules", "--seed", "2", "--save", path)
    child.expect(PROMPT["en"])
    child.sendline("1")
    child.expect(PROMPT["en"])
    child.sendline("q")
    child.expect("Continue with: playtest play --resume " + re.escape(path))
    child.expect(pexpect.EOF)
    first = json.loads(open(path, encoding="utf-8").read())
    assert len(first["actions"]) == 2
    child = spawn("play", "--resume", path)
    child.expect(r"P1.*\r?\n.*P2", timeout=WAIT)     # the board shows both marks already laid
    taken, _ = play_through(child, "en", lambda n: 1)
    child.expect(pexpect.EOF)
    saved = replayed_to_the_same_state(path)
    assert saved["actions"][:2] == first["actions"] and taken >= 2
    assert len([a for a in saved["actions"] if a[0] == 0]) == 1 + taken


def test_a_plain_pipe_plays_undo_and_help_and_bad_input_are_answered(tmp_path):
    path = str(tmp_path / "p.json")
    out = subprocess.run([sys.executable, "-m", "dsl.cli", "play", "games/tictactoe.rules", "--seed", "2",
                          "--save", path], cwd=ROOT, capture_output=True,
                         text=True, input="?\nzz\n0\nu\n1\nu\n" + "1\n" * 8, encoding="utf-8")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "a number: take that option" in text
    assert "type a number from 1 to 9" in text and "choose an option from 1 to 9" in text
    assert "there is no decision of a person to undo" in text
    assert "Result: " in text
    saved = replayed_to_the_same_state(path)
    assert len(saved["undone"]) == 1 and saved["undone"][0]["at"] == 0 and len(saved["undone"][0]["actions"]) == 2


def test_two_people_at_one_keyboard_never_see_each_others_hand(tmp_path):
    path = str(tmp_path / "d.json")
    answers = ("\n1\n" * 4) + "q\n"
    out = subprocess.run([sys.executable, "-m", "dsl.cli", "play", "games/democracy.rules", "--seats",
                          "human,human,random", "--seed", "3", "--save", path], cwd=ROOT, capture_output=True,
                         text=True, input=answers, encoding="utf-8")
    assert out.returncode == 0, out.stderr
    screens = out.stdout.split("hand over to ")[1:]
    assert [s[:2] for s in screens[:4]] == ["P1", "P2", "P1", "P2"]
    for s in screens[:4]:
        me = s[:2]
        other = "P2" if me == "P1" else "P1"
        own = re.search(r"your hand \(\d+\): (.*)", s).group(1)
        theirs = re.search(other + r"'s hand \(\d+\): (.*)", s).group(1)
        assert re.fullmatch(r"(\S{2,3} )+", own) and "▮" not in own
        assert set(theirs.strip()) == {"▮"}
    # P1's face-down card is hidden on P2's screen, and shown to both once all have chosen
    assert "P1 chose (face down)" in screens[1]
    assert re.search(r"P1: chooses card \S+ \(face down\)", screens[2])


def test_in_a_terminal_the_screen_is_cleared_before_the_next_person_takes_the_keyboard(tmp_path):
    child = spawn("play", "games/democracy.rules", "--seats", "human,human,random", "--seed", "3",
                  "--save", str(tmp_path / "h.json"))
    child.expect("hand over to P1")
    child.sendline("")
    child.expect(PROMPT["en"])
    shown = plain(child.before)
    assert "your hand (6): " in shown and "P2's hand (6): ▮▮▮▮▮▮" in shown
    child.sendline("1")
    child.expect("hand over to P2")
    assert "\x1b[2J" in child.before          # the whole screen cleared, P1's hand with it
    child.sendline("")
    child.expect(PROMPT["en"])
    assert "P1's hand (6): ▮▮▮▮▮▮" in plain(child.before) and "P1 chose (face down)" in plain(child.before)
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_bad_seats_and_a_missing_game_are_clear_errors(tmp_path):
    out = cli("play", "games/bluff.rules", "--seats", "human,clever", "--save", str(tmp_path / "x.json"))
    assert out.returncode == 2 and "unknown agent 'clever'" in out.stderr and "Traceback" not in out.stderr
    out = cli("play", "games/bluff.rules", "-p", "3", "--seats", "human,random", "--save", str(tmp_path / "x.json"))
    assert out.returncode == 2 and "names 2 seats for 3 players" in out.stderr
    taken = tmp_path / "taken.json"
    taken.write_text("{}", encoding="utf-8")
    out = cli("play", "games/bluff.rules", "-p", "2", "--save", str(taken))
    assert out.returncode == 2 and "the file is there already" in out.stderr and taken.read_text() == "{}"
    out = cli("play")
    assert out.returncode == 2 and "name the game's rule file" in out.stderr
    out = cli("play", "--resume", str(tmp_path / "none.json"))
    assert out.returncode == 1 and "no such replay file" in out.stderr


def test_a_number_too_long_or_a_digit_int_cannot_read_is_refused_and_asked_again(tmp_path):
    """4,301 digits is past what Python reads as a number; '²' is a digit that is no number:
    both are answered like any other bad answer, and the game goes on."""
    path = str(tmp_path / "p.json")
    out = subprocess.run([sys.executable, "-m", "dsl.cli", "play", "games/tictactoe.rules", "--seed", "2",
                          "--save", path], cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                         input="9" * 4301 + "\n" + "0" * 5000 + "1\n" + "²\n" + "1\n" * 9)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    # the long number refused once, 00…01 taken as 1, ² refused once
    assert out.stdout.count("choose an option from 1 to 9") == 1 and out.stdout.count("type a number from 1 to ") == 1
    assert "Result: " in out.stdout


def test_the_terminal_holds_a_reveal_until_each_person_presses_enter():
    """After a call of bluff the terminal shows what just happened (the dice revealed) and waits
    for Enter from each person before the dice are rolled again."""
    import io

    from rich.console import Console

    from dsl.loader import load
    from dsl.table import Table
    from dsl.table.terminal import Terminal

    table = Table(load(os.path.join(ROOT, "games", "bluff.rules"))[0], 2, ["human", "human"], 5)
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    held = []

    asked = []

    def read():
        asked.append(1)
        if len(asked) > 300:        # a terminal that never stops at a moment: give up, keeping the game
            return "q"
        screen = out.getvalue()
        if screen.rstrip().endswith("Press Enter to continue (q to stop):"):
            # the game waits: nothing has been rolled since the reveal
            held.append((table.moment is not None, len(table.actions), screen.rsplit("What just happened", 1)[1]))
            return "" if len(held) < 4 else "q"
        if screen.rstrip().endswith("(q to stop)."):
            return ""
        numbers = re.findall(r"(\d+)\. Call bluff", screen.rsplit("Your choice", 1)[0].rsplit("Raise or call", 1)[-1])
        return numbers[-1] if numbers else "1"

    Terminal(table, "en", console=console, read=read).run()
    assert len(held) >= 2 and all(h[0] for h in held)
    first, second = held[0], held[1]
    assert "revealed dice under your cup" in first[2] and "revealed dice under P" in first[2]
    assert second[1] == first[1]        # the second person still looked: nothing was played meanwhile


def test_without_a_seed_play_draws_chance_from_256_bits_of_seed_material_and_replays_exactly(tmp_path):
    path = str(tmp_path / "fresh.json")
    child = spawn("play", "games/bluff.rules", "-v", "variants/bluff-exact-published.rules", "-p", "2",
                  "--save", path)
    taken, _ = play_through(child, "en", lambda n: n if n < 10 else 1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and taken >= 1
    saved = replayed_to_the_same_state(path)
    # the seed material, not a whole number a seat could search: 32 bytes, kept in the save only
    assert re.fullmatch(r"[0-9a-f]{64}", saved["chance"]) and saved["seed"] == 0
    from dsl.table import Table
    again = Table.resume(path)
    assert again.material == bytes.fromhex(saved["chance"]) and again.state.digest() == saved["final_state"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_tie_no_rule_breaks_is_ruled_at_the_terminal_and_the_replay_ends_the_same(tmp_path, lang):
    """Three people: P1 and P3 take 2 points, P2 takes 1; the ranking ties and the person at the
    keyboard is offered the outcomes, numbered; a number out of range is asked again."""
    path = str(tmp_path / "tie.json")
    out = subprocess.run([sys.executable, "-m", "dsl.cli", "play", "tests/fixtures/tied_ending.rules", "--players", "3",
                          "--seats", "human,human,human", "--seed", "5", "--lang", lang, "--save", path],
                         cwd=ROOT, capture_output=True, text=True, encoding="utf-8",
                         input="\n2\n\n1\n\n2\n9\n2\n\n\n\n")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    if lang == "en":
        for line in ["Not yet decided: “What if the top scores tie?”", "  1. P1 wins", "  2. P3 wins",
                     "  3. P1 and P3 share the win", "  4. Nobody wins", "  5. End the game here",
                     "Result: P3 wins"]:
            assert line in text.splitlines(), line
        # the prompt stays on its line: what answers it follows there
        assert "Your ruling (1-5, q stop): type a number from 1 to 5" in text and "→ P3 wins" in text
    else:
        for line in ["未決の問題「最多点が同点のとき」", "  2. P3の勝ち", "  3. P1・P3が勝ちを分け合う", "結果: P3の勝ち"]:
            assert line in text.splitlines(), line
        assert "裁定を選んでください (1〜5、q 中断): 1〜5 の番号を入力してください" in text
    saved = replayed_to_the_same_state(path)
    assert [(r["step"], r["chosen"], r["outcome"]) for r in saved["rulings"]] == [(3, "win_p3", [2])]
