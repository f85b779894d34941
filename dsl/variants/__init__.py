"""Variants: overlays that patch a game and stack (overlay.py), and the structural diff of two
rule sets (diff.py), and files of strategies joined to their game (strategies.py).

May import: the language and the constructs; never the engine, analyses or the CLI.
"""
