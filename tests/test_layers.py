"""The packages' dependencies point one way (README, "The parts"): checked on every import statement and on
every dynamic import (``importlib.import_module``, ``__import__``, rules.native's ``load_extension``) whose
module name the source shows."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> the packages of ours it may import
ALLOWED = {
    "readers": set(),                                 # checked reading of files and messages: a leaf
    "rules": {"readers"},                             # the rules core imports nothing of ours but the readers
    "firmware_bridge": {"readers"},                   # knows nothing of the rules
    "engine": {"readers", "rules"},
    "controller": {"readers", "rules", "firmware_bridge", "engine"},   # joins them
    "web": {"readers", "rules", "firmware_bridge", "controller"},
    "hall": {"readers", "rules", "controller", "web"},   # the broadcast wire, the access checks
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
