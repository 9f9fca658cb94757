"""The packages' dependencies point one way (README, "The parts"): checked on every import statement and on
every dynamic import (``importlib.import_module``, ``__import__``, rules.native's ``load_extension``) whose
module name the source shows."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> the packages of ours it may import
ALLOWED = {
    "readers": set(),                                 # checked reading of files and messages: a leaf
    "i18n": set(),                                    # the words in the players' languages: a leaf
    "rules": {"readers"},                             # the rules core imports nothing of ours but the readers
    "firmware_bridge": {"readers"},                   # knows nothing of the rules
    "engine": {"readers", "rules"},
    "controller": {"readers", "rules", "firmware_bridge", "engine", "i18n"},   # joins them
    "web": {"readers", "rules", "firmware_bridge", "controller", "i18n"},
    "hall": {"readers", "rules", "controller", "web", "i18n"},   # the broadcast wire, the access checks
}
# `dboard play` is where the console and the web page are put together, so it may start the web server;
# the `dboard` command lists `dboard hall` and `dboard stats` among its subcommands.
COMPOSITION_ROOTS = {("controller/play_cli.py", "web"), ("controller/cli.py", "hall"),
                     ("controller/cli.py", "web")}


DYNAMIC = {"import_module", "__import__", "load_extension"}   # load_extension: rules.native's, of _native


def _strings(node: ast.expr) -> list[str] | None:
    """The strings a constant string, tuple or list of strings holds (None for anything else)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List):
        items = [_strings(e) for e in node.elts]
        return None if any(i is None for i in items) else [s for i in items for s in i or []]
    return None


def _forwarded(tree: ast.Module) -> set[int]:
    """The ids of the calls by which a function named in DYNAMIC passes its own parameter on (load_extension's
    import_module(name)): that name is checked where the function is called, as the caller writes it."""
    calls: set[int] = set()
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef) and function.name in DYNAMIC:
            params = {a.arg for a in function.args.args}
            calls |= {id(c) for c in ast.walk(function) if isinstance(c, ast.Call) and c.args
                      and isinstance(c.args[0], ast.Name) and c.args[0].id in params}
    return calls


