"""Files that a tool writes from the project's own data (diagrams, the handout): written whole or
not at all, and checked for being up to date."""

import os


def update(path, data, check=False, root=None):
    """Make ``path`` hold ``data``: 0 when it already does; with ``check``, 1 and a line naming
    it when it does not. The new text goes beside the file and is renamed over it, so a failed
    write leaves the old file as it was."""
    try:
        with open(path, encoding="utf-8") as handle:
            if handle.read() == data:
                return 0
    except OSError:
        pass
    shown = os.path.relpath(path, root) if root else path
    if check:
        print("out of date:", shown)
        return 1
    temporary = path + ".new"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(data)
    os.replace(temporary, path)
    print("wrote", shown)
    return 0
