"""What a fuzz run found and how it is reported: each finding with its reproduction, the
report (JSON, byte-identical for the same inputs, and text) and the coverage of the rule files."""
from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..engine import CHANCE, Game

FORMAT = "playtest-fuzz/1"
FOREVER = "can go on forever"       # the kind of a finding whose history returns to a state it has been in


@dataclass
class Finding:
    kind: str
    rule: str
    where: str
    message: str
    hits: int = 0                       # games of the discover phase that ended in it
    first_example: int = 0              # index of the first such game
    actions: list = field(default_factory=list)     # the reproduction
    shrunk: bool = False                # Hypothesis shrank it (else: the shortest game found)
    replays: bool = False               # replay.run of the actions reaches this finding again
    batch: int = 0
    _draws: list = field(default_factory=list, repr=False)

    @property
    def key(self) -> tuple:
        return (self.rule, self.kind)

    @property
    def decisions(self) -> int:
        return sum(1 for a, _ in self.actions if a != CHANCE)

    def to_json(self) -> dict:
        return {"kind": self.kind, "rule": self.rule, "where": self.where, "message": self.message,
                "hits": self.hits, "first_example": self.first_example,
                "reproduction": {"actions": self.actions, "length": len(self.actions),
                                 "decisions": self.decisions, "shrunk": self.shrunk, "replays": self.replays}}


@dataclass
class FuzzReport:
    game: str
    rules: str
    players: int
    seed: int
    examples: int = 0                   # games generated in the discover phase
    batches: int = 0
    shrink_runs: int = 0                # games played while shrinking
    findings: list = field(default_factory=list)     # Finding, sorted by (rule, kind)
    blocks: int = 0
    reached: int = 0
    never_reached: list = field(default_factory=list)
    bounds: dict = field(default_factory=dict)
    outcomes: dict = field(default_factory=dict)
    stopped_because: str = ""
    elapsed: float = 0.0                # seconds; not part of the JSON (it is not deterministic)
    discover_seconds: float = 0.0       # of which discovering (also not in the JSON)

    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "seed": self.seed,
            "examples": self.examples,
            "batches": self.batches,
            "shrink_runs": self.shrink_runs,
            "stopped_because": self.stopped_because,
            "bounds": self.bounds,
            "outcomes": self.outcomes,
            "findings": [f.to_json() for f in self.findings],
            "coverage": {"blocks": self.blocks, "reached": self.reached, "never_reached": self.never_reached},
        }

    def dumps(self) -> str:
        """The JSON text: stable key order, byte-identical for the same inputs."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1, sort_keys=True)

    def replay_of(self, finding: Finding, variants=(), note: str = "", rules: str = ""):
        """The reproduction as a dsl.replay.Replay, ready for replay.stamped() and save().

        `rules` is the file as the user named it: a variant file there stands for its game
        with the variant, which self.rules (the game's path) would lose."""
        from .replay import Replay
        return Replay(rules or self.rules, list(variants), self.players, self.seed, finding.first_example,
                      [list(a) for a in finding.actions],
                      note=note or f"fuzz: {finding.kind} in {finding.rule} ({finding.where})")

    def format_text(self) -> str:
        out = [f"{self.game}: fuzzed {self.examples:,} games, {self.players} players, seed {self.seed}"
               + (f" ({self.stopped_because})" if self.stopped_because else "")]
        o = self.outcomes
        wins = ", ".join(f"P{seat} {n}" for seat, n in o.get("wins_by_seat", {}).items())
        out.append(f"  outcomes: wins {wins}; shared {o.get('shared', 0)}, no winner {o.get('no_winner', 0)}, "
                   f"dead ends {o.get('dead_ends', 0)}")
        b = self.bounds
        out.append(f"  bounds: {b.get('max_decisions')} decisions ({b.get('max_decisions_from')}), "
                   f"{b.get('max_loop_passes')} loop passes between decisions")
        if self.findings:
            out.append(f"  findings: {len(self.findings)}")
            for f in self.findings:
                out.append(f"    {f.rule}: {f.kind}  ({f.where})  hit in {f.hits:,} games")
                out.append(f"        {f.message}")
                how = "shrunk to" if f.shrunk else "shortest found:"
                check = "" if f.replays else "  (does not replay: please report)"
                out.append(f"        {how} {_n(len(f.actions), 'action')} ({_n(f.decisions, 'decision')}){check}")
                out.append(f"        {_actions_text(f.actions)}")
        else:
            out.append("  no findings")
        out.append(f"  coverage: {self.reached} of {self.blocks} blocks reached")
        for blk in self.never_reached:
            out.append(f"    never reached: {blk['kind']} {blk['name']}  ({blk['where']})")
        return "\n".join(out)


def _n(k, word) -> str:
    return f"{k:,} {word}" + ("" if k == 1 else "s")


def _actions_text(actions, limit=12) -> str:
    if not actions:
        return "(no actions: it happens before the first decision)"
    parts = []
    for actor, move in actions[:limit]:
        if actor == CHANCE:
            parts.append(f"chance {move}")
        else:
            parts.append(f"P{actor + 1} {' '.join(str(x) for x in move)}")
    more = f" ... (+{len(actions) - limit})" if len(actions) > limit else ""
    return "; ".join(parts) + more


def source_blocks(game: Game) -> dict:
    """The coverage ids of each block of the rule files, by (kind, name, path, line, column),
    in the order compiled. A rule is compiled once for every place that does it, so one block
    of the file may have several ids; it is reached when any of them is."""
    blocks: dict = {}
    for cov, (kind, name, span) in enumerate(game.block_names):
        blocks.setdefault((kind, name, game.rules.path_of(span), span.line, span.column), []).append(cov)
    return blocks


def block_count(game: Game) -> int:
    """The blocks and triggers of the rule files that coverage counts."""
    return len(source_blocks(game)) + len(game.triggers)


def never_reached(game: Game, reached: set) -> list:
    """The blocks of the rule files (and triggers) no coverage id of which is in `reached` (keys
    of State.fired), in source order."""
    out = []
    for (kind, name, path, line, column), ids in source_blocks(game).items():
        if not any(cov in reached for cov in ids):
            out.append(((path, line, column), {"kind": kind, "name": name, "where": f"{path}:{line}:{column}"}))
    for t, *_ in game.triggers:
        if ("trigger", t.name) not in reached:
            out.append(((game.rules.path_of(t.span), t.span.line, t.span.column), {"kind": "trigger", "name": t.name,
                                                       "where": f"{game.rules.path_of(t.span)}:{t.span.line}:{t.span.column}"}))
    out.sort(key=lambda b: (b[0], b[1]["kind"], b[1]["name"]))
    return [b for _, b in out]
