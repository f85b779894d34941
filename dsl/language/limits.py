"""How big anything in a rule file may be. `check` refuses what goes past a bound with a
positioned error, and the engine refuses what a game computes past one, so that no file
that passes `check` can make playtest exhaust memory, hang or overflow the stack.

Each bound is far past what a tabletop game needs (the seed games' largest are in the
comments) and well inside what the tools can hold.
"""
MAX_FILE_CHARS = 1_000_000      # the largest seed game is about 40,000
MAX_TEXT_CHARS = 10_000         # one quoted text; the longest seed text is a few hundred
MAX_DEPTH = 60                  # nesting of the syntax tree; the seed games reach 22
MAX_NUMBER = 1_000_000          # an integer literal; the seed games' largest is 20,000
MAX_PLAYERS = 100               # a game's player count
MAX_PIECES = 100_000            # pieces of all components together, in a game being played
MAX_OPTIONS = 100_000           # moves one decision may offer
MAX_SUGGESTION_COMPARISONS = 200_000    # names compared in one file's "did you mean" hints
MAX_CHAIN_DEPTH = 150           # levels of a chain of rules and values (inlined.py); the seeds reach 31
MAX_WRITTEN_OUT = 10_000        # parts of a rule once the rules it does are written out; the seeds reach 2,702
