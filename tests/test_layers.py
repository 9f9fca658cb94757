"""The packages' dependencies point one way (README, "The parts"): checked on every import statement."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> the packages of ours it may import
ALLOWED = {
    "rules": set(),                                   # the rules core imports nothing of ours
    "firmware_bridge": set(),                         # knows nothing of the rules
    "engine": {"rules"},
    "controller": {"rules", "firmware_bridge", "engine"},   # joins them
    "web": {"rules", "firmware_bridge", "controller"},
}
# `dboard play` is where the console and the web page are put together, so it may start the web server.
COMPOSITION_ROOTS = {("controller/play_cli.py", "web")}


def imported_packages(path: Path) -> set[str]:
    """Top-level names of every absolute import in ``path`` (function-level imports included)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
            for imported in imported_packages(path) & set(ALLOWED) - {package} - allowed:
                if (name, imported) not in COMPOSITION_ROOTS:
                    wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_the_check_sees_a_wrong_import(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from controller.session import Session\n    import web.server\n")
    assert imported_packages(module) == {"controller", "web"}
