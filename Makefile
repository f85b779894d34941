# Set-up and the main jobs. `make demo` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAYTEST := $(BIN)/playtest
GAMES := $(wildcard games/*.rules)
N ?= 500

.PHONY: demo test install bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $@

install: $(VENV)/.installed

# Check every game, then simulate it at every player count it allows.
demo: install
	@for g in $(GAMES); do \
	  $(PLAYTEST) check $$g || exit 1; \
	done
	@for g in $(GAMES); do \
	  lo=$$(sed -n 's/^  players \([0-9]*\) to \([0-9]*\)/\1/p' $$g | head -1); \
	  hi=$$(sed -n 's/^  players \([0-9]*\) to \([0-9]*\)/\2/p' $$g | head -1); \
	  for p in $$(seq $$lo $$hi); do \
	    echo; echo "=== $$g, $$p players"; \
	    $(PLAYTEST) simulate $$g --players $$p -n $(N) --seed 1 --save-dead-ends out/dead-ends || exit 1; \
	  done; \
	done

test: install
	$(BIN)/python -m pytest

bench: install
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis
