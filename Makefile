# The commands: `make run`, `make test` (everything) and `make check` (the quick loop while editing).
# Each sets up .venv from scratch when needed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Test processes (pytest-xdist). More than the cores: the browser and server tests spend much of
# their time waiting on other programs, and a shared machine's other work gets less of a say.
TEST_WORKERS ?= 4
PARALLEL := -n $(TEST_WORKERS) --dist worksteal
# Some machines set PYTHONDONTWRITEBYTECODE: then every test process and every program a test starts
# compiles the project from source again (2.5 s of CPU each, measured on tests/webapp/players).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check lint typecheck unit postgres-test unit-tests postgres-tests quick-tests system bench setup clean messages

CATALOGS := $(wildcard webapp/translations/*/LC_MESSAGES/messages.po)
REFUSALS := webapp/static/refused/en.html

setup: $(STAMP) node_modules/.installed $(CATALOGS:.po=.mo) $(REFUSALS)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The web app serves htmx from node_modules (never copied into the repo, never a CDN).
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The translations: the .po catalogs are the source (committed), the .mo files what the site reads
# (built here, never committed).
webapp/translations/%/LC_MESSAGES/messages.mo: webapp/translations/%/LC_MESSAGES/messages.po $(STAMP)
	$(BIN)/pybabel -q compile -i $< -o $@

# The page nginx refuses a costly page's flood with, one per language (deploy/nginx.conf's
# `@tavolo_refused`), drawn by the app from its templates and catalogs (built here, never committed).
$(REFUSALS): $(CATALOGS:.po=.mo) webapp/templates/front_door_refusal.html webapp/errors.py
	$(BIN)/flask --app webapp refusal-pages webapp/static/refused

# After changing a player-facing string: extract every message and merge it into the catalogs; then
# translate what `make messages` leaves empty or fuzzy (tests/webapp/test_translations.py insists).
messages: $(STAMP)
	$(BIN)/pybabel extract --mapping-file babel.cfg --keywords words --keywords words_n:1,2 \
		--keywords N_ --keywords Nn_:1,2 --keywords lazy_gettext --no-location --sort-output -o webapp/translations/messages.pot .
	$(BIN)/pybabel update --no-wrap --ignore-obsolete -i webapp/translations/messages.pot -d webapp/translations

# Migrate, publish the puzzles of today and the next 7 days, serve on 127.0.0.1:$$PORT with the clock.
run: setup
	scripts/run.sh

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: setup
	$(BIN)/mypy puzzles generator webapp bench/corpus.py bench/peer.py bench/solver.py bench/phases_ab.py bench/attack.py bench/crossings.py bench/guard.py bench/rush.py bench/flood.py bench/web.py bench/review_cost.py bench/key_truth.py bench/judge_cost.py bench/recipes.py

# Debian packages for the tests: Chromium for the browser test, PostgreSQL for the database tests.
system:
	scripts/system-packages.sh

unit: setup system unit-tests

# The web app's tests again, on a throw-away PostgreSQL server on loopback.
postgres-test: setup system postgres-tests

# The runs themselves, for `test` to call once the system packages are checked (once per run).
unit-tests:
	$(BIN)/pytest $(PARALLEL)

postgres-tests:
	scripts/test-postgres.sh $(PARALLEL)

# Lint and types, then the two test runs one after the other, each showing pytest's progress as it
# goes; the system packages are checked once, first.
# Side by side (`$(MAKE) -j4 --output-sync=target lint typecheck unit-tests postgres-tests`) did
# not pay on the shared 2-core machine (issue 22): fresh clones alternating with this order took
# 8:20, 8:33, 6:28 and 6:22 against 7:43, 7:44 and 6:26 one after the other, at load 2-17 from
# other sessions (the quietest pair: 6:22 at 129% of a core, 6:26 at 126%). Lint and types were
# done 10 s sooner, but beside PostgreSQL's run (56 s alone) the SQLite run took 60-70 s longer:
# the other sessions had the idle core already.
test: setup system
	$(MAKE) --no-print-directory lint typecheck unit-tests postgres-tests

# The edit loop: lint, types and the tests that take about a minute. It leaves out the tests marked
# slow (other programs, long Hypothesis runs) and browser (Chromium), and PostgreSQL; the oracle, the
# steps' and the meld order's property tests and the web fuzz tests try fewer examples. `make test`
# runs them all.
# Lint and types run beside the tests: mypy alone takes 18 s of one core from a fresh clone.
check: setup
	$(MAKE) --no-print-directory -j3 lint typecheck quick-tests

quick-tests:
	ORACLE_EXAMPLES=5 STEPS_EXAMPLES=10 ORDER_EXAMPLES=10 SKILL_EXAMPLES=5 FUZZ_EXAMPLES=10 \
		$(BIN)/pytest $(PARALLEL) -m "not slow and not browser"

bench: setup
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python bench/generate.py --count 200
	$(BIN)/python bench/solver.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
