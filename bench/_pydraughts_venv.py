"""The benchmark peers' own virtualenv, .bench-venv: py-draughts (its import name `draughts` clashes with
pydraughts in the project's .venv) and dame-rs (a Rust engine; see bench/_dame.py), both from PyPI.

`peer_python()` creates .bench-venv in the repository (python -m venv + pip install of the peers) when
missing;
`measure()` runs one py-draughts perft in that interpreter in a subprocess and returns (leaf nodes, seconds).
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import tempfile
from pathlib import Path

log = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parent.parent
BENCH_VENV = ROOT / ".bench-venv"
PEER_PACKAGES = ("py-draughts", "dame-rs")

# Runs inside the bench venv with -I (isolated: neither the repo nor PYTHONPATH is importable).
_WORKER = r"""
import json, sys, time
from draughts import AmericanBoard, StandardBoard
from draughts.engines.turbo import perft_from_board

args = json.loads(sys.argv[1])
cls = {"standard": StandardBoard, "american": AmericanBoard}[args["variant"]]
board = cls.from_fen(args["fen"]) if args.get("fen") else cls()

def api_perft(b, depth):
    moves = b.legal_moves
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        b.push(m)
        total += api_perft(b, depth - 1)
        b.pop()
    return total

best = None
for _ in range(args["repeat"]):
    t0 = time.process_time()
    if args["method"] == "api":
        nodes = api_perft(board, args["depth"])
    else:
        nodes = perft_from_board(board, args["depth"])
    dt = time.process_time() - t0
    best = dt if best is None else min(best, dt)
print(json.dumps({"nodes": nodes, "seconds": best, "version": __import__("draughts").__version__}))
"""


def peer_python() -> Path:
    """The bench venv's interpreter, creating the venv and installing the peers if needed."""
    python = BENCH_VENV / "bin" / "python"
    probe = [str(python), "-I", "-c", "import draughts.engines.turbo, draughts.boards.american, dame"]
    if python.exists() and subprocess.run(probe, capture_output=True, timeout=120).returncode == 0:
        return python
    log.info("creating %s with %s", BENCH_VENV, ", ".join(PEER_PACKAGES))
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True, timeout=300)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *PEER_PACKAGES], check=True, timeout=900)
    subprocess.run(probe, check=True, timeout=120)
    return python


def measure(
    python: Path,
    variant: str,
    depth: int,
    method: str,
    fen: str | None = None,
    repeat: int = 1,
    timeout: float = 900,
) -> tuple[int, float, str]:
    """Perft in py-draughts: `variant` is "standard" or "american", `method` "api" (legal_moves +
    push/pop at every node) or "turbo" (its internal bitboard perft). Returns (nodes, seconds, version)."""
    args = json.dumps({"variant": variant, "depth": depth, "method": method, "fen": fen, "repeat": repeat})
    done = subprocess.run(
        [str(python), "-I", "-c", _WORKER, args], capture_output=True, text=True, timeout=timeout,
        cwd=tempfile.gettempdir(),
    )
    if done.returncode != 0:
        raise RuntimeError(f"py-draughts worker failed: {done.stderr.strip()[-500:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return int(out["nodes"]), float(out["seconds"]), str(out["version"])
