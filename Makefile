# Rolit Handheld. `make play` runs the game, `make test` runs every test.
# Both set themselves up on a fresh machine: a virtual environment in .venv with the pinned
# Python packages of requirements.txt, and the pinned npm packages of package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SETUP := $(VENV)/.installed node_modules/.installed

.PHONY: play test bench arena tune deploy setup clean web chromium

play: $(VENV)/.installed
	$(PY) -m sim $(ARGS)

test: $(SETUP) $(VENV)/.browser chromium
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(SETUP)
	$(PY) -m bench $(ARGS)

arena: $(VENV)/.installed
	$(PY) -m sim.arena $(ARGS)

# Fit the computer players' evaluation from self-play (bench/tune.py; hours of CPU).
tune: $(VENV)/.installed
	$(PY) -m bench.tune $(ARGS)

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

# The browser edition: build/web, served on http://127.0.0.1:8000 (docs/web.md).
web: $(SETUP)
	$(PY) web/build.py build/web
	$(PY) web/serve.py build/web 8000

# The browser tests drive Debian's Chromium, never a downloaded browser. Installed here when it is
# missing and apt-get can (as root, as CI runs) by tools/install-chromium.sh: the tested version
# while the archive has it, else the archive's, without recommends, and only if that adds packages
# and changes none already installed. Without it `make test` skips those tests with the reason,
# and CI (.ci/run) fails them.
CHROMIUM_TESTED := 150.0.7871.100-1~deb12u1
chromium:
	@sh tools/install-chromium.sh $(CHROMIUM_TESTED)

$(VENV)/.browser: requirements-browser.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-browser.txt
	touch $@

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis
