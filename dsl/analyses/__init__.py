"""Analyses that play the game: random play and its summary (simulate.py), Hypothesis-driven
search for dead ends (fuzz.py; the games drawn from Hypothesis data in fuzz_drawing.py, the
findings and their report in fuzz_findings.py), exhaustive search (explore.py), player counts at which a game
cannot be played (player_counts.py, for `check`), saved games (replay.py), and
intervals and tests (stats.py).

May import: the language, the variants and the engine; never printing internals or the CLI.
"""
