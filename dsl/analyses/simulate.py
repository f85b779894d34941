"""Simulation: many seeded games, summarised as balance figures and design metrics.

Game i of a run with seed S uses its own RNG seeded from (S, i), so any single game can
be replayed from the seed and its index, and runs can be split across workers. Play is
uniformly random unless a list of per-seat agents (objects with `act(state, player, rng)`)
is given; `Restriction` bans options for some seats. May import the engine and `metrics`.
"""
from __future__ import annotations

import random
import weakref
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..engine import CHANCE, Game
from ..engine.program import Chance as _Chance, Choice, CounterScore
from ..engine.state import State
from ..engine.values import Piece
from .batches import Stopped, play_all, played
from .metrics import GameLog, Tally
from .stats import Histogram, mean_interval, wilson


def _added(totals: list, more) -> list:
    """Each seat's running total with another game's (or batch's) pay-offs added."""
    return [a + b for a, b in zip(totals or [0] * len(more), more)]


def game_rng(seed: int, index: int) -> random.Random:
    return random.Random(seed * 1_000_003 + index)


@dataclass
class Played:
    """One finished game: how it ended and every action that led there."""
    index: int
    actions: list                      # [actor, move]; actor -1 is chance
    state: State


def play_random(game: Game, rng: random.Random, index: int = 0, record: bool = True) -> Played:
    """Play one game with uniformly random legal moves (and uniform chance)."""
    return play_loop(game, rng, index, record)


def play_loop(game: Game, rng: random.Random, index: int, record: bool, agents=None, restriction=None,
          watch: Optional[Callable] = None) -> Played:
    """The play loop, or without agents or a restriction the game's generated play-out
    (RandomPlay.play_out), which plays the same game. `watch(state, seat, moves, move)` sees every
    decision before it is applied."""
    # an agent that remembers (agents.infoset.Recall) reads the game's log
    s = game.new_initial_state(log=any(getattr(a, "recalls", False) for a in agents or ()))
    actions = [] if record else None
    if agents is None and restriction is None and game.play_out(s, rng, actions, watch):
        return Played(index, actions or [], s)
    pauses = game.pauses
    while s.outcome is None and s.dead_end is None:
        if type(pauses.get(s.ip)) is _Chance:
            k = game.random_chance(s, rng)
            if record:
                actions.append([CHANCE, k])
            continue
        decision = game.decision(s)
        if decision is None:
            break
        player, moves = decision
        if restriction is not None:
            moves = restriction.filter(game, s, int(player), moves)
        agent = agents[int(player)] if agents else None
        move = rng.choice(moves) if agent is None else agent.act(s, player, rng, moves)
        if watch is not None:
            watch(s, int(player), moves, move)
        if record:
            actions.append([int(player), list(move)])
        game.apply(s, move, player, validate=agent is not None)
    return Played(index, actions or [], s)


def option_key(game: Game, s: State, move) -> str:
    """The option a move takes, named by its rule: 'voting: stake', 'take: choose'."""
    owner = getattr(game.pauses.get(s.ip), "owner", None)
    return f"{owner}: {move[0]}" if owner else str(move[0])


@dataclass(frozen=True)
class Restriction:
    """Options (an option key 'rule: option', a bare option name, or a card's label) that
    the given seats (from 0; empty: every seat) may not take while they have another move.
    It filters the moves a seat chooses from, at random or through its agent."""
    banned: tuple
    seats: tuple = ()

    def allows(self, game: Game, s: State, player: int, move) -> bool:
        if self.seats and player not in self.seats:
            return True
        key = option_key(game, s, move)
        names = {key, str(move[0])}
        names.update(_labels(game.piece_label, (move,)))
        return not names.intersection(self.banned)

    def filter(self, game: Game, s: State, player: int, moves: list) -> list:
        kept = [m for m in moves if self.allows(game, s, player, m)]
        return kept or moves


