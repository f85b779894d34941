"""Printing: readings as runs and items (runs.py), the Voice that reads a rule set (prose.py),
the rulebook, sheet and card sheets (book.py, templates/), and replay narration (narrate.py).

May import: the language, the constructs, the variants and the engine; never the CLI.
"""
