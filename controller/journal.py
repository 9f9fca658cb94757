"""The journal of the game in progress: one JSON line per event, flushed and fsynced before the LEDs confirm.

A power cut loses nothing that was confirmed: the last line may be torn (no newline or bad JSON) and is then
ignored on reading. Lines: ``start`` (variant, fen, settings), ``move`` / ``forced`` (text, fen after),
``takeback`` (plies), ``end`` (result, reason). Move lines may carry ``seconds`` (time taken), ``clocks``
(both remaining times) and ``wall`` (when it was made).
"""

from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

JOURNAL_NAME = "game.journal"


class JournalError(ValueError):
    """A journal line that is not a valid record (names the file and line)."""


@dataclass(frozen=True)
class Record:
    """One committed ply: ``kind`` is ``move`` (legal) or ``forced`` (a missed capture accepted or huffed)."""

    kind: str
    text: str
    fen: str
    by: str
    seconds: float | None = None
    """Time the mover took (by the injected clock)."""
    clocks: tuple[float, float] | None = None
    """White's and Black's remaining clock times after the move (None without a time control)."""
    wall: str | None = None
    """Wall-clock time the move was made (ISO 8601, seconds)."""

    def to_json(self) -> dict[str, Any]:
        """The journal line's JSON object (optional fields only when set)."""
        data: dict[str, Any] = {"type": self.kind, "text": self.text, "fen": self.fen, "by": self.by}
        for key in ("seconds", "clocks", "wall"):
            value = getattr(self, key)
            if value is not None:
                data[key] = list(value) if key == "clocks" else value
        return data


@dataclass(frozen=True)
class JournalState:
    """What a journal replays to: the game's header and the records still standing (takebacks applied)."""

    header: dict[str, Any]
    records: tuple[Record, ...]
    ended: dict[str, Any] | None


def durable_replace(path: Path, text: str) -> None:
    """Replace ``path`` by ``text`` so that a power cut leaves the old file or the new one, never a torn or
    empty one: write a temporary file, fsync it, rename it over ``path``, fsync the directory."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    dirfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dirfd)
    finally:
        os.close(dirfd)


class Journal:
    """An append-only, fsynced file of the game in progress."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / JOURNAL_NAME
        self._file: Any = None

    def _append(self, entry: dict[str, Any]) -> None:
        if self._file is None:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._file = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - held open on purpose
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def start(self, header: dict[str, Any]) -> None:
        """Begin a new game: the previous journal is replaced atomically by one holding only ``header``."""
        self.close()
        self.directory.mkdir(parents=True, exist_ok=True)
        durable_replace(self.path, json.dumps({"type": "start", **header}, separators=(",", ":")) + "\n")

    def record(self, record: Record) -> None:
        """Append a committed ply and wait until it is on disk."""
        self._append(record.to_json())

    def takeback(self, plies: int) -> None:
        """Append a takeback of ``plies`` plies."""
        self._append({"type": "takeback", "plies": plies})

    def end(self, result: str, reason: str) -> None:
        """Append the game's end."""
        self._append({"type": "end", "result": result, "reason": reason})

    def close(self) -> None:
        """Close the file (appends reopen it)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def read(self) -> JournalState | None:
        """Replay the file: None when there is no journal; a torn last line is ignored."""
        return read_journal(self.path)

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"


def read_journal(path: Path) -> JournalState | None:
    """Replay a journal file into its header and standing records (takebacks applied)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    lines = text.split("\n")
    complete = lines[:-1]  # the part after the last newline is torn (or empty)
    header: dict[str, Any] | None = None
    records: list[Record] = []
    ended: dict[str, Any] | None = None
    for number, line in enumerate(complete, 1):
        try:
            entry = json.loads(line)
            kind = entry["type"]
        except (ValueError, KeyError, TypeError):
            if number == len(complete):
                log.warning("%s: ignoring torn last line %d", path, number)
                break
            raise JournalError(f"{path}: line {number} is not a journal entry: {line[:60]!r}") from None
        if kind == "start":
            header = {k: v for k, v in entry.items() if k != "type"}
            records, ended = [], None
        elif kind in ("move", "forced"):
            clocks = entry.get("clocks")
            both = (float(clocks[0]), float(clocks[1])) if clocks else None
            records.append(Record(kind, entry["text"], entry["fen"], entry.get("by", ""),
                                  entry.get("seconds"), both, entry.get("wall")))
            ended = None
        elif kind == "takeback":
            del records[max(0, len(records) - int(entry["plies"])):]
            ended = None
        elif kind == "end":
            ended = {"result": entry["result"], "reason": entry["reason"]}
        else:
            raise JournalError(f"{path}: line {number}: unknown entry type {kind!r}")
    if header is None:
        return None
    return JournalState(header, tuple(records), ended)
