"""Without a C compiler the package still installs and plays, on its pure-Python core, saying so once:
setup.py's extensions are optional, and `rules`/`engine` fall back when `_native` cannot be imported.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A Python without the compiled modules (as after an install on a machine with no compiler), playing a little.
WITHOUT_EXTENSIONS = """
import importlib.abc
import sys

class NotBuilt(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name in ("rules._native", "engine._native"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotBuilt())
import rules
from engine import Engine, SearchLimits
from rules import native

board = rules.Board("international")
engine = Engine("russian")
result = engine.search(rules.Board("russian"), SearchLimits(depth=3))
print(native.available(), type(board._gen).__name__, rules.perft(board, 3), type(engine.searcher).__name__,
      result.move in rules.Board("russian").legal_moves)
"""


def test_without_the_extensions_the_package_plays_in_python_with_one_warning_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "DBOARD_PURE_PYTHON"}
    done = subprocess.run([sys.executable, "-c", WITHOUT_EXTENSIONS], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "MoveGen", "658", "Searcher", "True"]
    assert done.stderr.splitlines() == ["draughts-board: the native core is not built (no C compiler at "
                                        "install?); using the pure-Python core"]


def test_the_build_succeeds_without_a_compiler_and_leaves_the_extensions_out(tmp_path: Path) -> None:
    no_compiler = shutil.which("false")
    assert no_compiler is not None
    env = {**os.environ, "CC": no_compiler}
    build = ["build_ext", "--build-lib", str(tmp_path / "lib"), "--build-temp", str(tmp_path / "tmp")]
    done = subprocess.run([sys.executable, "setup.py", "-q", *build], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    for name in ("rules._native", "engine._native"):
        assert f'building extension "{name}" failed' in done.stderr
    assert not list(tmp_path.rglob("*.so"))