def play(game: Game, rng: random.Random, index: int = 0, agents: Optional[list] = None,
         score: Optional[Callable] = None, restriction: Optional[Restriction] = None, options: bool = True,
         record: bool = True) -> tuple:
    """Play one game and log what the metrics need: (Played, GameLog). With neither agents nor
    a restriction it plays exactly the game `play_random` plays with the same rng. Without
    `options` each decision is logged as (seat, moves offered) only: what every figure but
    option and card use needs, read at a fraction of the cost. Without `record` the Played
    holds no actions."""
    choices, scores = [], []
    seats = range(game.n)
    readings = _readings.get(game)
    if readings is None:
        readings = _readings[game] = {}
    every_seat = None if score is None else _every_seat(score, seats)

    def seat_and_moves(s, seat, moves, move):
        if every_seat is not None:
            scores.append(every_seat(s))
        choices.append((seat, moves if type(moves) is int else len(moves)))
    seat_and_moves.counts_moves = True

    def watch(s, seat, moves, move):
        if every_seat is not None:
            scores.append(every_seat(s))
        reading = readings.get(s.ip)
        if reading is None:
            reading = readings[s.ip] = _reading(game, s.ip)
        prefix, only, read_cards, keys_of = reading
        if only:
            key, keys = only[0], only
        else:
            names = frozenset({m[0] for m in moves})
            keys = keys_of.get(names)
            if keys is None:
                keys = keys_of[names] = tuple(sorted(prefix + str(o) for o in names))
            key = prefix + str(move[0])
        choices.append((seat, len(moves), key, keys, *read_cards(move, moves)))
    played = play_loop(game, rng, index, record, agents, restriction, watch if options else seat_and_moves)
    s = played.state
    if every_seat is not None:
        scores.append(every_seat(s))
    return played, GameLog(index, _end_of(game, s), tuple(int(p) for p in s.outcome or ()), s.moves, s.rounds,
                           f"{s.dead_end.rule}|{s.dead_end.kind}" if s.dead_end else None, choices, scores)


def _every_seat(score: Callable, seats: range) -> Callable:
    """state -> every seat's score: the score's own `every_seat` where it has one. A score of
    one counter is read from its row, and most decisions change no score: the row unchanged
    gives the tuple made last time."""
    slots = getattr(score, "slots", None)
    if slots is not None and len(slots) == 1:
        slot, last = slots[0], [None, None]

        def one_counter(s):
            row = s.pvars[slot]
            if row != last[0]:
                last[0], last[1] = list(row), score.every_seat(s)
            return last[1]
        return one_counter
    own = getattr(score, "every_seat", None)
    return own if own is not None else (lambda s: tuple([score(s, p) for p in seats]))


# game -> {ip: _reading(game, ip)}, made at the first decision there: the same for every game
# of a run, which reads it before every decision
_readings = weakref.WeakKeyDictionary()


def _reading(game: Game, ip: int) -> tuple:
    """What the metrics read of the choice waiting at `ip`: the prefix of its option keys; for
    a choice of one option, its key as the one key offered (every move there takes it), else
    None; its `_card_reader`; and {the names of the options offered: their keys, sorted}, filled
    as they come."""
    pause = game.pauses.get(ip)
    owner = getattr(pause, "owner", None)
    prefix = f"{owner}: " if owner else ""
    only = (prefix + str(pause.options[0][0]),) if type(pause) is Choice and len(pause.options) == 1 else None
    return prefix, only, _card_reader(game.piece_label, pause), {}


def _card_reader(label: list, pause) -> Callable:
    """(move, moves) -> the labels of the pieces the move names (a card played, a space taken)
    and of those the moves name, once each. Only an option with a parameter taken from a
    collection can name a piece (a number range never does); a pause that is not a choice is
    searched whole."""
    def every_move(move, moves):
        return _labels(label, (move,)), _labels(label, moves)

    if type(pause) is not Choice:
        return every_move
    carded = pause.naming_pieces()
    if not carded:
        return _no_cards
    if carded != {option[0] for option in pause.options}:
        return lambda move, moves: (_labels(label, (move,)) if move[0] in carded else (),
                                    _labels(label, [m for m in moves if m[0] in carded]))
    if any(len(params) != 1 for _, _, params, *_ in pause.options):
        return every_move

    def one_parameter_each(move, moves):
        # a card game's simulation spent a third of its reading in _labels' general loop
        x = move[1]
        return ((label[x],) if type(x) is Piece else (),
                tuple(sorted({label[x] for _, x in moves if type(x) is Piece})))
    return one_parameter_each


def _no_cards(move, moves) -> tuple:
    return (), ()


def _labels(label: list, moves) -> tuple:
    """The labels (`Game.piece_label`) of the pieces the moves name, once each."""
    return tuple(sorted({label[x] for m in moves for x in m[1:] if type(x) is Piece}))


