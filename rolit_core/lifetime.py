"""How long code stays loaded: :class:`use_once`, :func:`load` and :func:`forget`, the one
place that forgets modules.

A board's heap holds the code of every module imported. Code needed only once (reading a save,
building the device from its settings) is imported with ``use_once``, used, and forgotten, so
that the collector frees it. Code needed for a stretch of the session longer than one block (a
linked game) is loaded with ``load`` when the stretch begins and forgotten with ``forget`` when
it ends. Code needed now and then (game records, position text) is simply imported inside the
function that needs it, from the module that defines it.
"""

import sys


def load(name):
    """The module ``name``, imported (if it is not yet) to be used until ``forget(name)``."""
    __import__(name)
    return sys.modules[name]


def forget(name):
    """Forget the module ``name`` in ``sys.modules`` and its package, together with the modules
    it names in ``USED_ONCE`` (those that only it uses). Once nothing refers to its objects,
    the collector frees its code. A forgotten module imported again by name is loaded again:
    nothing else may import these modules meanwhile."""
    names = [name]
    names.extend(getattr(sys.modules.get(name), "USED_ONCE", ()))
    for name in names:
        sys.modules.pop(name, None)
        dot = name.rfind(".")
        package = sys.modules.get(name[:dot]) if dot > 0 else None
        if package is not None and hasattr(package, name[dot + 1:]):
            delattr(package, name[dot + 1:])


class use_once:
    """``with use_once("hardware.startup") as startup: ...``: the module, imported for the
    block; at its end (also on an exception) it is forgotten (:func:`forget`). Once the
    block's names let go of it, nothing refers to its code and the collector frees it.

    What the block made that lives on (objects, classes) keeps the code it needs."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        return load(self.name)

    def __exit__(self, kind, error, trace):
        forget(self.name)
        return False
