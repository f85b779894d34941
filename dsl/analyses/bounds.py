"""How much one command may ask for: the one definition of the bounds on command-line numbers.

Each is far past a real run (a million games of a seed game take hours on one core) and
well inside what a machine holds, so a slip such as `-n 10**20` or `--param A=1..10**9`
is a clear error before any work, not an overflow, a MemoryError or a run of years.
"""
MAX_GAMES = 10_000_000          # games one command plays per player count or combination
MAX_STATES = 10_000_000         # distinct states `explore` may hold
MAX_SECONDS = 7 * 24 * 3600     # a time budget (--max-time, an agent's time=S)
MAX_ITERATIONS = 1_000_000      # an agent's iterations a decision (flat:N, ismcts:N); the seed runs use 20 to 1,000
MAX_COMBINATIONS = 400          # parameter combinations in one sweep
MAX_WORKERS = 256               # processes on this machine, even past its cores with --force-workers
MIN_SEED, MAX_SEED = -2**63, 2**64     # a seed, as a replay file records it
