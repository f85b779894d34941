"""`game NAME`: the game's name, player counts, seating, teams and step bound.

May import: the syntax base classes and the leaf helpers of the language, engine and printing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..language import syntax as S
from ..language.building import span
from ..language.syntax import Decl, Expr
from ..language.limits import MAX_PLAYERS
from .registry import Absent, register


@dataclass(frozen=True)
class Game(Decl):
    keyword = "game"
    min_players: int
    max_players: int
    seating: str
    team_size: int
    max_steps: Optional[Expr]


# ---------------------------------------------------------------- grammar
def _game(meta, c):
    name = str(c[0])
    props = {"players": (2, 2), "seating": "clockwise", "teams": 1, "max_steps": None}
    texts = []
    for line in c[1:]:
        if isinstance(line, tuple) and line and isinstance(line[0], S.Text):
            texts.extend(line)
        else:
            props[line[0]] = line[1]
    lo, hi = props["players"]
    return Game(name, tuple(texts), span(meta), lo, hi, props["seating"], props["teams"], props["max_steps"])


def _players_line(meta, c):
    return ("players", (int(c[0]), int(c[1])))


def _seating_line(meta, c):
    return ("seating", c[0])


def _teams_line(meta, c):
    return ("teams", int(c[0]))


def _max_steps_line(meta, c):
    return ("max_steps", c[0])


GRAMMAR = {"game": _game, "players_line": _players_line, "seating_line": _seating_line, "teams_line": _teams_line, "max_steps_line": _max_steps_line}


# ---------------------------------------------------------------- checks
def check(ck, d):
    if d.max_players > MAX_PLAYERS:
        ck.error(d.span, f"a game for up to {d.max_players:,} players is more than playtest can play "
                 f"(at most {MAX_PLAYERS})", "write the player counts the game is for")
    if d.max_steps is not None:
        ck.const(d.max_steps, "max steps")


# ---------------------------------------------------------------- reading
TEAMS_STEP = "teams"        # the setup step that forms teams: a question `about teams` is printed there


def team_step(v, g: Game):
    """Forming teams, the first setup step of a team game, as the engine forms them: by seat."""
    from ..printing.runs import Item, say
    n = g.team_size
    first = "・".join(f"席{k}" for k in range(1, n + 1))
    second = "・".join(f"席{k}" for k in range(n + 1, 2 * n + 1))
    ja = (f"席順に{n}人ずつが1チームになる({first}がチーム1、{second}がチーム2、…)。"
          f"人数が{n}で割り切れないときは、最後のチームは残りの人数になる。")
    en = (f"Players form teams of {n} in seat order (seats {', '.join(str(k) for k in range(1, n + 1))} are "
          f"team 1, seats {', '.join(str(k) for k in range(n + 1, 2 * n + 1))} team 2, …). "
          f"When the players do not divide by {n}, the last team is those left over.")
    # said as a step's own line, so the one-page sheet, which prints that line, says it too
    return Item("step", [("", say(v.lang, "チームを組む", "Form teams"))], texts=[("text", say(v.lang, ja, en))],
                name=TEAMS_STEP, span=g.span)


register(Game, "declaration", grammar=GRAMMAR, check=check, read=Absent("the title page prints the game's own lines"))
