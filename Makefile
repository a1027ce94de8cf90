# Rolit Handheld. `make play` runs the game, `make test` runs every test.
# Both set themselves up on a fresh machine: a virtual environment in .venv with the pinned
# Python packages of requirements.txt, and the pinned npm packages of package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SETUP := $(VENV)/.installed node_modules/.installed

.PHONY: play test bench arena deploy setup clean

play: $(VENV)/.installed
	$(PY) -m sim $(ARGS)

test: $(SETUP)
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(SETUP)
	$(PY) -m bench $(ARGS)

arena: $(VENV)/.installed
	$(PY) -m sim.arena $(ARGS)

# make deploy DEST=/media/you/CIRCUITPY
deploy: $(VENV)/.installed
	$(PY) -m sim.deploy $(DEST) $(ARGS)

setup: $(SETUP)

# The project itself goes in as an editable package, so `python -m sim` works from any folder.
$(VENV)/.installed: requirements.txt pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --silent
	touch $@

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis
