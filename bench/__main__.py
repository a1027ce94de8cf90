"""Run every benchmark and print its figures: ``python -m bench [NAME ...]``, or one benchmark with
its options: ``python -m bench core --compare [REV]``."""

import importlib
import sys

# Each module has main(), which prints its figures.
# memory, device and link run the real firmware on the emulated Pico: tens of minutes
# (docs/emulator.md).
BENCHMARKS = ("core", "ai", "app", "hardware", "sim", "memory", "web", "device", "link", "net")


def main(argv):
    options = []
    for at, word in enumerate(argv):
        if word.startswith("-"):
            argv, options = argv[:at], argv[at:]
            break
    if options and len(argv) != 1:
        print("python -m bench: options such as %s go after one benchmark's name "
              "(python -m bench core --compare)" % options[0], file=sys.stderr)
        return 2
    unknown = [name for name in argv if name not in BENCHMARKS]
    if unknown:
        print("python -m bench: no benchmark %s: the benchmarks are %s"
              % (", ".join([repr(name) for name in unknown]), ", ".join(BENCHMARKS)),
              file=sys.stderr)
        return 2
    names = argv or BENCHMARKS
    try:
        for name in names:
            try:
                module = importlib.import_module("bench." + name)
            except ModuleNotFoundError as error:
                if error.name != "bench." + name:
                    raise
                continue
            print("== %s ==" % name)
            sys.stdout.flush()
            if options and not module.main.__code__.co_argcount:
                print("python -m bench: %s takes no options" % name, file=sys.stderr)
                return 2
            if options:
                status = module.main(options)
                if status:
                    return status
            else:
                module.main()
            print()
    except KeyboardInterrupt:  # Ctrl-C: no traceback, the usual status
        sys.stderr.write("\n")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
