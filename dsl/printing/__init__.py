"""Printing: readings as runs and items (runs.py), the Voice that reads a rule set (prose.py),
the rulebook's contents (rulebook.py), the one-page sheet (sheet.py), card sheets
(cards.py), cards one to a page for a print-on-demand printer (pod.py), the game for Tabletop
Simulator (tts.py), the book's own words (labels.py), rendering and typesetting (book.py,
templates/), and replay narration (narrate.py).

May import: the language, the constructs, the variants and the engine; never the CLI.
"""
