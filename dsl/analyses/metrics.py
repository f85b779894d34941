"""Design metrics computed from play logs: how games end, how long they last, how much
choice they offer, which options win, and (given a score) how the lead moves.

Each metric is defined in docs/metrics.md with its source (Ludii's evaluation metrics,
CardStock's heuristics, TAG's per-game metrics). A `GameLog` is what one game leaves
behind; a `Tally` folds them in one at a time, keeping no game, merges exactly with another
(a worker's, a cluster task's) and gives the figures, one plain dict with 95% intervals;
`metrics(logs, ...)` does all three for a list.
May import `stats` and the standard library only: it knows neither the engine nor a game.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Optional

from . import stats

PROGRESS = tuple(i / 10 for i in range(11))      # where "score over time" samples a game
MIN_DECIDED = 20        # fewer games won than this flag no side: one lucky win is no evidence of unfairness


@dataclass
class GameLog:
    """One game as the metrics see it."""
    index: int
    end: str                        # 'won' (one player or one team) | 'shared' | 'nobody' | 'dead end' | 'step limit'
    winners: tuple = ()             # seats (from 0) that won
    decisions: int = 0
    rounds: int = 0
    dead_end: Optional[str] = None  # "rule|kind"
    # per decision: (seat, moves offered, option key taken, option keys offered, cards taken, cards offered)
    choices: list = field(default_factory=list)
    scores: list = field(default_factory=list)    # each seat's score before every decision, then at the end


def _rate(k: int, n: int) -> dict:
    lo, hi = stats.wilson(k, n)
    return {"count": k, "n": n, "value": round(k / n, 4) if n else 0.0, "ci95": [round(lo, 4), round(hi, 4)]}


def _mean(values) -> dict:
    """The mean of a list or a stats.Histogram, with its t interval."""
    h = values if isinstance(values, stats.Histogram) else stats.Histogram.of(values)
    if not h:
        return {"n": 0, "value": 0.0, "ci95": [0.0, 0.0]}
    lo, hi = stats.mean_interval(h)
    return {"n": len(h), "value": round(h.mean(), 4), "ci95": [round(lo, 4), round(hi, 4)]}


def distribution(values) -> dict:
    """Mean, spread and quartiles of a length (decisions or rounds per game): a list or a
    stats.Histogram."""
    h = values if isinstance(values, stats.Histogram) else stats.Histogram.of(values)
    if not h:
        return {"mean": 0.0, "sd": 0.0, "min": 0, "q1": 0, "median": 0, "q3": 0, "max": 0}
    q = h.quartiles() if len(h) > 1 else [h.min()] * 3
    return {"mean": round(h.mean(), 3),
            "sd": round(h.stdev(), 3) if len(h) > 1 else 0.0,
            "min": h.min(), "q1": round(q[0], 3), "median": round(q[1], 3), "q3": round(q[2], 3),
            "max": h.max()}


class _OptionTally:
    """Option (or card) use folded game by game: offers, takes, and the wins of the seats that
    took each key at least once in a finished game against those offered it who never did."""
    __slots__ = ("offered", "taken", "users", "users_won", "others", "others_won")

    def __init__(self):
        for name in self.__slots__:
            setattr(self, name, Counter())

    def fold(self, g: GameLog, cards: bool) -> None:
        took, saw = {}, {}      # seat -> the keys it took, and was offered, once per decision
        for c in g.choices:
            seat = c[0]
            if seat not in saw:
                took[seat], saw[seat] = [], []
            if cards:
                took[seat] += c[4]
                saw[seat] += c[5]
            else:
                took[seat].append(c[2])
                saw[seat] += c[3]
        winners = g.winners if g.end == "won" else ()
        finished = g.end in FINISHED
        for seat, keys in saw.items():
            if not keys:
                continue
            self.taken.update(took[seat])
            self.offered.update(keys)
            if not finished:
                continue
            used, won = set(took[seat]), seat in winners
            for key in set(keys):
                if key in used:
                    self.users[key] += 1
                    self.users_won[key] += won
                else:
                    self.others[key] += 1
                    self.others_won[key] += won

    def merge(self, other: "_OptionTally") -> None:
        for name in self.__slots__:
            getattr(self, name).update(getattr(other, name))

    def rows(self, cards: bool) -> list:
        rows = []
        for key in sorted(self.offered):
            taken = self.taken.get(key, 0)
            rows.append({"card" if cards else "option": key, "offered": self.offered[key], "taken": taken,
                         "taken_when_offered": round(taken / self.offered[key], 4),
                         "win_rate_if_used": _rate(self.users_won.get(key, 0), self.users.get(key, 0)),
                         "win_rate_if_not_used": _rate(self.others_won.get(key, 0), self.others.get(key, 0))})
            used, unused = rows[-1]["win_rate_if_used"], rows[-1]["win_rate_if_not_used"]
            rows[-1]["gap"] = round(used["value"] - unused["value"], 4) if used["n"] and unused["n"] else 0.0
        return rows


FINISHED = ("won", "shared", "nobody")


class Tally:
    """Every metric's running summary: one game's log folded in at a time (`fold`), and kept as
    whole counts, exact sums and histograms of whole values, so two tallies merge exactly
    (`merge`), in any order and for any split of the games, and the figures (`figures`) are the
    same to the bit as from all the logs at once. Nothing is kept per game."""

    def __init__(self, n_players: int, teams: tuple = (), with_score: bool = False, options: bool = True,
                 lower: bool = False):
        self.n_players = n_players
        self.lower = lower              # the score is golf-like: the least leads
        self.read_options = options     # False: the logs hold (seat, moves offered) per decision, no option use
        self.teams = tuple(tuple(t) for t in teams)
        self.team_play = any(len(t) > 1 for t in teams)
        self.sides = [t for t in self.teams] if self.team_play else [(i,) for i in range(n_players)]
        self.side_of = {frozenset(side): k for k, side in enumerate(self.sides)}     # the winners -> their side
        self.with_score = with_score
        self.games = 0
        self.ends = Counter()
        self.wins = [0] * len(self.sides)
        self.decisions = stats.Histogram()
        self.decisions_finished = stats.Histogram()
        self.rounds = stats.Histogram()
        self.choices = self.real = self.offered = self.offered_real = 0
        self.options, self.cards = _OptionTally(), _OptionTally()
        self.first_decided = self.first_won = 0
        self.first_seats = [0] * n_players
        self.scored = self.single = 0
        self.over_time = [[0] * len(PROGRESS) for _ in range(n_players)]
        self.winner_line, self.other_line = [0] * len(PROGRESS), [0] * len(PROGRESS)
        self.lead_changes, self.margins = stats.Histogram(), stats.Histogram()
        self.comebacks = 0

    def fold_outcome(self, g) -> None:
        """How one game ended (all `outcomes` needs)."""
        self.games += 1
        self.ends[g.end] += 1
        if g.end == "won":
            k = self.side_of.get(frozenset(g.winners))
            if k is not None:
                self.wins[k] += 1

    def fold(self, g: GameLog) -> None:
        """One game's log."""
        self.fold_outcome(g)
        self.decisions.add(g.decisions)
        if g.end in FINISHED:
            self.decisions_finished.add(g.decisions)
        self.rounds.add(g.rounds)
        choices = g.choices
        self.choices += len(choices)
        for c in choices:
            self.offered += c[1]
            if c[1] > 1:
                self.real += 1
                self.offered_real += c[1]
        if self.read_options:
            self.options.fold(g, False)
            self.cards.fold(g, True)
        if choices:
            first = choices[0][0]
            self.first_seats[first] += 1
            if g.end == "won":
                self.first_decided += 1
                self.first_won += tuple(g.winners) == (first,)
        if self.with_score and g.scores:
            self._fold_scores(g)

    def _fold_scores(self, g: GameLog) -> None:
        n, scores = self.n_players, g.scores
        self.scored += 1
        # the standing is read with the sign turned where less is better; the score over time stays as kept
        ranked = [tuple(-v for v in row) for row in scores] if self.lower else scores
        self.lead_changes.add(lead_changes(ranked))
        samples = [scores[round(f * (len(scores) - 1))] for f in PROGRESS]
        for j, row in enumerate(samples):
            for p in range(n):
                self.over_time[p][j] += _exact(row[p])
        if g.end == "won" and len(g.winners) == 1 and n > 1:
            w = g.winners[0]
            self.single += 1
            self.comebacks += comeback(ranked, w)
            self.margins.add(margin(ranked[-1], w))
            for j, row in enumerate(samples):
                self.winner_line[j] += _exact(row[w])
                self.other_line[j] += _exact(sum(row) - row[w])

    def merge(self, other: "Tally") -> None:
        """Add another tally's games (of the same game and player count)."""
        for name in ("games", "choices", "real", "offered", "offered_real", "first_decided", "first_won",
                     "scored", "single", "comebacks"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.ends.update(other.ends)
        for name in ("wins", "first_seats", "winner_line", "other_line"):
            setattr(self, name, [a + b for a, b in zip(getattr(self, name), getattr(other, name))])
        self.over_time = [[a + b for a, b in zip(mine, theirs)] for mine, theirs in zip(self.over_time, other.over_time)]
        for name in ("decisions", "decisions_finished", "rounds", "lead_changes", "margins"):
            getattr(self, name).merge(getattr(other, name))
        self.options.merge(other.options)
        self.cards.merge(other.cards)

    # ------------------------------------------------------------ figures
    def outcomes(self) -> dict:
        """Wins per seat and team with intervals, the fair share, and how the other games ended."""
        n = self.games
        fair = 1 / len(self.sides) if self.sides else 0.0
        decided = sum(self.wins)
        rows = []
        for k, side in enumerate(self.sides):
            r = _rate(self.wins[k], n)
            r["seats"] = [s + 1 for s in side]
            # fairness is judged among the games someone won: draws and dead ends lower every side alike
            share = r["share_of_decided"] = _rate(self.wins[k], decided)
            r["flag"] = ("above" if share["ci95"][0] > fair else "below" if share["ci95"][1] < fair else "") \
                if decided >= MIN_DECIDED else ""
            rows.append(r)
        count = self.ends.__getitem__
        return {"by": "team" if self.team_play else "seat", "fair_share": round(fair, 4), "wins": rows,
                "won": _rate(count("won"), n), "shared": _rate(count("shared"), n), "nobody": _rate(count("nobody"), n),
                "dead_end": _rate(count("dead end"), n), "step_limit": _rate(count("step limit"), n)}

    def design(self) -> dict:
        """The metrics of docs/metrics.md that need no score."""
        n = self.games
        out = self.outcomes()
        rates = [w["count"] / n for w in out["wins"]] if n else []
        return {"outcomes": out,
                "first_player_advantage": {**_rate(out["wins"][0]["count"], n), "fair_share": out["fair_share"],
                                           "excess": round(rates[0] - out["fair_share"], 4) if rates else 0.0},
                "balance": round(1 - (max(rates) - min(rates)), 4) if rates else 1.0,
                "completion": out["won"],
                "drawishness": _rate(self.ends["shared"] + self.ends["nobody"], n),
                "timeouts": out["step_limit"],
                "dead_ends": out["dead_end"],
                "decisions": distribution(self.decisions),
                "decisions_of_finished": distribution(self.decisions_finished),
                "rounds": distribution(self.rounds),
                "real_choice": _rate(self.real, self.choices),
                # whole numbers added up: the mean is statistics.fmean's
                "branching_factor": round(float(self.offered) / self.choices, 3) if self.choices else 0.0,
                "branching_factor_real": round(float(self.offered_real) / self.real, 3) if self.real else 0.0,
                **({"options": self.options.rows(False), "cards": self.cards.rows(True)} if self.read_options else {})}

    def score_figures(self) -> dict:
        """The metrics that need a score: lead changes, comebacks, final margin, score over time."""
        n, single = self.scored, self.single
        return {
            "games": n,
            "lead_changes": _mean(self.lead_changes),
            "comebacks": _rate(self.comebacks, single),
            "final_margin": _mean(self.margins),
            "progress": list(PROGRESS),
            "score_over_time": [[round(float(v / n), 3) if n else 0.0 for v in line] for line in self.over_time],
            "winner_over_time": [round(float(v / single), 3) if single else 0.0 for v in self.winner_line],
            "others_over_time": [round(float(v / (single * (self.n_players - 1))), 3) if single else 0.0
                                 for v in self.other_line],
        }

    def first_player(self) -> dict:
        """How often the player who acts first (the seat of each game's first decision) wins alone,
        among the games someone won."""
        won, n = self.first_won, self.first_decided
        lo, hi = stats.wilson(won, n)
        return {"count": won, "n": n, "value": round(won / n, 4) if n else 0.0,
                "ci95": [round(lo, 4), round(hi, 4)], "fair_share": round(1 / self.n_players, 4),
                "seats": list(self.first_seats)}

    def figures(self) -> dict:
        out = self.design()
        if self.with_score:
            out["score"] = self.score_figures()
        return out


def _exact(v):
    """A score as an exact number: float sums would depend on the order the games are added in."""
    return Fraction(v) if type(v) is float else v


def _tally(logs: list, n_players: int, teams: tuple = (), with_score: bool = False) -> Tally:
    t = Tally(n_players, teams, with_score)
    for g in logs:
        t.fold(g)
    return t


def outcomes(logs: list, n_players: int, teams: tuple = ()) -> dict:
    """Wins per seat and team with intervals, the fair share, and how the other games ended.

    `teams` lists each team's seats; a team of several players wins together (`end` 'won'
    with all its seats as winners)."""
    t = Tally(n_players, teams)
    for g in logs:
        t.fold_outcome(g)
    return t.outcomes()


def design(logs: list, n_players: int, teams: tuple = ()) -> dict:
    """The metrics of docs/metrics.md that need no score."""
    return _tally(logs, n_players, teams).design()


def option_use(logs: list, cards: bool = False) -> list:
    """Per option (or per card, by label): how often it is offered and taken, and the win rate
    of the seats that took it at least once in a finished game against those offered it who
    never took it."""
    t = _OptionTally()
    for g in logs:
        t.fold(g, cards)
    return t.rows(cards)


def _leader(scores) -> Optional[int]:
    best = max(scores)
    top = [i for i, v in enumerate(scores) if v == best]
    return top[0] if len(top) == 1 else None


def lead_changes(scores: list) -> int:
    """Times the sole leader changes; samples where the lead is shared are skipped."""
    changes, last, before = 0, None, None
    for row in scores:
        if row == before:       # most decisions change no score
            continue
        before = row
        lead = _leader(row)
        if lead is None:
            continue
        if last is not None and lead != last:
            changes += 1
        last = lead
    return changes


def comeback(scores: list, winner: int) -> bool:
    """The winner was strictly behind someone at the half of the game."""
    half = scores[(len(scores) - 1) // 2]
    return half[winner] < max(v for i, v in enumerate(half) if i != winner)


def margin(final, winner: int) -> float:
    return final[winner] - max(v for i, v in enumerate(final) if i != winner)


def scored(logs: list, n_players: int) -> dict:
    """The metrics that need a score: lead changes, comebacks, final margin, score over time."""
    return _tally(logs, n_players, with_score=True).score_figures()


def metrics(logs: list, n_players: int, teams: tuple = (), with_score: bool = False) -> dict:
    return _tally(logs, n_players, teams, with_score).figures()
