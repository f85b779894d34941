"""playtest: a game's rules written once, then checked, played, searched and printed.

The pipeline, one folder a stage: language (grammar -> syntax tree -> checker), constructs (one
module per construct of the language, with every pass's hook), variants (overlays applied),
engine (tables, compiler, machine: state, legal moves, apply), analyses (simulate, fuzz,
explore, replay), printing (readings, rulebooks, narration), cli (the `playtest` command).
"""
