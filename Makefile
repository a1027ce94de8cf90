# Rolit Handheld. `make play` runs the game, `make test` runs every test.
# Both set themselves up on a fresh machine: a virtual environment in .venv with the pinned
# Python packages of requirements.txt, and the pinned npm packages of package-lock.json.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SETUP := $(VENV)/.installed node_modules/.installed

.PHONY: play test bench arena tune deploy setup clean web chromium mutants

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

# Mutation testing (mutmut; docs/testing.md): mutants of rolit_core/ and the save stores
# (hardware/storage.py, hardware/filestore.py) against the fast tests named in pyproject.toml's
# [tool.mutmut], in mutants/. All of them take hours: ARGS='"hardware.*"' (names of modules,
# functions, globs) runs a part. Not part of `make test`.
mutants: $(VENV)/.installed
	$(VENV)/bin/mutmut run $(ARGS)
	$(VENV)/bin/mutmut export-cicd-stats
	$(PY) -c "import json; s = json.load(open('mutants/mutmut-cicd-stats.json')); \
	done = s['killed'] + s['survived']; \
	print('mutation score: %d of %d mutants killed (%.1f%%)' % (s['killed'], done, \
	100.0 * s['killed'] / max(done, 1)))"

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
# missing and apt-get can (as root, as CI runs); without it `make test` skips those tests with the
# reason, and CI (.ci/run) fails them. Tested with this version; a newer one is taken if the
# archive has moved on.
CHROMIUM_TESTED := 150.0.7871.100-1~deb12u1
chromium:
	@if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
		echo "Installing Debian's chromium for the browser tests"; \
		export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && \
		{ apt-get install -y -qq chromium=$(CHROMIUM_TESTED) || apt-get install -y -qq chromium; } || \
		echo "Could not install chromium: the browser tests will say so"; \
	fi

$(VENV)/.browser: requirements-browser.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-browser.txt
	touch $@

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis mutants
