# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint bench postgres

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python bot.py

# The tests start a throwaway PostgreSQL server: install Debian's package when its initdb is missing.
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }

test: $(STAMP) postgres
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for f in bench/bench_*.py; do $(BIN)/python -m bench.$$(basename $$f .py) || exit 1; done
