"""Run every benchmark and print its figures: ``python -m bench [NAME ...]``."""

import importlib
import sys

# Each module has main(), which prints its figures.
BENCHMARKS = ("core", "ai", "app", "hardware", "sim", "memory", "web")


def main(argv):
    names = argv or BENCHMARKS
    for name in names:
        try:
            module = importlib.import_module("bench." + name)
        except ModuleNotFoundError as error:
            if error.name != "bench." + name:
                raise
            continue
        print("== %s ==" % name)
        sys.stdout.flush()
        module.main()
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
