# Two commands for a newcomer: `make demo` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
MEMHOP := $(VENV)/bin/memhop
STAMP := $(VENV)/.memhop-installed
DEMO_HOME ?= $(shell mktemp -d -t memhop-demo-XXXXXX)

.PHONY: install test demo bench clean

install: $(STAMP)

# torch first, pinned to the local CPU wheel: anything that pulls torch later finds it
# satisfied instead of downloading a multi-GB CUDA build.
$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check torch==2.13.0
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

demo: $(STAMP)
	@echo "== memhop demo: a private store in $(DEMO_HOME) =="
	@echo "-- 1. ingest every sample export (formats detected), building profiles and facts"
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) ingest sample_diaries/ --self "Maya Patel"
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) stats
	@echo "-- 2. a multi-hop question, with every hop shown"
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) ask "What instrument does Alice's roommate play?" --trace
	@echo "-- 3. what memhop knows about one person"
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) show Carol
	@echo "-- 4. forget her everywhere, provably, then ask again"
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) forget Carol --yes
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) ask "What does Carol do for a living?"
	MEMHOP_HOME=$(DEMO_HOME) $(MEMHOP) stats

clean:
	rm -rf $(VENV) .pytest_cache
