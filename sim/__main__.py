"""``python -m sim``: see sim/cli.py and docs/simulator.md."""

import sys

from sim.cli import main

sys.exit(main())