def _end_of(game: Game, s: State) -> str:
    if s.dead_end is not None:
        return "step limit" if s.dead_end.kind == "step limit" else "dead end"
    winners = s.outcome or ()
    if len(winners) == 1 or (winners and _team_of_winners(game, winners) is not None):
        return "won"
    return "shared" if winners else "nobody"


def counter_score(game: Game, expr: str) -> Callable:
    """A score from per-player counters: 'tribe', or a sum 'vp+fp'. Raises ValueError with a hint."""
    from ..language.diagnostics import did_you_mean
    from ..language import syntax as S
    per_player = {c.name for c in game.rules.of(S.Counter) if c.per == "player" and c.per2 is None}
    slots = []
    for name in (x.strip() for x in expr.split("+")):
        if name not in per_player:
            hint = did_you_mean(name, sorted(per_player))
            known = ", ".join(sorted(per_player)) or "none"
            raise ValueError(f"'{name}' is not a counter kept per player (those are: {known})"
                             + (f"; {hint}" if hint else ""))
        slots.append(game.pvar_slots[name])
    return CounterScore(tuple(slots))


def declared_score(game: Game) -> Optional[tuple]:
    """The rule file's own score (`score a + b`): (its name for the reports, (state, player) -> number)."""
    if game.score_of is None:
        return None
    return score_label(game), game.score_of


def score_label(game: Game) -> Optional[str]:
    """How the data names the declared score: the names it adds up, written as --score takes them."""
    from ..language import syntax as S
    declared = game.rules.of(S.Score)
    if not declared:
        return None
    return "+".join(declared[0].parts)


def score_title(game: Game, lang: str = "en") -> Optional[str]:
    """The declared score in the designer's words: its title, else its parts' titles added up."""
    from ..language import syntax as S
    declared = game.rules.of(S.Score)
    if not declared:
        return None
    d = declared[0]
    own = S.text_of(d.texts, "title", lang)
    if own:
        return own
    decls = {x.name: x for x in game.rules.decls}
    return " + ".join(S.text_of(decls[n].texts, "title", lang) or n for n in d.parts)


def scoring(game: Game, option: Optional[str]) -> Optional[tuple]:
    """The score the analyses use: --score when given (it overrides), else the declared one."""
    if option:
        return option, counter_score(game, option)
    return declared_score(game)


