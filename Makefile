# boardwright — set-up and everyday commands. Everything runs in ./.venv.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAYERS ?= human,random
SERVE_ARGS ?=

.PHONY: serve play chromium postgresql test test-fast test-slow bench profile coverage clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The native Carcassonne engine is compiled by the install; an editable install does not rebuild
# C++ by itself, so the install runs again whenever its sources or setup.py change. pip shows the
# build's output only with -v: it goes to a log, and the one line saying that the native engine
# was not built (no compiler, BOARDWRIGHT_NATIVE=0, ...) is printed from it.
NATIVE_SOURCES := setup.py src/boardwright/games/carcassonne/native/cpp \
                  $(wildcard src/boardwright/games/carcassonne/native/cpp/*)
DEV_TARGET := '.[dev,ray,server,rl,examples]'
SERVER_TARGET := '.[server]'
define pip_install
	$(BIN)/python -m pip install -v -e $(1) > $(VENV)/install.log 2>&1 \
	  || { cat $(VENV)/install.log; exit 1; }
	@sed -n 's/^ *\(boardwright: native .*\)/\1/p' $(VENV)/install.log
endef

$(VENV)/.installed: pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(call pip_install,.)
	touch $@

# The tests also install the example game package (examples/goofspiel), so that they find it
# through its entry points as a user's installation would. Offline and without build isolation:
# its only build requirement, setuptools, is a dev dependency installed just before.
EXAMPLE_PACKAGES := examples/goofspiel

$(VENV)/.installed-dev: pyproject.toml Makefile $(NATIVE_SOURCES) \
                        $(addsuffix /pyproject.toml,$(EXAMPLE_PACKAGES)) | $(BIN)/python
	$(call pip_install,$(DEV_TARGET))
	$(BIN)/python -m pip install --quiet --no-build-isolation --no-deps \
	  $(addprefix -e ,$(EXAMPLE_PACKAGES))
	touch $@ $(VENV)/.installed

$(VENV)/.installed-server: pyproject.toml $(NATIVE_SOURCES) | $(BIN)/python
	$(call pip_install,$(SERVER_TARGET))
	touch $@ $(VENV)/.installed

## serve: the web table on http://127.0.0.1:8000/ (SQLite file boardwright.db; BOARDWRIGHT_DB overrides;
##        SERVE_ARGS="--port 8080 --db sqlite:///other.db --log-level debug" passes options)
serve: $(VENV)/.installed-server
	$(BIN)/boardwright serve $(SERVE_ARGS)

## play: a Carcassonne game in the terminal against a bot
play: $(VENV)/.installed
	$(BIN)/boardwright play carcassonne --players $(PLAYERS)

## chromium: Debian's Chromium for the browser tests (installed when missing, as root with apt-get)
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "note: /usr/bin/chromium is missing: the browser tests will be skipped"; fi

## postgresql: Debian's PostgreSQL server for the storage tests and those of several server
##             processes on one database, which start a throwaway cluster of their own
##             (installed when missing, as root with apt-get; never started here)
postgresql:
	@if ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else echo "note: no PostgreSQL server: the storage tests will skip their PostgreSQL runs"; fi

## test: install the test dependencies and run the whole suite, spread over every core
##       (pytest-xdist; TEST_WORKERS=0 runs it in this one process)
TEST_WORKERS ?= auto
# The suite starts many Python processes (test workers, servers, commands of the docs): each
# imports the package from bytecode compiled once, even where the environment asks Python not
# to write bytecode (PYTHONDONTWRITEBYTECODE; the caches are ignored by git).
TEST_ENV := PYTHONDONTWRITEBYTECODE=
test: $(VENV)/.installed-dev chromium postgresql
	$(TEST_ENV) $(BIN)/python -m compileall -q -j 0 src tests examples
	$(TEST_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal

## test-fast: the suite without the slow property tests
test-fast: $(VENV)/.installed-dev chromium postgresql
	$(TEST_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist worksteal -m "not slow"

## bench: throughput benchmark (games per second)
bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/throughput.py

## profile: where a batch of random games spends its time
profile: $(VENV)/.installed-dev
	$(BIN)/python -m pyinstrument benchmarks/throughput.py --games 200

## coverage: rule IDs without a test
coverage: $(VENV)/.installed-dev
	$(BIN)/boardwright rules coverage

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis src/*.egg-info build
	rm -f src/boardwright/games/carcassonne/native/_engine*.so
