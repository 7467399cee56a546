# Two commands for a newcomer: `make demo` and `make test` (`make test-fast` skips the slow
# tests, under a minute). All of them set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MEMHOP := $(VENV)/bin/memhop
STAMP := $(VENV)/.memhop-installed

.PHONY: install lint test test-fast test-model demo clean

install: $(STAMP)

# torch first, pinned to the local CPU wheel: anything that pulls torch later finds it
# satisfied instead of downloading a multi-GB CUDA build.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check torch==2.13.0
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test,bench,lint,mcp]'
	touch $(STAMP)

# ruff and mypy over the installed package (settings in pyproject.toml).
lint: $(STAMP)
	$(VENV)/bin/ruff check cli core memhop
	$(VENV)/bin/mypy

test: $(STAMP)
	$(PY) -m pytest

# The tests not marked slow (no crash runs, subprocess CLIs, model comparisons, benchmark run).
test-fast: $(STAMP)
	$(PY) -m pytest -m "not slow"

# The openai engine against a real model (not part of `make test`): Qwen2.5-Coder 1.5B on
# llama.cpp's OpenAI-compatible server on 127.0.0.1 writes the diary's first four entries and
# answers the demo's questions. 10-30 s a call on 2 idle cores, plus a one-off 7-26 min build of
# llama-cpp-python into .venv-model (its wheel and the model are cached). scripts/test_model.py.
test-model: $(STAMP)
	$(PY) scripts/test_model.py

# One shell for the whole demo, so every step uses the same temporary store.
demo: $(STAMP)
	@set -e; home=$$(mktemp -d -t memhop-demo-XXXXXX); export MEMHOP_HOME=$$home; \
	run() { echo "\$$ memhop $$*"; $(MEMHOP) "$$@"; }; \
	echo "== memhop demo: a private store in $$home =="; \
	echo "-- 1. ingest every sample export (formats detected), building profiles and facts"; \
	run ingest sample_diaries/ --self "Maya Patel"; \
	run stats; \
	echo "-- 2. a multi-hop question, with every hop shown"; \
	run ask "What instrument does Alice's roommate play?" --trace; \
	echo "-- 3. what memhop knows about one person"; \
	run show Carol; \
	echo "-- 4. forget her everywhere, provably, then ask again"; \
	run forget Carol --yes; \
	run ask "What does Carol do for a living?"; \
	run stats

clean:
	rm -rf $(VENV) .venv-model .pytest_cache
