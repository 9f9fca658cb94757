"""Benchmark: games per second of the PDN reader, against pydraughts' PDNReader on the same file.

Builds a file of real international games (four PDN corpus files with GameType 20, repeated),
then times: our reader (syntax only), our reader validating every move, our headers-only scan, and
`draughts.PDN.PDNReader` (pydraughts 0.6.7). Prints games/s and the ratio ours / pydraughts.
Usage: .venv/bin/python bench/pdn.py [--games N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rules.pdn import PdnReader, scan

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "pdn-corpus" / "succeed"
SOURCES = ("wk2003.pdn", "nk ronde 02.pdn", "PROF2.pdn", "DUTCH96H.pdn")


def build_file(directory: Path, games: int) -> tuple[Path, int]:
    """A PDN file of about `games` real games; returns its path and exact game count."""
    text = "".join((CORPUS / name).read_text(encoding="utf-8").strip() + "\n\n" for name in SOURCES)
    per_copy = sum(1 for _ in scan(text.splitlines()))
    copies = max(1, round(games / per_copy))
    path = directory / "bench.pdn"
    path.write_text(text * copies, encoding="utf-8")
    return path, per_copy * copies


def timed(label: str, func: Callable[[], int], expected: int) -> float:
    start = time.perf_counter()
    count = func()
    elapsed = time.perf_counter() - start
    rate = count / elapsed
    print(f"{label:<42} {count:>6} games {elapsed:8.3f} s {rate:10.0f} games/s")
    if count != expected:
        print(f"  warning: expected {expected} games, got {count}")
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the generated file (default 1000)")
    args = parser.parse_args(argv)
    from draughts.PDN import PDNReader

    with tempfile.TemporaryDirectory() as tmp:
        path, count = build_file(Path(tmp), args.games)
        print(f"file: {count} real international games, {path.stat().st_size / 1e6:.1f} MB")

        def ours(validate: bool) -> int:
            with path.open(encoding="utf-8") as handle:
                return sum(1 for _ in PdnReader(handle, validate=validate))

        def headers() -> int:
            with path.open(encoding="utf-8") as handle:
                return sum(1 for _ in scan(handle))

        def theirs() -> int:
            return len(PDNReader(filename=str(path)).games)

        syntax = timed("rules.pdn PdnReader (syntax only)", lambda: ours(False), count)
        checked = timed("rules.pdn PdnReader (validated)", lambda: ours(True), count)
        scanned = timed("rules.pdn scan (headers only)", headers, count)
        peer = timed("pydraughts draughts.PDN.PDNReader", theirs, count)
    print(f"ratio syntax-only / pydraughts:  {syntax / peer:6.1f}x")
    print(f"ratio validated / pydraughts:    {checked / peer:6.1f}x")
    print(f"ratio headers scan / pydraughts: {scanned / peer:6.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