def _dynamic_names(tree: ast.Module) -> set[str]:
    """Module names passed to import_module/__import__/load_extension: a string, a name bound to one, or the
    loop variable of a ``for`` over a module-level constant tuple of strings. Anything else is unverifiable: a
    failure (but for a DYNAMIC function's passing on of its parameter, see _forwarded)."""
    constants: dict[str, list[str]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            values = _strings(node.value)
            for target in targets:
                if isinstance(target, ast.Name) and values is not None:
                    constants[target.id] = values
    loops: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            it = node.iter
            values = constants.get(it.id) if isinstance(it, ast.Name) else _strings(it)
            if values is not None:
                loops[node.target.id] = values
    names: set[str] = set()
    forwarded = _forwarded(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args) or id(node) in forwarded:
            continue
        func = node.func
        called = getattr(func, "attr", None) or getattr(func, "id", "")
        if called not in DYNAMIC:
            continue
        arg = node.args[0]
        found = _strings(arg)
        if found is None and isinstance(arg, ast.Name):
            found = constants.get(arg.id) or loops.get(arg.id)
        if found is None:
            names.add(f"<unverifiable dynamic import at line {node.lineno}>")
        else:
            names.update(found)
    return names


def imported_packages(path: Path) -> set[str]:
    """Top-level names of every absolute import in ``path`` (function-level and dynamic imports included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = {name.split(".")[0] for name in _dynamic_names(tree)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_dependencies_point_one_way() -> None:
    wrong = []
    for package, allowed in ALLOWED.items():
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            imported = imported_packages(path)
            wrong += [f"{name}: {what}" for what in imported if what.startswith("<unverifiable")]
            for other in imported & set(ALLOWED) - {package} - allowed:
                if (name, other) not in COMPOSITION_ROOTS:
                    wrong.append(f"{name} imports {other}")
    assert wrong == []


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from controller.session import Session\n    import web.server\n")
    assert imported_packages(module) == {"controller", "web"}


def test_the_check_sees_dynamic_imports(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import importlib\nPLUGINS = ('engine.cli', 'web.app')\n"
                      "def f():\n    importlib.import_module('controller.session')\n"
                      "    for name in PLUGINS:\n        importlib.import_module(name)\n"
                      "    __import__('firmware_bridge')\n")
    assert imported_packages(module) == {"importlib", "controller", "engine", "web", "firmware_bridge"}


def test_the_check_sees_what_load_extension_loads(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import importlib\n"
                      "def load_extension(name):\n    return importlib.import_module(name)\n"
                      "def other(name):\n    return importlib.import_module(name)\n"
                      "load_extension('engine._native')\n")
    assert imported_packages(module) == {"importlib", "engine", "<unverifiable dynamic import at line 5>"}


def test_an_unverifiable_dynamic_import_is_reported(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import importlib\ndef f(name):\n    return importlib.import_module(name)\n")
    assert "<unverifiable dynamic import at line 3>" in imported_packages(module)


# -- import cycles -------------------------------------------------------------------------------------------
# A cycle makes import order matter (a name read from a half-initialised module) and keeps the modules in it
# from being read, tested or replaced apart. Checked on the imports that run: top-level and function-local
# ones, not those under `if TYPE_CHECKING:` (annotations only). The compiled `_native` extensions have no .py
# to follow and import nothing of ours.


def module_name(path: Path) -> str:
    """The dotted module name of a .py file under ROOT (a package is its __init__)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    """Whether an `if` tests TYPE_CHECKING (``TYPE_CHECKING`` or ``typing.TYPE_CHECKING``)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _runtime_import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """`node` if it is an import statement, else every import statement under it at any depth (function-local
    ones too), except in the body of an `if TYPE_CHECKING:` (its `else:` runs)."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        yield node
    elif isinstance(node, ast.If) and _is_type_checking(node.test):
        for child in node.orelse:
            yield from _runtime_import_nodes(child)
    else:
        for child in ast.iter_child_nodes(node):
            yield from _runtime_import_nodes(child)


def runtime_imports(path: Path, modules: set[str]) -> set[str]:
    """The modules among `modules` that `path` imports when it runs: `from pkg import name` is pkg.name when
    that is a module, else pkg; relative imports resolved; the `_native` extensions left out."""
    current = module_name(path)
    package = current if path.name == "__init__.py" else current.rpartition(".")[0]
    targets: set[str] = set()
    for node in _runtime_import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            named = [(alias.name, alias.name) for alias in node.names]   # (what is named, else what is meant)
        else:
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            base = ".".join(part for part in (base, node.module) if part)
            named = [(f"{base}.{alias.name}", base) for alias in node.names]
        for full, fallback in named:
            if "_native" in full.split("."):
                continue
            name = full if full in modules else fallback
            while name and name not in modules:   # a name inside a module, or outside the product
                name = name.rpartition(".")[0]
            if name and name != current:
                targets.add(name)
    return targets


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of `graph` having two or more nodes, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


def import_graph() -> dict[str, set[str]]:
    """Each module of the product's packages -> the modules of them it imports at run time."""
    paths = [path for package in sorted(ALLOWED) for path in sorted((ROOT / package).rglob("*.py"))]
    modules = {module_name(path) for path in paths}
    return {module_name(path): runtime_imports(path, modules) for path in paths}


def test_no_import_cycles() -> None:
    cycles = strongly_connected(import_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def test_the_cycle_check_counts_function_local_imports_and_not_type_checking_ones() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import a\n"
                     "else:\n    import b\ndef f():\n    import c\n")
    assert [ast.unparse(node) for node in _runtime_import_nodes(tree)] == [
        "from typing import TYPE_CHECKING", "import b", "import c"]
    assert strongly_connected({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"e"}}) == [["a", "b", "c"]]


# The controller's core is sans-IO, as h11 is: fed values, it never runs a loop, a thread, a process, a socket
# or a database of its own. The Session (asyncio), the engine routing (threads), the ratings (sqlite) and the
# command-line tools do that around it.
CORE = ("machine", "states", "state_names", "reading", "host", "watch", "voice", "view", "claims", "table",
        "ports", "offline", "errors", "inference", "lights", "record", "journal", "health", "lessons",
        "exercises", "replay", "commands", "events", "settings")
SHELL_ONLY = {"asyncio", "threading", "multiprocessing", "socket", "sqlite3", "concurrent", "selectors"}


def shell_imports(path: Path) -> set[str]:
    """The modules of SHELL_ONLY that `path` imports when it runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in _runtime_import_nodes(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names & SHELL_ONLY


def test_the_controllers_core_is_sans_io() -> None:
    found = {name: shell_imports(ROOT / "controller" / f"{name}.py") for name in CORE}
    assert not {name: used for name, used in found.items() if used}


def test_the_sans_io_check_sees_a_thread(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("import json\ndef f():\n    from threading import Event\n",
                                   encoding="utf-8")
    assert shell_imports(tmp_path / "x.py") == {"threading"}
