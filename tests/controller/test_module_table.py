"""controller/README.md's module table names every module of the controller, and nothing that is gone."""

from __future__ import annotations

import re
from pathlib import Path

CONTROLLER = Path(__file__).resolve().parents[2] / "controller"


def test_the_module_table_names_every_module() -> None:
    text = (CONTROLLER / "README.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([a-z_]+\.py|[a-z_]+/)`", row.split("|")[1])}
    modules = {path.name for path in CONTROLLER.glob("*.py") if path.name != "__init__.py"}
    packages = {f"{path.name}/" for path in CONTROLLER.iterdir() if (path / "__init__.py").exists()}
    every = modules | packages
    assert every <= named, f"not in the table: {sorted(every - named)}"
    assert named <= every, f"in the table but gone: {sorted(named - every)}"
