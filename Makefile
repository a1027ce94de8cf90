# Rolit Handheld. `make play` runs the game, `make web` serves the browser edition, `make test`
# runs every test. Each target sets up what it needs on a fresh machine: a virtual environment in
# .venv with the pinned Python packages of requirements.txt (every target), the pinned npm
# packages of package-lock.json (web, test, bench), and for `make test` Playwright
# (requirements-browser.txt) and Debian's Chromium (the `chromium` target).

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SETUP := $(VENV)/.installed node_modules/.installed

.PHONY: play test bench arena tune book deploy emulate setup clean web chromium fat-tools mutants

# Quitting with Ctrl-C is a normal end of the game, not a failed recipe: no "Error 130" from make.
# A Ctrl-C typed at the terminal stops make as well, which then says "Interrupt" and ends with 130.
play: $(VENV)/.installed
	@$(PY) -m sim $(ARGS) || { status=$$?; [ $$status = 130 ] || exit $$status; }

test: $(SETUP) $(VENV)/.browser chromium fat-tools
	$(PY) -m pytest $(PYTEST_ARGS)

bench: $(SETUP)
	$(PY) -m bench $(ARGS)

arena: $(VENV)/.installed
	$(PY) -m sim.arena $(ARGS)

# Fit the computer players' evaluation from self-play and games against MCTS (bench/tune.py; hours
# of CPU).
tune: $(VENV)/.installed
	$(PY) -m bench.tune $(ARGS)

# Build the opening book rolit_core/book.bin from expert self-play (bench/book.py; the shipped one,
# `make book ARGS="--seed 1 --games 60"`, took about 9 minutes of CPU: docs/ai.md).
book: $(VENV)/.installed
	$(PY) -m bench.book $(ARGS)

# Mutation testing (mutmut; docs/testing.md): mutants of rolit_core/ and the save stores
# (hardware/saverecord.py, nvmstore.py, filestore.py) against the fast tests named in pyproject.toml's
# [tool.mutmut], in mutants/. All of them take hours: ARGS='"hardware.*"' (names of modules,
# functions, globs) runs a part. Not part of `make test`.
mutants: $(VENV)/.installed
	$(VENV)/bin/mutmut run $(ARGS)
	$(VENV)/bin/mutmut export-cicd-stats
	$(PY) -c "import json; s = json.load(open('mutants/mutmut-cicd-stats.json')); \
	done = s['killed'] + s['survived']; \
	print('mutation score: %d of %d mutants killed (%.1f%%)' % (s['killed'], done, \
	100.0 * s['killed'] / max(done, 1)))"

# make deploy DEST=/media/you/CIRCUITPY [ARGS=--dry-run] [MPY_CROSS=path/to/mpy-cross]
deploy: $(VENV)/.installed
	@test -n "$(DEST)" || { echo "make deploy needs DEST=the CIRCUITPY drive, e.g. DEST=/media/you/CIRCUITPY" >&2; exit 2; }
	$(PY) -m sim.deploy "$(DEST)" $(if $(MPY_CROSS),--mpy-cross "$(MPY_CROSS)") $(ARGS)

# The real CircuitPython firmware on an emulated Pico (docs/emulator.md), set up like `make play`
# plus rp2040js: make emulate FIRMWARE=path/to/circuitpython.uf2 ARGS=--terminal
emulate: $(SETUP)
	$(PY) -m sim.emulate $(if $(FIRMWARE),--firmware "$(FIRMWARE)") $(ARGS)

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

# The deploy tests' real 1 MiB FAT drive needs Debian's mtools and dosfstools: installed like
# chromium (as root, adding packages only), else those tests skip with the reason.
fat-tools:
	@sh tools/install-fat-tools.sh

$(VENV)/.browser: requirements-browser.txt $(VENV)/.installed
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-browser.txt
	touch $@

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis mutants