@dataclass
class Summary:
    games: int = 0
    players: int = 0
    seed: int = 0
    wins: list = field(default_factory=list)
    draws: int = 0                     # games won by several players together
    team_wins: dict = field(default_factory=dict)      # team number -> games its members won together
    no_winner: int = 0                 # games that ended (not in a dead end) with nobody winning
    dead_ends: dict = field(default_factory=dict)      # "rule|kind" -> {rule, kind, where, message, count}
    turns: Histogram = field(default_factory=Histogram)   # decisions per game
    examples: dict = field(default_factory=dict)      # "rule|kind" -> Played (the shortest)
    tally: Optional[Tally] = None                     # every metric, the games' logs folded in
    teams: tuple = ()                                 # seats (from 0) of each team
    agents: tuple = ()                                # the agent spec of each seat
    score: Optional[str] = None                       # what the score is, when there is one
    payoff_games: int = 0                             # games that ended with a pay-off per seat
    payoff_totals: list = field(default_factory=list) # each seat's pay-offs over those games, added up
    cooperative: bool = False                         # all seats win or lose together
    team_lower: bool = False                          # the team's score is better when lower
    team_won: int = 0                                 # cooperative: games the team won
    team_scores: Histogram = field(default_factory=Histogram)   # cooperative: the team's score at each end
    asked: int = 0                                    # the games asked for
    partial: bool = False                             # stopped (Ctrl-C) before all of them were played

    def add(self, p: Played, log=None, recorded: Optional[Callable] = None) -> None:
        """One more game, and its metrics.GameLog (folded into the tally, not kept). A game
        played without its actions recorded comes with `recorded`, which plays it again with
        them: wanted only for a dead end that may be the shortest example."""
        s = p.state
        self.games += 1
        if log is not None:
            self.tally.fold(log)
        self.turns.add(s.moves)
        if s.dead_end is not None:
            d = s.dead_end
            key = f"{d.rule}|{d.kind}"
            entry = self.dead_ends.setdefault(key, {"rule": d.rule, "kind": d.kind, "where": d.where,
                                                   "message": d.message, "count": 0})
            entry["count"] += 1
            best = self.examples.get(key)
            # every decision is an action: a game of as many decisions as the example has actions is no shorter
            if best is None or s.moves < len(best.actions):
                if recorded is not None:
                    p = recorded()
                if best is None or len(p.actions) < len(best.actions):
                    self.examples[key] = p
            return
        if self.cooperative:
            self.team_won += bool(s.outcome)
            if s.game.team_score is not None:
                self.team_scores.add(s.game.team_score(s))
        if s.payoffs is not None:
            self.payoff_games += 1
            self.payoff_totals = _added(self.payoff_totals, s.payoffs)
        winners = s.outcome or ()
        if len(winners) == 1:
            self.wins[int(winners[0])] += 1
        elif len(winners) > 1:
            self.draws += 1
            team = _team_of_winners(s.game, winners)
            if team is not None:
                self.team_wins[team] = self.team_wins.get(team, 0) + 1
        else:
            self.no_winner += 1

    def merge(self, part: "Summary") -> None:
        """Add the games of the next batch: the same as adding them one by one (see batches.py)."""
        self.games += part.games
        self.tally.merge(part.tally)
        self.turns.merge(part.turns)
        self.wins = [a + b for a, b in zip(self.wins, part.wins)]
        self.draws += part.draws
        self.no_winner += part.no_winner
        self.team_won += part.team_won
        self.team_scores.merge(part.team_scores)
        for team, won in part.team_wins.items():
            self.team_wins[team] = self.team_wins.get(team, 0) + won
        if part.payoff_games:           # whole numbers: their sum does not depend on the split
            self.payoff_games += part.payoff_games
            self.payoff_totals = _added(self.payoff_totals, part.payoff_totals)
        for key, d in part.dead_ends.items():
            self.dead_ends.setdefault(key, {**d, "count": 0})["count"] += d["count"]
            best, found = self.examples.get(key), part.examples[key]
            if best is None or len(found.actions) < len(best.actions):
                self.examples[key] = found

    def to_json(self) -> dict:
        finished = self.games
        turns = self.turns if self.turns else Histogram({0: 1})
        return {
            "games": self.games,
            **({"partial": True, "games_asked": self.asked} if self.partial else {}),
            "players": self.players,
            "seed": self.seed,
            "wins_by_seat": {str(i + 1): w for i, w in enumerate(self.wins)},
            "win_rate_by_seat": {str(i + 1): round(w / finished, 4) if finished else 0.0
                                 for i, w in enumerate(self.wins)},
            "draws": self.draws,
            **({"wins_by_team": {str(k): v for k, v in sorted(self.team_wins.items())}} if self.team_wins else {}),
            "no_winner": self.no_winner,
            "dead_end_games": sum(d["count"] for d in self.dead_ends.values()),
            "dead_ends": sorted(self.dead_ends.values(), key=lambda d: (-d["count"], d["rule"], d["kind"])),
            "mean_turns": round(turns.mean(), 3),
            "median_turns": turns.median(),
            "max_turns": turns.max(),
            **self.payoff_figures(),
            **self.team_figures(),
            **self.new_figures(),
        }

    def team_figures(self) -> dict:
        """A cooperative game's figures: how often the team won and what it scored, with 95%
        intervals (Wilson's for the rate, Student's t for the mean), over the games that ended."""
        if not self.cooperative:
            return {}
        ended = self.games - sum(d["count"] for d in self.dead_ends.values())
        lo, hi = wilson(self.team_won, ended) if ended else (0.0, 0.0)
        team = {"games": ended, "won": self.team_won,
                "win_rate": round(self.team_won / ended, 4) if ended else 0.0,
                "win_rate_ci95": [round(lo, 4), round(hi, 4)]}
        if self.team_scores:
            h = self.team_scores
            m_lo, m_hi = mean_interval(h)
            team["score"] = {"better": "lower" if self.team_lower else "higher", "mean": round(h.mean(), 4),
                             "mean_ci95": [round(m_lo, 4), round(m_hi, 4)], "min": h.min(), "median": h.median(),
                             "max": h.max(), "distribution": h.pairs()}
        return {"team": team}

    def payoff_figures(self) -> dict:
        """Each seat's mean pay-off over the games that ended with pay-offs (none without)."""
        if not self.payoff_games:
            return {}
        return {"payoff_games": self.payoff_games,
                "mean_payoff_by_seat": {str(i + 1): round(t / self.payoff_games, 4)
                                        for i, t in enumerate(self.payoff_totals)}}

    def new_figures(self) -> dict:
        """What `simulate` reports beyond its first version (keys added, none changed)."""
        if self.tally is None or not self.tally.games:
            return {}
        m = self.tally.figures()
        rounds = self.tally.rounds
        return {"agents": list(self.agents), "score_by": self.score,
                "step_limit_games": m["outcomes"]["step_limit"]["count"],
                "mean_rounds": round(rounds.mean(), 3), "median_rounds": rounds.median(),
                "max_rounds": rounds.max(), "metrics": m}


