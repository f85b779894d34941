"""`make demo`: a newcomer's first minute with playtest.

Checks every game and variant, plays a short random simulation of each game, and says where
to look next. One process, so the whole tour takes seconds; the long runs (every player count,
thousands of games) are `make simulate-all`, `make reports` and `make findings`.
"""
from __future__ import annotations

import glob
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dsl.analyses.simulate import simulate  # noqa: E402
from dsl.engine import Game, RuleError  # noqa: E402
from dsl.language.syntax import text_of  # noqa: E402
from dsl.language.diagnostics import RuleFileError  # noqa: E402
from dsl.loader import load  # noqa: E402
from dsl.cli.new import program  # noqa: E402

# A short run per game: enough to see the shape of it, small enough for the first minute.
GAMES_PER_RUN = {"populus": 30}
DEFAULT_GAMES = 200

# The commands the tour suggests, printed with the program as this shell finds it (`program()`:
# .venv/bin/playtest until the virtual environment is activated); tests/test_cli.py runs each.
NEXT = (("playtest simulate games/bluff.rules --players 4 -n 2000", "balance with intervals"),
        ("playtest fuzz games/bluff.rules --players 4", "hunt for dead ends"),
        ("playtest book games/bluff.rules --lang ja -o bluff.pdf", "print the rulebook"),
        ("playtest --help", "every command"))


def next_command(command: str, run: str) -> str:
    """A suggested command as the user can type it here."""
    return run + command[len("playtest"):]


def _check(path: str) -> tuple[str, int, int]:
    try:
        _, diags = load(path)
    except RuleFileError as e:
        return "errors", len(e.diagnostics), 0
    warnings = [d for d in diags if d.severity == "warning"]
    questions = [d for d in warnings if "open question" in d.message]
    return "ok", len(warnings) - len(questions), len(questions)


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def main() -> int:
    start = time.monotonic()
    files = sorted(glob.glob("games/*.rules")) + sorted(glob.glob("variants/*.rules"))
    print(f"1. check: {len(files)} rule files (the six games and their variants)")
    failed = 0
    for path in files:
        status, warnings, questions = _check(path)
        failed += status != "ok"
        note = f"{_n(warnings, 'warning')}, {_n(questions, 'open question')}" if status == "ok" \
            else _n(warnings, "error")
        print(f"   {status:6} {path:46} {note}")
    print()
    print("2. simulate: random play, a few hundred games each (seed 1)")
    print(f"   {'game':34} {'players':>7} {'games':>6} {'decisions':>9}  wins by seat (or team)      dead ends")
    for path in sorted(glob.glob("games/*.rules")):
        rules, _ = load(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        lo, hi = rules.game.min_players, rules.game.max_players
        players = min(max(lo, 3), hi)
        n = GAMES_PER_RUN.get(stem, DEFAULT_GAMES)
        try:
            s = simulate(Game(rules, players), n, 1).to_json()
        except RuleError as e:
            print(f"   {stem:34} {players:>7}  cannot be played: {e}")
            failed += 1
            continue
        title = text_of(rules.game.texts, "title", "en") or stem
        if "wins_by_team" in s:     # a team game: the teams win, not the seats
            wins = " ".join(f"T{k} {100 * v / n:3.0f}%" for k, v in s["wins_by_team"].items())
        else:
            wins = " ".join(f"{100 * r:4.0f}%" for r in s["win_rate_by_seat"].values())
        dead = s["dead_end_games"]
        print(f"   {title[:34]:34} {players:>7} {n:>6} {s['mean_turns']:>9.1f}  {wins:27} {dead}")
    print()
    run = program()
    print("3. where to look next")
    print("   generated/index.html              rulebooks, one-page sheets and card sheets (ja/en, HTML and PDF)")
    print("   generated/reports/                balance reports; generated/findings/ the dead ends fuzz found")
    print(f"   docs/tutorial.md                  your own game, step by step, from `{run} new my-game`")
    print()
    width = max(len(next_command(c, run)) for c, _ in NEXT)
    for command, what in NEXT:
        print(f"   {next_command(command, run):{width}}  {what}")
    if run != "playtest":
        print(f"\n   (to type just `playtest`: source {os.path.dirname(run) or '.'}/activate)")
    print(f"\n   ({time.monotonic() - start:.0f} s; `make simulate-all` plays every player count)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
