"""The modules of the game and the device import each other without circles, with no module
``__getattr__`` facades, and forget modules only through ``rolit_core.lifetime.use_once``.

Every import counts, also those inside functions (they are how rarely used code is loaded
where it is used): a circle through one of them is still a circle.
"""

import ast
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = ("rolit_core", "hardware")


def sources():
    """``{module name: path}`` of code.py and every module of the two packages."""
    found = {"code": os.path.join(ROOT, "code.py")}
    for package in PACKAGES:
        folder = os.path.join(ROOT, package)
        for name in sorted(os.listdir(folder)):
            if name.endswith(".py"):
                module = package if name == "__init__.py" else package + "." + name[:-3]
                found[module] = os.path.join(folder, name)
    return found


def imports_of(module, path, known):
    """The known modules that ``module`` imports anywhere in its file."""
    with open(path) as handle:
        tree = ast.parse(handle.read(), path)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                base = base + "." + node.module if node.module else base
            else:
                base = node.module
            # "from . import save" and "from rolit_core import save" import that module
            names = [base + "." + alias.name for alias in node.names
                     if base + "." + alias.name in known]
            if not names or node.module:
                names.append(base)
        else:
            continue
        for name in names:
            if name in known and name != module:
                found.add(name)
            top = name.partition(".")[0]
            if top in PACKAGES and top != module.partition(".")[0] and top in known:
                found.add(top)  # another package's __init__ runs first
    return found


def graph():
    known = sources()
    return {module: imports_of(module, path, known) for module, path in known.items()}


def circles(edges):
    """Every circle found by a depth-first walk, each as the list of its modules."""
    found = []
    state = {}

    def visit(module, trail):
        state[module] = 1
        trail.append(module)
        for other in sorted(edges[module]):
            if state.get(other) == 1:
                found.append(trail[trail.index(other):] + [other])
            elif other not in state:
                visit(other, trail)
        trail.pop()
        state[module] = 2

    for module in sorted(edges):
        if module not in state:
            visit(module, [])
    return found


def test_the_finder_sees_a_circle_through_a_function_level_import(tmp_path):
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}
    assert circles(edges) == [["a", "b", "c", "a"]]
    path = tmp_path / "probe.py"
    path.write_text("def later():\n    from .game import Game\n")
    assert imports_of("rolit_core.probe", str(path), {"rolit_core.game"}) == {"rolit_core.game"}


def test_no_import_circles():
    edges = graph()
    assert "hardware.main" in edges["code"] and "rolit_core.app" in edges["hardware.main"]
    assert "rolit_core.board" in edges["rolit_core.game"]
    found = circles(edges)
    assert not found, "import circles: " + "; ".join([" -> ".join(c) for c in found])


SURGERY = re.compile(r"del sys\.modules|sys\.modules\s*\[[^]]*\]\s*=|"
                     r"sys\.modules\.(pop|popitem|clear|update|setdefault)\(")


def test_the_surgery_pattern_sees_each_way_of_changing_sys_modules():
    for text in ('del sys.modules["a"]', 'sys.modules["a"] = m', 'sys.modules.pop("a", None)',
                 "sys.modules.clear()", "sys.modules.update(d)", 'sys.modules.setdefault("a", m)'):
        assert SURGERY.search(text), text
    assert not SURGERY.search('board = sys.modules.get("board")')


def test_no_module_getattr_and_no_sys_modules_surgery_but_in_lifetime():
    for module, path in sources().items():
        with open(path) as handle:
            text = handle.read()
        tree = ast.parse(text, path)
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                assert node.name != "__getattr__", "%s has a module __getattr__" % module
        if module != "rolit_core.lifetime":  # reading it (is ``board`` Blinka's?) is no surgery
            assert not SURGERY.search(text), "%s changes sys.modules" % module
