"""The journal's cost: a confirmed move's save (p50/p99, fsync included) and a start on a 500-ply journal, for
this release's checksummed journal and for the named peer measured in the same run on the same records: the
first release's journal (plain JSON lines, one held-open text file, flush + fsync; read back by parsing every
line and replaying the moves), copied below as it shipped.

The saves take turns between the two journals (and a second copy of the peer, whose ratio to the peer shows
the disk's noise), in the same directory, so the disk's mood falls on all alike.
Run it on the card the board uses (``--dir``, default a temporary directory in the current one: /tmp is often
a RAM disk, where fsync costs nothing). Targets (issue 20): the checksum adds under 5% to a save; a start on
500 plies takes under 200 ms.

    ./dev bench journal [--saves 600] [--plies 500] [--dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
import zlib
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from controller.journal import Journal, PlyRecord, game_of
from controller.record import GameRecord
from controller.settings import GameSettings
from firmware_bridge.clock import ManualClock
from rules import Board, get_variant

SETTINGS = GameSettings("international", "both", "person")


class FirstReleaseJournal:
    """The peer: the first release's writer, as it shipped (text file held open; flush and fsync a line)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open(path, "a", encoding="utf-8")  # noqa: SIM115 - held open, as it was

    def record(self, record: PlyRecord) -> None:
        self._file.write(json.dumps(record.to_json(), separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def first_release_start(path: Path) -> object:
    """The peer's start: every line parsed (takebacks applied), the moves replayed."""
    header, records = None, []
    for line in path.read_text(encoding="utf-8").split("\n")[:-1]:
        entry = json.loads(line)
        if entry["type"] == "start":
            header = {k: v for k, v in entry.items() if k != "type"}
        elif entry["type"] in ("move", "forced"):
            records.append(PlyRecord(entry["type"], entry["text"], entry["fen"], entry.get("by", "")))
        elif entry["type"] == "takeback":
            del records[len(records) - entry["plies"]:]
    assert header is not None
    return game_of(get_variant(SETTINGS.variant), None, records)


def long_game(plies: int, seed: int) -> list[PlyRecord]:
    """``plies`` legal moves of one international game (moves offering no capture preferred: it lasts)."""
    rng = random.Random(seed)
    board = Board(get_variant(SETTINGS.variant))
    records = []
    while len(records) < plies:
        moves = list(board.legal_moves)
        quiet = [m for m in moves if not _offers_capture(board, m)]
        move = rng.choice(quiet or moves)
        text, by = board.move_text(move), "white" if board.turn.name == "WHITE" else "black"
        board.push(move)
        records.append(PlyRecord("move", text, board.fen(), by, 1.25, None, "2026-12-01T10:43:21"))
    return records


def _offers_capture(board: Board, move: object) -> bool:
    after = board.copy()
    after.push(move)  # type: ignore[arg-type]
    return after.has_capture()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def saves(directory: Path, records: list[PlyRecord],
          count: int) -> tuple[list[float], list[float], list[float]]:
    """Seconds per save: this release, the peer, and a second copy of the peer (what the disk's noise alone
    makes of two equal journals), in a shuffled order each time (a save's cost depends on the one before it);
    restarted every 100 saves."""
    rng = random.Random(count)
    ours: list[float] = []
    peer: list[float] = []
    twin: list[float] = []
    for start in range(0, count, 100):
        journal = Journal(directory / "ours")
        journal.start({"settings": SETTINGS.to_json()})
        first = FirstReleaseJournal(directory / "peer.journal")
        second = FirstReleaseJournal(directory / "twin.journal")
        for record in records[start % len(records):][:min(100, count - start)]:
            turns = [(journal.record, ours), (first.record, peer), (second.record, twin)]
            rng.shuffle(turns)
            for save, times in turns:
                t0 = time.perf_counter()
                save(record)
                times.append(time.perf_counter() - t0)
        for done in (first, second):
            done.close()
            done.path.unlink()
    return ours, peer, twin


def without_fsync(directory: Path, records: list[PlyRecord],
                  count: int) -> tuple[list[float], list[float], list[float]]:
    """The same saves with fsync returning at once: what the checksum and the write calls cost alone."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        return saves(directory, records, count)
    finally:
        os.fsync = real


def starts(directory: Path, records: list[PlyRecord], repeat: int) -> tuple[list[float], list[float]]:
    """Seconds per start on ``records``: this release's (read, check every record against the replay, repair
    nothing, resume the GameRecord) and the peer's."""
    journal = Journal(directory / "start")
    journal.start({"settings": SETTINGS.to_json(), "started": "2026-12-01T10:43:21"})
    peer_path = directory / "start-peer.journal"
    peer = FirstReleaseJournal(peer_path)
    peer._file.write(json.dumps({"type": "start", "settings": SETTINGS.to_json()}) + "\n")
    for record in records:
        journal.record(record)
        peer.record(record)
    peer.close()
    ours, theirs = [], []
    for _ in range(repeat):
        t0 = time.perf_counter()
        opened = Journal(directory / "start").open()
        assert opened.state is not None and opened.scan.damage is None
        record = GameRecord.resume(opened.state, clock=ManualClock(0.0), wall=datetime.now, journal=journal)
        t1 = time.perf_counter()
        first_release_start(peer_path)
        t2 = time.perf_counter()
        assert len(record.plies) == len(records)
        ours.append(t1 - t0)
        theirs.append(t2 - t1)
    return ours, theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--saves", type=int, default=600)
    parser.add_argument("--plies", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=7, help="starts measured (the median is reported)")
    parser.add_argument("--dir", type=Path, default=Path.cwd(), help="where the journals are written")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    records = long_game(args.plies, args.seed)
    directory = Path(tempfile.mkdtemp(prefix="bench-journal-", dir=args.dir))
    try:
        ours, peer, twin = saves(directory, records, args.saves)
        cpu_ours, cpu_peer, _ = without_fsync(directory, records, args.saves)
        start_ours, start_peer = starts(directory, records, args.repeat)
    finally:
        shutil.rmtree(directory)
    print(f"journal in {args.dir} ({args.saves} saves, a start on {args.plies} plies)")
    line = json.dumps(records[-1].to_json(), separators=(",", ":")).encode()
    t0 = time.perf_counter()
    for _ in range(10000):
        zlib.crc32(line)
    crc = (time.perf_counter() - t0) / 10000
    for name, ours_q, peer_q in (("p50", 0.5, 0.5), ("p99", 0.99, 0.99)):
        a, b = percentile(ours, ours_q), percentile(peer, peer_q)
        print(f"save {name}: this release {a * 1e3:7.3f} ms   first release (peer) {b * 1e3:7.3f} ms   "
              f"ratio {a / b:5.3f}")
    paired = statistics.median(a / b for a, b in zip(ours, peer, strict=True))
    noise = statistics.median(a / b for a, b in zip(twin, peer, strict=True))
    print(f"save, median of the ratios of saves made back to back: {paired:5.3f} (target under 1.05); the "
          f"same for two copies of the peer (the disk's noise): {noise:5.3f}; the CRC-32 of one record "
          f"alone: {crc * 1e6:.2f} us")
    a, b = statistics.median(cpu_ours), statistics.median(cpu_peer)
    print(f"save without its fsync, median: this release {a * 1e6:6.1f} us   first release (peer) "
          f"{b * 1e6:6.1f} us   (the difference is {(a - b) / statistics.median(peer) * 100:+.1f}% of a "
          f"save with its fsync)")
    a, b = statistics.median(start_ours), statistics.median(start_peer)
    print(f"start on {args.plies} plies: this release {a * 1e3:6.1f} ms (target under 200 ms)   "
          f"first release (peer) {b * 1e3:6.1f} ms   ratio {a / b:5.2f}")


if __name__ == "__main__":
    main()
