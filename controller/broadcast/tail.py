"""The journal read line by line, as the stream a board publishes: the n-th line of a game's journal is
entry number n (its sequence number), so the numbering survives a restart of the board.

A line is a JSON record, or (the checksummed journal) eight hex digits, a space and the record; the torn
part after the last newline is not read yet. A new game replaces the file (a new inode): reading starts over.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

_CRC = re.compile(r"^[0-9a-f]{8} ")


def parse_line(line: str) -> dict[str, Any] | None:
    """The record of one journal line (None when it is not one)."""
    body = line[9:] if _CRC.match(line) else line
    try:
        entry = json.loads(body)
    except ValueError:
        return None
    return entry if isinstance(entry, dict) and isinstance(entry.get("type"), str) else None


def game_id(start: dict[str, Any]) -> str:
    """A game's id: its start time and a digest of its start record (the same after every restart)."""
    digest = hashlib.sha1(json.dumps(start, sort_keys=True).encode()).hexdigest()[:10]
    started = str(start.get("started", "")).replace("-", "").replace(":", "")[:15]
    return f"{started}-{digest}" if started else digest


@dataclass
class JournalTail:
    """Follows one journal file: ``read()`` returns the entries appended since the last call and whether the
    game changed (a new file, or the file cut shorter: then every entry is returned again)."""

    path: Path
    entries: list[dict[str, Any]] = field(default_factory=list)
    _identity: tuple[int, int] | None = None
    _offset: int = 0

    @property
    def game(self) -> str | None:
        """The id of the game the entries belong to (None before its start record is read)."""
        return game_id(self.entries[0]) if self.entries and self.entries[0]["type"] == "start" else None

    def read(self) -> tuple[bool, list[dict[str, Any]]]:
        """(restarted, new entries): the whole file again when it was replaced or cut, else what follows."""
        try:
            with open(self.path, "rb") as fh:
                st = os.fstat(fh.fileno())
                identity = (st.st_dev, st.st_ino)
                restarted = identity != self._identity or st.st_size < self._offset
                if restarted:
                    self._identity, self._offset, self.entries = identity, 0, []
                fh.seek(self._offset)
                data = fh.read()
        except FileNotFoundError:
            restarted = bool(self.entries)
            self._identity, self._offset, self.entries = None, 0, []
            return restarted, []
        new: list[dict[str, Any]] = []
        end = data.rfind(b"\n") + 1
        for raw in data[:end].split(b"\n")[:-1]:
            entry = parse_line(raw.decode("utf-8", "replace"))
            if entry is None or (entry["type"] == "start") != (not self.entries and not new):
                break   # a damaged line or a start inside the game: the journal repairs itself on start
            new.append(entry)
            self._offset += len(raw) + 1
        self.entries.extend(new)
        return restarted, new