def _team_of_winners(game: Game, winners) -> Optional[int]:
    """The team number (from 1) when the winners are exactly one team of several players."""
    won = {int(p) for p in winners}
    for k, members in enumerate(game.team_members):
        if len(members) > 1 and won == {int(p) for p in members}:
            return k + 1
    return None


def simulate(game: Game, n: int, seed: int, progress: Optional[Callable[[int], None]] = None,
             agents: Optional[list] = None, score: Optional[tuple] = None,
             restriction: Optional[Restriction] = None, pool=None, options: bool = True) -> Summary:
    """Play n games. `agents`: one per seat (None: uniform random play); `score`: (name,
    function (state, player) -> number) for the score metrics; `pool`: a batches.Pool to
    split the games across (the summary is the same as without it); without `options` the
    figures leave out option and card use (`play`), which nearly doubles the cost of a game.
    Ctrl-C (batches.stoppable) ends it early: the summary of the first games, `partial`; or
    Stopped when none was played."""
    name = score[0] if score is not None else None
    summary = _empty(game, seed, agents, name, options)
    # the declared score is compiled code: a worker takes its own game's
    sent = None if score is None else (name, None if score[1] is game.score_of else score[1])

    def here(i):
        _add_game(summary, game, seed, i, agents, score and score[1], restriction, options)
        if progress is not None:
            progress(1)
    summary.asked = n
    summary.partial = play_all(pool, game, n, here, _simulate_batch,
                               lambda portable, r: (portable, r, seed, agents, sent, restriction, options),
                               summary.merge, progress, agents)
    if summary.partial and not summary.games:
        raise Stopped()         # nothing to report
    return summary


def _empty(game: Game, seed: int, agents, score_name, options: bool = True) -> Summary:
    teams = tuple(tuple(int(p) for p in t) for t in game.team_members)
    return Summary(players=game.n, seed=seed, wins=[0] * game.n, teams=teams,
                   cooperative=game.cooperative, team_lower=game.team_lower,
                   agents=tuple(_spec(a) for a in agents) if agents else ("random",) * game.n, score=score_name,
                   tally=Tally(game.n, teams, score_name is not None, options,
                               # --score's counters are read as higher is better
                               game.score_lower and score_name == score_label(game)))


def _simulate_batch(task) -> Summary:
    """In a worker: the games of one index range, their examples without the final states."""
    portable, indices, seed, agents, score, restriction, options = task
    game = portable.game()
    fn = None if score is None else score[1] or game.score_of
    part = _empty(game, seed, agents, None if score is None else score[0], options)
    for i in indices:
        _add_game(part, game, seed, i, agents, fn, restriction, options)
        if played():
            break
    part.examples = {k: Played(p.index, p.actions, None) for k, p in part.examples.items()}
    return part


def _add_game(summary: Summary, game: Game, seed: int, i: int, agents, score, restriction, options) -> None:
    """Game `i` of a run, played and added. Random play is played again, the same game, in the
    rare case its actions are wanted (Summary.add), rather than recorded in every game."""
    def game_i(record: bool) -> tuple:
        return play(game, game_rng(seed, i), i, agents, score, restriction, options, record)
    if agents is not None:      # an agent may learn from the games it plays: each is played once
        summary.add(*game_i(True))
        return
    summary.add(*game_i(False), lambda: game_i(True)[0])


def _spec(agent) -> str:
    return "random" if agent is None else str(getattr(agent, "name", None) or type(agent).__name__)
