"""Benchmark: games per second of the PDN reader, against pydraughts' PDNReader on the same file; then
time and memory on hostile input (issue 13, item 17), against the same peer.

Builds a file of real international games (four PDN corpus files with GameType 20, repeated),
then times: our reader (syntax only), our reader validating every move, our headers-only scan, and
`draughts.PDN.PDNReader` (pydraughts 0.6.7). Prints games/s and the ratio ours / pydraughts.

Hostile cases (a 10 MB tag value, a 10 MB unterminated tag, a 10 MB line of moves, 100,000 sibling
variations, 100,000 games) are each read in a fresh process, ours as `dboard pdn check` reads (validated),
once timed and once traced by tracemalloc, each within a time limit (--timeout) and 4 GB of address space;
it prints seconds and peak memory for both and the ratios ours / pydraughts (below 1: ours is faster or
smaller; "> 60 s": the reader had not finished).
Usage: .venv/bin/python bench/pdn.py [--games N] [--mb 10] [--count 100000] [--timeout 60]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from rules.pdn import PdnReader, scan
from rules.pdn.encoding import DecodedLines

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


HOSTILE: dict[str, Callable[[int, int], str]] = {   # (megabytes, count) -> file text
    "{mb} MB tag value": lambda mb, n: '[Event "' + "a" * mb * 1_000_000 + '"]\n1. 32-28 *\n',
    "{mb} MB unterminated tag": lambda mb, n: '[Event "' + "a" * mb * 1_000_000 + "\n1. 32-28 *\n",
    "{mb} MB line of moves": lambda mb, n: "1. 32-28 18-23 " * (mb * 1_000_000 // 15) + "*\n",
    "{count:,} sibling variations": lambda mb, n: "1. 32-28\n" + "(1. 33-29 18-23)\n" * n + "19-23 *\n",
    "{count:,} games": lambda mb, n: '[Event "x"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' * n,
}


def worker(reader: str, mode: str, path: str) -> int:
    """Read `path` with `reader` in this fresh process, timed or traced by tracemalloc (`mode`); print
    the seconds or the peak MB, and the games read, as JSON (games -1: out of memory)."""
    limit = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from draughts.PDN import PDNReader

    def read() -> int:
        if reader == "ours":
            with open(path, "rb") as handle:
                return sum(1 for _ in PdnReader(DecodedLines(handle), validate=True))
        return len(PDNReader(filename=path).games)

    if mode == "memory":
        tracemalloc.start()
    start = time.perf_counter()
    try:
        games = read()
    except MemoryError:
        games = -1
    value = time.perf_counter() - start if mode == "time" else tracemalloc.get_traced_memory()[1] / 1e6
    print(json.dumps({"value": value, "games": games}))
    return 0


def measure(reader: str, mode: str, path: Path, timeout: float) -> float | None:
    """Seconds or peak MB (`mode`) of one read in a fresh process; None if it ran out of time or memory."""
    try:
        done = subprocess.run([sys.executable, __file__, "--worker", reader, mode, str(path)],
                              capture_output=True, text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    result = json.loads(done.stdout)
    return result["value"] if result["games"] >= 0 else None


def hostile(directory: Path, mb: int, count: int, timeout: float) -> None:
    """Time and peak memory of each hostile case, ours against pydraughts, with the ratios."""
    print(f"\nhostile input (a fresh process a figure, at most {timeout:g} s and 4 GB; peak by tracemalloc):")
    print(f"{'case':<28} {'ours':>18} {'pydraughts':>20} {'time ratio':>11} {'memory ratio':>13}")
    for label, make in HOSTILE.items():
        path = directory / "hostile.pdn"
        path.write_text(make(mb, count), encoding="utf-8")
        figures = {(reader, mode): measure(reader, mode, path, timeout)
                   for reader in ("ours", "pydraughts") for mode in ("time", "memory")}
        columns = [f"{_shown(figures[r, 'time'], 's', timeout)} {_shown(figures[r, 'memory'], 'MB', timeout)}"
                   for r in ("ours", "pydraughts")]
        ratios = [_ratio(figures["ours", mode], figures["pydraughts", mode], timeout if mode == "time" else 0)
                  for mode in ("time", "memory")]
        print(f"{label.format(mb=mb, count=count):<28} {columns[0]:>18} {columns[1]:>20} {ratios[0]:>11} "
              f"{ratios[1]:>13}")


def _shown(value: float | None, unit: str, timeout: float) -> str:
    if value is None:
        return f"> {timeout:g} s" if unit == "s" else "-"
    return f"{value:.2f} {unit}"


def _ratio(ours: float | None, theirs: float | None, bound: float) -> str:
    """ours / theirs; when theirs ran out of time, the ratio is at most ours / the time limit."""
    if ours is not None and theirs is not None and theirs > 0:
        return f"{ours / theirs:.2f}x"
    if ours is not None and theirs is None and bound:
        return f"< {ours / bound:.3f}x"
    return "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games in the generated file (default 1000)")
    parser.add_argument("--mb", type=int, default=10, help="size of the hostile long lines (default 10 MB)")
    parser.add_argument("--count", type=int, default=100_000, help="hostile variations and games (100,000)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per hostile read (default 60)")
    parser.add_argument("--worker", nargs=3, metavar=("READER", "MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(*args.worker)
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
    with tempfile.TemporaryDirectory() as tmp:
        hostile(Path(tmp), args.mb, args.count, args.timeout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
