# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test lint bench postgres node chromium web-client

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): requirements.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

run: $(STAMP) web-client
	$(BIN)/python bot.py

# The board page's script (web/client): TypeScript bundled by esbuild, rebuilt when its sources change.
CLIENT := web/client
CLIENT_BUNDLE := $(CLIENT)/dist/board.js
CLIENT_DEPS := $(CLIENT)/node_modules/.installed

node:
	@command -v npm >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm; }

$(CLIENT_DEPS): $(CLIENT)/package.json $(CLIENT)/package-lock.json | node
	cd $(CLIENT) && npm ci --no-audit --no-fund
	touch $@

$(CLIENT_BUNDLE): $(wildcard $(CLIENT)/src/*.ts) $(CLIENT)/tsconfig.json $(CLIENT_DEPS)
	cd $(CLIENT) && npm run --silent build

web-client: $(CLIENT_BUNDLE)

# The browser tests drive Debian's Chromium through Playwright (never `playwright install`).
chromium:
	@command -v chromium >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

# The tests start a throwaway PostgreSQL server: install Debian's package when its initdb is missing.
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }

# The suite runs on every core (pytest-xdist), two workers a core since the end-to-end tests often wait on
# sockets: each worker starts its own PostgreSQL server and fake Discord, and work-stealing evens out the long
# tests. TEST_WORKERS=0 runs it in one process.
# Bytecode is cached even where the environment sets PYTHONDONTWRITEBYTECODE: otherwise every worker, and every
# bot and helper process a test starts, compiles the project again, and every worker rewrites the asserts of all
# 235 test modules (12 s of CPU per worker to collect, 4 s with the cache). One collection first fills the cache
# on a fresh clone, so the workers do not all rewrite the same modules side by side.
TEST_WORKERS ?= $(shell echo $$(( $$(nproc) * 2 )))
test: export PYTHONDONTWRITEBYTECODE =
test: $(STAMP) postgres chromium web-client
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -q --collect-only -p no:xdist >/dev/null || true
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	for f in bench/bench_*.py; do $(BIN)/python -m bench.$$(basename $$f .py) || exit 1; done
