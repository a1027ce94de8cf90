"""How long code stays loaded: :class:`use_once`, the one place that forgets modules.

A board's heap holds the code of every module imported. Code needed only once (reading a save,
building the device from its settings) is imported with ``use_once``, used, and forgotten, so
that the collector frees it. Code needed now and then (game records, position text) is simply
imported inside the function that needs it, from the module that defines it.
"""

import sys


class use_once:
    """``with use_once("hardware.startup") as startup: ...``: the module, imported for the
    block; at its end (also on an exception) the module is forgotten by ``sys.modules`` and its
    package, together with the modules it names in ``USED_ONCE`` (those that only it uses). Once
    the block's names let go of it, nothing refers to its code and the collector frees it.

    What the block made that lives on (objects, classes) keeps the code it needs. A forgotten
    module imported again by name is loaded again: nothing else may import these modules."""

    def __init__(self, name):
        self.name = name
        self.module = None

    def __enter__(self):
        __import__(self.name)
        self.module = sys.modules[self.name]
        return self.module

    def __exit__(self, kind, error, trace):
        names = [self.name]
        names.extend(getattr(self.module, "USED_ONCE", ()))
        self.module = None
        for name in names:
            sys.modules.pop(name, None)
            dot = name.rfind(".")
            package = sys.modules.get(name[:dot]) if dot > 0 else None
            if package is not None and hasattr(package, name[dot + 1:]):
                delattr(package, name[dot + 1:])
        return False
