"""Engine protocols: how fast lines and records are parsed, and how soon a wedged engine is replaced.

1. Hub line parsing (`engine.hub_protocol.parse_message`) in MB/s on lines of growing length, against two
   named peers measured in the same run on the same lines: `shlex.split` (the parser it replaced, quadratic
   in a word's length) and `str.split` (a lower bound: C speed, no quoting). A linear parser keeps its MB/s
   as lines grow; shlex loses speed in proportion to the word length.
2. DXP record splitting (`engine.dxp_protocol.RecordReader`) in MB/s against the buffer-rescanning reader
   it replaced (`NUL in buffer` after every chunk, the buffer kept after an error), on a stream of short
   records, and the time each takes over one record without its NUL (the new reader refuses it at the limit).
3. A wedged Hub engine (it prints `info` every 10 ms and never answers `go`): the time from asking for a
   move to the built-in engine's move, against the deadline itself (move time + margin), and the time to
   kill its process group.

    .venv/bin/python bench/protocols.py [--quick]
"""

from __future__ import annotations

import argparse
import logging
import shlex
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.dxp_protocol import NUL, DxpRecordTooLong, RecordReader
from engine.external import FallbackOpponent, HubEngine
from engine.hub_protocol import parse_message
from rules import Board

WEDGED_ENGINE = """
import sys, time
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "hub":
        print("id name=wedged", flush=True)
        print("wait", flush=True)
    elif word == "init":
        print("ready", flush=True)
    elif word == "go":
        while True:
            print("info depth=1 score=0.00", flush=True)
            time.sleep(0.01)
"""


def best_seconds(fn: Callable[[], object], repeat: int) -> float:
    """The fastest of `repeat` runs of `fn` (the least disturbed by the rest of the machine)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def hub_lines(size: int) -> dict[str, str]:
    """Lines of about `size` characters: one long word, many words, and a long quoted value."""
    return {
        "one long word": "info pv=" + "x" * size,
        "many words": "info" + " a=b" * (size // 4),
        "long quoted value": 'info pv="' + "32-28 " * (size // 6) + '"',
    }


def bench_hub(sizes: list[int], repeat: int) -> None:
    print("Hub line parsing, MB/s (higher is better; ratio = parse_message / peer)")
    print(f"{'line':<20}{'chars':>9}{'parse_message':>15}{'shlex.split':>13}{'str.split':>11}"
          f"{'vs shlex':>10}{'vs split':>10}")
    for size in sizes:
        for shape, line in hub_lines(size).items():
            ours = best_seconds(lambda line=line: parse_message(line), repeat)
            shl = best_seconds(lambda line=line: shlex.split(line), 1 if size > 100_000 else repeat)
            plain = best_seconds(lambda line=line: line.split(), repeat)
            mb = len(line) / 1e6
            print(f"{shape:<20}{len(line):>9}{mb / ours:>15.1f}{mb / shl:>13.2f}{mb / plain:>11.1f}"
                  f"{shl / ours:>9.1f}x{plain / ours:>9.2f}x")


def old_split(stream: bytes, chunk: int = 1024, limit: int = 512) -> int:
    """The reader it replaced: append each chunk, look for a NUL in the whole buffer, never drop it."""
    buffer, records, errors = b"", 0, 0
    for start in range(0, len(stream), chunk):
        buffer += stream[start : start + chunk]
        while NUL in buffer:
            _record, _, buffer = buffer.partition(NUL)
            records += 1
        if len(buffer) > limit:
            errors += 1   # it raised, the caller logged and read on: the buffer kept growing
    return records + errors


def new_split(stream: bytes, chunk: int = 1024) -> int:
    reader = RecordReader()
    try:
        for start in range(0, len(stream), chunk):
            reader.feed(stream[start : start + chunk])
    except DxpRecordTooLong:
        pass
    return len(reader.records)


def bench_dxp(size: int, endless_size: int, repeat: int) -> None:
    print("\nDXP record splitting (ratio = old reader's time / RecordReader's)")
    stream = b"M0001322800\0" * (size // 12)
    ours = best_seconds(lambda: new_split(stream), repeat)
    old = best_seconds(lambda: old_split(stream), 1)
    mb = len(stream) / 1e6
    print(f"  {len(stream)} bytes of short records: RecordReader {mb / ours:.1f} MB/s, old reader "
          f"{mb / old:.2f} MB/s, ratio {old / ours:.1f}x")
    endless = b"M" * endless_size
    ours = best_seconds(lambda: new_split(endless), repeat)
    old = best_seconds(lambda: old_split(endless), 1)
    print(f"  {len(endless)} bytes without a NUL: RecordReader refuses it in {ours * 1e6:.0f} us (at most "
          f"512 + 1024 bytes read), the old reader scanned on for {old:.2f} s; ratio {old / ours:.0f}x")


def bench_wedged(runs: int, move_time: float, margin: float) -> None:
    print(f"\nA wedged Hub engine replaced by the built-in engine "
          f"(move time {move_time:g} s + margin {margin:g} s)")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "wedged.py"
        script.write_text(WEDGED_ENGINE)
        replaced, killed = [], []
        for _ in range(runs):
            engine = HubEngine([sys.executable, str(script)], margin=margin)
            opponent = FallbackOpponent(engine, "international", level=1)
            board = Board("international")
            start = time.perf_counter()
            move = opponent.play(board, move_time)
            replaced.append(time.perf_counter() - start)
            assert move in board.legal_moves and opponent.using_fallback, opponent.error
            start = time.perf_counter()
            engine.close()
            killed.append(time.perf_counter() - start)
    deadline = move_time + margin
    median = statistics.median(replaced)
    print(f"  ask -> built-in move: median {median * 1000:.0f} ms over {runs} runs; the deadline (the peer) "
          f"{deadline * 1000:.0f} ms; ratio {median / deadline:.2f}")
    print(f"  detection and replacement beyond the deadline: median {(median - deadline) * 1000:.0f} ms; "
          f"group killed again on close: median {statistics.median(killed) * 1000:.1f} ms")


def main() -> int:
    logging.getLogger("engine").setLevel(logging.CRITICAL)   # the wedged engine's failure is expected
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small inputs and few runs (a smoke test)")
    args = parser.parse_args()
    if args.quick:
        bench_hub([1_000, 20_000], repeat=3)
        bench_dxp(200_000, 200_000, repeat=2)
        bench_wedged(runs=2, move_time=0.1, margin=0.2)
    else:
        bench_hub([1_000, 64_000, 256_000], repeat=5)
        bench_dxp(32_000_000, 4_000_000, repeat=3)
        bench_wedged(runs=5, move_time=0.5, margin=1.0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
