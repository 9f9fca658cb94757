"""Real journals for the tests: games recorded through GameRecord (the board's own write path), restarted
through Journal.open (the board's own start path), and the old (first release) format."""

from __future__ import annotations

import json
import zlib
from datetime import datetime
from pathlib import Path

from controller.journal import Journal, JournaledGame, Opened, scan_bytes
from controller.record import GameRecord
from controller.settings import GameSettings
from firmware_bridge.clock import ManualClock

WALL = datetime(2026, 12, 1, 10, 43, 21)


def kwargs(directory: Path, journal: Journal | None = None) -> dict:
    return {"clock": ManualClock(0.0), "wall": lambda: WALL, "journal": journal or Journal(directory),
            "pdn_dir": directory / "games"}


def begin(directory: Path, variant: str = "english", **settings: object) -> GameRecord:
    """A new journaled game between two people."""
    return GameRecord.begin(GameSettings(variant, "both", "person", **settings), **kwargs(directory))


def play(record: GameRecord, plies: int, seed: int = 0) -> list[str]:
    """Play ``plies`` legal moves (chosen by ``seed``, deterministically); their texts."""
    texts = []
    for ply in range(plies):
        board = record.board
        moves = sorted(board.legal_moves, key=board.move_text)
        move = moves[(seed + 7 * ply) % len(moves)]
        texts.append(board.move_text(move))
        record.play(move, texts[-1])
    return texts


def restart(directory: Path) -> tuple[Opened, GameRecord | None]:
    """What a board does at start: open (read and repair) the journal and resume the game it holds."""
    journal = Journal(directory)
    opened = journal.open()
    record = GameRecord.resume(opened.state, **kwargs(directory, journal)) if opened.state else None
    return opened, record


def line_spans(data: bytes) -> list[tuple[int, int]]:
    """(start, end) of each line, the newline included."""
    spans, start = [], 0
    while start < len(data):
        end = data.index(b"\n", start) + 1
        spans.append((start, end))
        start = end
    return spans


def states_after(path: Path, data: bytes) -> list[JournaledGame | None]:
    """The state a sound journal replays to after each prefix of 0, 1, 2, ... of its lines."""
    return [scan_bytes(path, data[:end]).state for end in [0, *(e for _, e in line_spans(data))]]


def old_format(data: bytes) -> bytes:
    """The same journal as the first release wrote it: the JSON lines without their checksums."""
    return b"".join(line[9:] for line in data.splitlines(keepends=True))


def reseal(lines: list[bytes]) -> bytes:
    """Lines of JSON records (old format) with a correct checksum chain: damage a checksum cannot see."""
    out, crc = b"", 0
    for body in lines:
        crc = zlib.crc32(body, crc)
        out += b"%08x %s\n" % (crc, body)
    return out


def records(data: bytes) -> list[dict]:
    """The JSON records of a checksummed journal."""
    return [json.loads(line[9:]) for line in data.splitlines()]


def bodies(entries: list[dict]) -> list[bytes]:
    return [json.dumps(e, separators=(",", ":")).encode() for e in entries]
