"""Copies of parts of the checkout, for tests that need a tree of their own."""

import os
import shutil


def copy_parts(root, parts, dest):
    """Copy each of ``parts`` (folders or files, relative to ``root``) into ``dest`` at the same
    place, without ``__pycache__`` folders; a part that does not exist is left out."""
    for part in parts:
        source = os.path.join(root, part)
        target = os.path.join(str(dest), part)
        if os.path.isdir(source):
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        elif os.path.exists(source):
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy2(source, target)
