"""The play table: people and bots playing one game, each seat seeing only what it may.

`game_table.py` holds the Table (one game, its seats, its replay written after every action),
`view.py` a seat's view as plain data, `words.py` options and pieces in words, `terminal.py`
the table in a terminal, `stats.py` games played at the table beside random play. The
browser table builds on the same Table: `server.py` serves it, `outbox.py` writes to each page
without holding up the others, `limits.py` bounds what one client may hold, `links_file.py`
keeps a game's links for a resume at the same links.

May import: the language, the engine, the agents, printing (narration, the card sheets'
symbols), analyses.replay and (for stats.py) analyses.simulate's play loop; nothing from the CLI.
"""
from .game_table import HUMAN, Refused, Table

__all__ = ["HUMAN", "Refused", "Table"]
