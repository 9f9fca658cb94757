"""The dame-rs peer (PyPI `dame-rs`, MIT, a Rust international-draughts engine), run in .bench-venv.

`perft()` and `search()` measure it in a subprocess on given positions; `DameEngine` keeps one process
playing moves for bench/match.py. Positions go over as FEN, moves as Hub texts ("28x19x23": from, to,
then every captured square), which both sides parse unambiguously.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

_PERFT = r"""
import json, sys, time, dame
args = json.loads(sys.argv[1])
board = dame.Board(args["fen"]) if args.get("fen") else dame.Board()
best = None
for _ in range(args["repeat"]):
    t0 = time.process_time()
    nodes = dame.perft(board, args["depth"])
    dt = time.process_time() - t0
    best = dt if best is None else min(best, dt)
print(json.dumps({"nodes": nodes, "seconds": best, "version": dame.__version__}))
"""

_SEARCH = r"""
import json, sys, time, dame
args = json.loads(sys.argv[1])
out = []
for fen in args["fens"]:
    engine = dame.Engine()
    board = dame.Board(fen)
    t0 = time.process_time()
    result = engine.search(board, time=args["seconds"])
    out.append({"nodes": result.nodes, "seconds": time.process_time() - t0, "depth": result.depth})
print(json.dumps({"results": out, "version": dame.__version__}))
"""

# One request per line: {"fen": start, "moves": [hub texts], "seconds": s} -> {"move": hub text}
_PLAYER = r"""
import json, sys, dame
engine = dame.Engine()
for line in sys.stdin:
    request = json.loads(line)
    if request.get("new_game"):
        engine.clear()
        continue
    board = dame.Board(request["fen"])
    for text in request["moves"]:
        board.push(board.parse_move(text))
    result = engine.search(board, time=request["seconds"])
    move = result.best_move
    print(json.dumps({"move": move.hub() if move is not None else None, "depth": result.depth,
                      "nodes": result.nodes}), flush=True)
"""


def _run(python: Path, script: str, args: dict[str, object], timeout: float) -> dict[str, object]:
    done = subprocess.run([str(python), "-I", "-c", script, json.dumps(args)], capture_output=True, text=True,
                          timeout=timeout, cwd=tempfile.gettempdir())
    if done.returncode != 0:
        raise RuntimeError(f"dame-rs worker failed: {done.stderr.strip()[-500:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def perft(python: Path, depth: int, fen: str | None = None, repeat: int = 1) -> tuple[int, float, str]:
    """dame.perft from `fen` (default the start): (leaves, best seconds of `repeat`, dame-rs version)."""
    out = _run(python, _PERFT, {"depth": depth, "fen": fen, "repeat": repeat}, 900)
    return int(out["nodes"]), float(out["seconds"]), str(out["version"])  # type: ignore[arg-type]


def search(python: Path, fens: list[str], seconds: float) -> tuple[list[tuple[int, float, int]], str]:
    """A fresh dame.Engine searching each FEN for `seconds`: [(nodes, CPU seconds, depth)], version."""
    out = _run(python, _SEARCH, {"fens": fens, "seconds": seconds}, 60 + 10 * seconds * len(fens))
    rows = [(int(r["nodes"]), float(r["seconds"]), int(r["depth"])) for r in out["results"]]  # type: ignore[attr-defined]
    return rows, str(out["version"])


class DameEngine:
    """A dame-rs engine in its own process, answering one move request at a time."""

    def __init__(self, python: Path) -> None:
        self._proc = subprocess.Popen([str(python), "-I", "-c", _PLAYER], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, bufsize=1, cwd=tempfile.gettempdir())

    def __repr__(self) -> str:
        return f"DameEngine(pid={self._proc.pid})"

    def play(self, fen: str, moves: list[str], seconds: float) -> str | None:
        """dame-rs's move (Hub text) in the position `moves` reach from `fen`, searched for `seconds`."""
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._proc.stdin.write(json.dumps({"fen": fen, "moves": moves, "seconds": seconds}) + "\n")
        line = self._proc.stdout.readline()
        if not line:
            raise RuntimeError(f"dame-rs player exited with {self._proc.wait()}")
        return json.loads(line)["move"]  # type: ignore[no-any-return]

    def new_game(self) -> None:
        """Clear dame-rs's tables."""
        assert self._proc.stdin is not None
        self._proc.stdin.write(json.dumps({"new_game": True}) + "\n")

    def close(self) -> None:
        """End the process."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
