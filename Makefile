# Set-up and the main jobs. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAYTEST := $(BIN)/playtest
# The seed games and the classics (games/classics/: published games, kept out of generated/ and
# the seed-game tests, but played at every player count here as any game is).
GAMES := $(wildcard games/*.rules) $(wildcard games/classics/*.rules)
N ?= 500

.PHONY: fuzz-cli fuzz-lsp bench-check demo simulate-all test test-slow install bench bench-instructions clean variants-table findings generated skill reports mutate strategies traces docs-printing report-pages bench-scale

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml $(BIN)/python
	$(BIN)/python -m pip install -qq --upgrade pip
	$(BIN)/python -m pip install -qq -e .
	touch $@

install: $(VENV)/.installed

# A first minute with playtest: check every game and variant, a short simulation of each game,
# and where to look next.
demo: install
	@$(BIN)/python scripts/demo.py

# Every game at every player count it allows, N games each (the long run `make demo` once was).
simulate-all: install
	@for g in $(GAMES); do \
	  lo=$$(sed -n 's/^  players \([0-9]*\) to \([0-9]*\)/\1/p' $$g | head -1); \
	  hi=$$(sed -n 's/^  players \([0-9]*\) to \([0-9]*\)/\2/p' $$g | head -1); \
	  for p in $$(seq $$lo $$hi); do \
	    echo; echo "=== $$g, $$p players"; \
	    $(PLAYTEST) simulate $$g --players $$p -n $(N) --seed 1 --save-replays out/dead-ends || exit 1; \
	  done; \
	done

# The behavioural diff table of docs/variants.md.
variants-table: install
	$(BIN)/python scripts/variants_table.py games/bluff.rules \
	  variants/bluff-exact-challenger-loses.rules variants/bluff-exact-nobody-loses.rules \
	  variants/bluff-exact-published.rules variants/bluff-exact-just-call.rules \
	  variants/bluff-life.rules variants/bluff-reversed.rules \
	  variants/bluff-life.rules+variants/bluff-exact-nobody-loses.rules -n 2000 -p 4 --seed 1

# docs/findings.md and generated/findings/: fuzz every game and variant, save minimal replays.
findings: install
	$(BIN)/python scripts/findings.py

# generated/: rulebook, sheet and card sheets of every game and variant, ja and en, HTML and PDF.
generated: install
	$(BIN)/python scripts/generated.py

# generated/reports/: a balance report per game and the sweeps of the provisional parameters.
reports: install
	$(BIN)/python scripts/reports.py

test: install
	$(BIN)/python -m pytest -n auto -m "not slow" -rs

# The long runs `make test` leaves out (property runs, generated/ regenerated and compared); CI runs both.
test-slow: install
	$(BIN)/python -m pytest -n auto -m slow -rs

# 10,000 mutants of the seed games, their strategies and their variants, each checked and the
# checkable ones played under a time and memory bound: no traceback, no run over the bound
# (about 40 minutes on 2 cores; make test runs a slice).
mutate: install
	$(BIN)/python scripts/mutate.py -n 10000

bench: install
	$(BIN)/python bench/run.py

# instructions a game under valgrind, steadier than time (needs valgrind; a few minutes)
bench-instructions: install
	$(BIN)/python bench/instructions.py

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis

# generated/skill/: skill versus luck of every seed game, each interval narrower than 0.1 (agents against random seats; a process per core; the times are in generated/skill/README.md).
skill: install
	$(BIN)/python scripts/skill.py

# generated/strategies/: every seed game's declared strategies side by side (about two minutes).
strategies: install
	$(BIN)/python scripts/strategies.py

# the seed trace tables: ranges that no longer show what their row quotes (--fix moves them back)
traces: install
	$(BIN)/python scripts/seed_traces.py

# the "after" passages of docs/printing/*.md, quoted from the books and sheets as they print now
docs-printing: install
	$(BIN)/python scripts/printing_docs.py

# every seed game's report, en and ja, written and screenshot in headless Chromium (docs/report/*.png)
report-pages: install
	$(BIN)/python scripts/report_pages.py

# whole-process simulate beside the hand-written programs, the metrics' cost, memory at 10,000 and 100,000 games
bench-scale: install
	$(BIN)/python bench/scale.py

# Our own attack campaigns (bounded in time): command lines and paths; byte streams into the language server.
fuzz-cli: install
	$(BIN)/python scripts/fuzz_cli.py --seconds 600

fuzz-lsp: install
	$(BIN)/python scripts/fuzz_lsp.py --seconds 600

# check's time against the file's size, 1 kB to 1 MB, beside the code of main
bench-check: install
	$(BIN)/python bench/check_scaling.py --baseline main
