"""Agent specs as written on the command line: `random`, `flat:N`, `ismcts:N[:c=X][:depth=D][:time=S]`,
`ismcts:N/STRATEGY` (its imagined games played by a declared strategy), `strategy:NAME` (a
strategy the rule file declares, see .strategy), an installed package's agent (`plugin:NAME`
or its bare NAME, see .plugins), one for every seat or a comma list with one per seat.

May import .search, .strategy and .plugins only.
"""
from __future__ import annotations

from .search import FlatAgent, ISMCTSAgent, RandomAgent
from .strategy import DeclaredMix, StrategyAgent

# a time budget's iteration cap: far more than a second of search on any game makes
TIMED_CAP = 1_000_000

FORMS = ("random", "flat:N", "ismcts:N", "ismcts:Ss", "ismcts:N:c=X", "ismcts:N:depth=D", "flat:N:time=S", "ismcts:N:time=S",
         "ismcts:N/STRATEGY", "strategy:NAME", "plugin:NAME")
_HINT = ("valid forms: " + ", ".join(FORMS)
         + " (N iterations, a whole number >= 1; c > 0; D actions a rollout, a whole number >= 1; S seconds > 0;"
         " ismcts:Ss thinks S seconds a move, its rollouts played by the game's declared strategies)")


def parse_agent(spec: str):
    """One agent from one spec; ValueError naming the bad part otherwise."""
    text = spec.strip()
    text, slash, rollout = text.partition("/")
    parts = text.split(":")
    kind = parts[0].strip().lower()
    if slash and (kind != "ismcts" or not _is_name(rollout)):
        raise ValueError(f"agent '{spec.strip()}': only ismcts takes a rollout strategy, as ismcts:N/NAME; {_HINT}")
    if kind == "strategy":
        if len(parts) != 2 or not _is_name(parts[1]):
            raise ValueError(f"agent '{text}' names a declared strategy as strategy:NAME; {_HINT}")
        return StrategyAgent(parts[1].strip())
    if kind == "random":
        if len(parts) > 1:
            raise ValueError(f"agent '{text}': random takes no budget; {_HINT}")
        return RandomAgent()
    if kind not in ("flat", "ismcts"):
        from .plugins import plugin_agent
        agent = plugin_agent(text)
        if agent is None:
            raise ValueError(f"unknown agent '{text}'; {_HINT}")
        return agent
    if len(parts) < 2 or not parts[1].strip():
        raise ValueError(f"agent '{text}' needs an iteration budget ({kind}:N); {_HINT}")
    if kind == "ismcts" and len(parts) == 2 and not slash and parts[1].strip().lower().endswith("s"):
        return _timed(text, parts[1].strip()[:-1])
    try:
        n = int(parts[1])
    except ValueError:
        raise ValueError(f"agent '{text}': '{parts[1]}' is not a whole number of iterations; {_HINT}") from None
    if n < 1:
        raise ValueError(f"agent '{text}': the budget must be at least 1 iteration, not {n}; {_HINT}")
    options = {}
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        allowed = ("c", "depth", "time") if kind == "ismcts" else ("time",)
        if not eq or key not in allowed or key in options:
            raise ValueError(f"agent '{text}': bad option '{part}' (options of {kind}: "
                             + ", ".join(f"{k}=..." for k in allowed) + f"); {_HINT}")
        try:
            options[key] = float(value)
        except ValueError:
            raise ValueError(f"agent '{text}': '{value}' is not a number in '{part}'; {_HINT}") from None
        if not options[key] > 0 or options[key] == float("inf"):
            raise ValueError(f"agent '{text}': '{part}' must be a positive number; {_HINT}")
        if key == "depth" and options[key] != int(options[key]):
            raise ValueError(f"agent '{text}': '{part}' must be a whole number of actions; {_HINT}")
    seconds = options.get("time")
    if kind == "flat":
        return FlatAgent(n, seconds)
    depth = options.get("depth")
    return ISMCTSAgent(n, options.get("c", 0.7), seconds, None if depth is None else int(depth),
                       StrategyAgent(rollout.strip()) if slash else None)


def _timed(text: str, seconds: str):
    """`ismcts:Ss`: the table's bot, S seconds a move, as many iterations as fit, its imagined
    games played the way the game's declared strategies play (random moves where it has none).
    Its moves depend on the machine's speed: a game with it replays from its recorded moves."""
    try:
        s = float(seconds)
    except ValueError:
        raise ValueError(f"agent '{text}': '{seconds}s' is not a number of seconds; {_HINT}") from None
    if not s > 0 or s == float("inf"):
        raise ValueError(f"agent '{text}': the time budget must be a positive number of seconds; {_HINT}")
    agent = ISMCTSAgent(TIMED_CAP, 0.7, s, None, DeclaredMix())
    agent.name = f"ismcts:{seconds}s"
    return agent


def _is_name(text: str) -> bool:
    return text.strip().isidentifier()


def parse_agents(spec: str, n_players: int) -> list:
    """One agent per seat: one spec for every seat, or a comma list with one per seat."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"no agent given; {_HINT}")
    specs = [p for p in spec.split(",")]
    if len(specs) == 1:
        return [parse_agent(specs[0])] * n_players
    if len(specs) != n_players:
        raise ValueError(f"'{spec}' names {len(specs)} agents for {n_players} players: give one spec "
                         f"for every seat, or exactly {n_players} separated by commas; {_HINT}")
    return [parse_agent(s) for s in specs]
