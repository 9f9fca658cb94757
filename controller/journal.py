"""The journal of the game in progress: one checksummed line per event, fsynced before the LEDs confirm.

A line is ``<crc> <json>``: the JSON record and, before it, 8 hex digits of its CRC-32 (``zlib.crc32``)
chained from the previous line's (the first line's from 0), so a torn, changed, repeated, reordered or foreign
line breaks the chain. Records: ``start`` (settings, fen, started, pdn: the library file it will be saved to),
``move`` / ``forced`` (text, fen after, by, and ``seconds``, ``clocks``, ``wall`` when known), ``takeback``
(plies), ``end`` (result, reason). Journals of the first release (the same JSON lines, no checksums) are read
too, and rewritten with checksums before anything is appended to them.

Reading keeps the longest valid prefix: each line whole, its checksum right, its fields of the right types,
its move legal and its position the replay's. Writing appends where that prefix ends and cuts off whatever
follows, so a confirmed move is never glued to torn bytes; at start (``Journal.open``) a damaged journal is
kept whole as ``game.journal.damaged-<UTC time>`` and replaced by its valid prefix.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from readers import ReadError, check_regular
from rules import Color, Game, Variant

from .durable import (
    damaged_name,
    durable_replace,
    fsync_dir,
    keep_copy,
    make_dir,
    plain_reason,
    write_all,
)
from .errors import ControllerError
from .settings import GameSettings

JOURNAL_NAME = "game.journal"
MAX_JOURNAL_BYTES = 64 * 1024 * 1024
"""A game of a thousand plies with clocks journals well under 1 MB."""
RESULTS = ("1-0", "0-1", "1/2-1/2")
SIDES = ("white", "black")
_CRC_LINE = re.compile(rb"[0-9a-f]{8} ")
_LATER_CRC_LINE = re.compile(rb"\n[0-9a-f]{8} \{")


class JournalError(ControllerError, ValueError):
    """A journal that cannot be used (names the file and what is wrong)."""


@dataclass(frozen=True)
class PlyRecord:
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
class JournaledGame:
    """What a journal replays to: the game's header and the records still standing (takebacks applied)."""

    header: dict[str, Any]
    records: tuple[PlyRecord, ...]
    ended: dict[str, Any] | None
    _replayed: list[Game] = field(default_factory=list, compare=False, repr=False)

    def take_game(self) -> Game | None:
        """The rules Game the reader replayed the records to, once (it is then the taker's to play on); None
        when it was taken or there is none: replay the records."""
        return self._replayed.pop() if self._replayed else None


@dataclass(frozen=True)
class JournalLine:
    """One valid line of a journal: its number (from 1), record, checksum (None in the old format) and the
    offset where it ends."""

    number: int
    entry: dict[str, Any]
    crc: int | None
    end: int


@dataclass(frozen=True)
class Damage:
    """Where a journal stops being valid: the first line not kept, why, and what follows the valid prefix."""

    line: int
    reason: str
    dropped_lines: int
    dropped_bytes: int

    def dropped(self) -> str:
        """What is dropped, in words."""
        lines = f"{self.dropped_lines} line{'s' if self.dropped_lines != 1 else ''}"
        return f"dropped {lines} ({self.dropped_bytes} bytes)"


@dataclass(frozen=True)
class Scan:
    """A journal file as read: its valid prefix (lines, the state they replay to), its damage, its format."""

    path: Path
    exists: bool
    size: int = 0
    lines: tuple[JournalLine, ...] = ()
    state: JournaledGame | None = None
    damage: Damage | None = None
    checksummed: bool = True
    """False for a journal of the first release (no checksums)."""

    @property
    def valid_bytes(self) -> int:
        return self.lines[-1].end if self.lines else 0

    @property
    def crc(self) -> int:
        """The checksum chain's value after the valid prefix (0 for an old-format journal)."""
        if not self.lines or self.lines[-1].crc is None:
            return 0
        return self.lines[-1].crc

    def kept(self) -> str:
        """What of the game the valid prefix keeps, in words."""
        if self.state is None:
            return "nothing could be kept"
        plies = len(self.state.records)
        game = f"the game up to ply {plies}" if plies else "the game before its first move"
        return f"kept {game} (line{'s' if len(self.lines) != 1 else ''} 1-{len(self.lines)})"


@dataclass(frozen=True)
class Opened:
    """What ``Journal.open`` found and did: the scan, where the damaged journal was kept, and a failure to
    repair it (the repair is then retried before the next write)."""

    scan: Scan
    damaged_copy: Path | None = None
    repair_failed: OSError | None = None

    @property
    def state(self) -> JournaledGame | None:
        return self.scan.state

    def message(self) -> str | None:
        """The damage found and what was done, in plain words (None when the journal was sound)."""
        found, damage = self.scan, self.scan.damage
        if damage is None:
            return None
        where = f"The journal {found.path}"
        if found.size == 0 and found.state is None:
            what = f"{where} was empty: a new game starts"
        else:
            what = f"{where} was damaged at line {damage.line} ({damage.reason}): {found.kept()}, " \
                   f"{damage.dropped()}"
        if self.repair_failed is not None:
            return f"{what}; it could not be set aside ({plain_reason(self.repair_failed)}): that is done " \
                   f"before the next move is saved."
        return f"{what}; the damaged journal is kept as {self.damaged_copy}."


def _encode(body: bytes, crc: int) -> tuple[bytes, int]:
    """The line for JSON ``body`` after a line whose checksum is ``crc``, and the line's own checksum."""
    crc = zlib.crc32(body, crc)
    return b"%08x %s\n" % (crc, body), crc


def _body(entry: dict[str, Any]) -> bytes:
    return json.dumps(entry, separators=(",", ":")).encode("ascii")


class _Bad(Exception):
    """A line that is not a valid record (the reason, in words)."""


def _number(value: Any, name: str) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
        raise _Bad(f"{name} is not a number")


def _text(entry: dict[str, Any], name: str, optional: bool = False) -> str | None:
    value = entry.get(name)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise _Bad(f"its {name!r} is {'missing' if value is None else 'not a text'}")
    return value


class _RecordChecker:
    """Checks records one by one against the rules: the game they replay to so far."""

    def __init__(self) -> None:
        self.header: dict[str, Any] | None = None
        self.records: list[PlyRecord] = []
        self.ended: dict[str, Any] | None = None
        self.game: Game | None = None
        self._start_fen: str | None = None
        self._variant: Variant | None = None

    def add(self, entry: dict[str, Any]) -> None:
        kind = entry.get("type")
        if self.header is None and kind != "start":
            raise _Bad(f"the first record must be the game's start, not {kind!r}")
        handler = {"start": self._start, "move": self._ply, "forced": self._ply, "takeback": self._takeback,
                   "end": self._end}.get(kind)  # type: ignore[arg-type]
        if handler is None:
            raise _Bad(f"unknown record type {kind!r}")
        handler(entry)

    def _start(self, entry: dict[str, Any]) -> None:
        if self.header is not None:
            raise _Bad("a second start record")
        settings = entry.get("settings")
        if not isinstance(settings, dict):
            raise _Bad("its settings are missing")
        try:
            game_settings = GameSettings.from_json(settings)
            game_settings.check()
            game = Game(game_settings.variant, fen=game_settings.fen)
        except (TypeError, ValueError, AttributeError) as exc:   # a field of the wrong type
            raise _Bad(f"bad settings: {exc}") from None
        fen = _text(entry, "fen", optional=True)
        if fen is not None and fen != game.board.fen():
            raise _Bad("its start position is not the one its settings give")
        started = _text(entry, "started", optional=True)
        if started is not None:
            try:
                datetime.fromisoformat(started)
            except ValueError:
                raise _Bad(f"bad start time {started!r}") from None
        pdn = _text(entry, "pdn", optional=True)
        if pdn is not None and (Path(pdn).name != pdn or not pdn.endswith(".pdn")):
            raise _Bad(f"bad library file name {pdn!r}")
        self.header = {k: v for k, v in entry.items() if k != "type"}
        self._start_fen = game_settings.fen
        self._variant = game_settings.variant
        self.game = game

    def _ply(self, entry: dict[str, Any]) -> None:
        assert self.game is not None
        text, fen, by = _text(entry, "text"), _text(entry, "fen"), _text(entry, "by")
        assert text is not None and fen is not None and by is not None
        mover = "white" if self.game.board.turn == Color.WHITE else "black"
        _number(entry.get("seconds"), "seconds")
        clocks = entry.get("clocks")
        if clocks is not None:
            if not isinstance(clocks, list) or len(clocks) != 2 or any(c is None for c in clocks):
                raise _Bad("its clocks are not two numbers")
            for value in clocks:
                _number(value, "a clock")
        wall = _text(entry, "wall", optional=True)
        if entry["type"] == "move":
            if by != mover:
                raise _Bad(f"it says {by} moved, but {mover} was to move")
            try:
                self.game.push(self.game.board.parse_move(text))
            except ValueError as exc:
                raise _Bad(f"{text}: {exc}") from None
            if self.game.board.fen() != fen:
                self.game.pop()   # the game stays the valid prefix's
                raise _Bad(f"its position after {text} is not the replay's")
        else:
            if by not in SIDES:
                raise _Bad(f"bad side {by!r}")
            try:
                self.game = Game(self.game.variant, fen=fen)
            except ValueError as exc:
                raise _Bad(f"bad position: {exc}") from None
        both = (float(clocks[0]), float(clocks[1])) if clocks is not None else None
        self.records.append(PlyRecord(entry["type"], text, fen, by, entry.get("seconds"), both, wall))
        self.ended = None

    def _takeback(self, entry: dict[str, Any]) -> None:
        plies = entry.get("plies")
        if isinstance(plies, bool) or not isinstance(plies, int) or not 1 <= plies <= len(self.records):
            raise _Bad(f"it takes back {plies!r} plies of {len(self.records)}")
        del self.records[-plies:]
        assert self.header is not None and self._variant is not None
        self.game = game_of(self._variant, self._start_fen, self.records)
        self.ended = None

    def _end(self, entry: dict[str, Any]) -> None:
        result, reason = entry.get("result"), _text(entry, "reason")
        if result not in RESULTS:
            raise _Bad(f"bad result {result!r}")
        self.ended = {"result": result, "reason": reason}

    def state(self) -> JournaledGame | None:
        if self.header is None:
            return None
        games = [self.game] if self.game is not None else []
        return JournaledGame(self.header, tuple(self.records), self.ended, games)


def game_from_json(game: object, where: str) -> JournaledGame:
    """A game written as ``{"settings": ..., "plies": [...]}`` (a sensor log's header) checked as a journal
    is: the settings, then every ply replayed through the rules (ValueError naming the ply and the fault)."""
    if not isinstance(game, dict) or not isinstance(game.get("settings"), dict):
        raise ValueError(f"{where}: expected a game with its settings")
    plies = game.get("plies") or []
    if not isinstance(plies, list):
        raise ValueError(f"{where}: the plies must be a list, not {type(plies).__name__}")
    checked = _RecordChecker()
    for number, entry in enumerate([{"type": "start", "settings": game["settings"]}, *plies]):
        try:
            if not isinstance(entry, dict) or entry.get("type") not in ("start", "move", "forced"):
                raise _Bad("expected a move or forced ply")
            checked.add(entry)
        except _Bad as exc:
            raise ValueError(f"{where}: {f'ply {number}' if number else 'settings'}: {exc}") from None
    state = checked.state()
    assert state is not None
    return state


def games_along(variant: Any, start_fen: str | None, records: Iterable[PlyRecord]) -> Iterator[Game]:
    """The game at its start and after each of ``records``, in one pass (raises ValueError on a bad record).
    The Game yielded is advanced in place by the next step: read what you need before taking the next."""
    game = Game(variant, fen=start_fen)
    yield game
    for number, record in enumerate(records, 1):
        if record.kind == "move":
            try:
                game.push(game.board.parse_move(record.text))
            except ValueError as exc:
                raise ValueError(f"record {number} ({record.text}): {exc}") from None
        elif record.kind == "forced":
            game = Game(variant, fen=record.fen)
        else:
            raise ValueError(f"record {number}: unknown kind {record.kind!r}")
        yield game


def game_of(variant: Any, start_fen: str | None, records: Iterable[PlyRecord]) -> Game:
    """The game reached by playing ``records`` from the start position (raises ValueError on a bad record)."""
    game = None
    for game in games_along(variant, start_fen, records):  # noqa: B007 - the last one is wanted
        pass
    assert game is not None
    return game


def _unwritten(raw: bytes) -> str | None:
    """Why a line holds nothing written (zero bytes, or nothing at all), or None."""
    if raw.strip(b"\0"):
        return None
    return "zero bytes: a write the card never finished" if raw else "an empty line"


def _decode(raw: bytes, crc: int, checksummed: bool) -> tuple[dict[str, Any], int | None]:
    """The record of one line (without its newline) and its checksum; raises _Bad saying what is wrong."""
    body = raw
    own: int | None = None
    if checksummed:
        if not _CRC_LINE.match(raw):
            raise _Bad(_unwritten(raw) or "it has no checksum")
        body, own = raw[9:], int(raw[:8], 16)
        if zlib.crc32(body, crc) != own:
            raise _Bad("its checksum is wrong")
    try:
        entry = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise _Bad(_unwritten(raw) or "it is not UTF-8 text") from None
    except ValueError:
        raise _Bad(_unwritten(raw) or "it is not a JSON record") from None
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        raise _Bad("it is not a journal record")
    return entry, own


def scan_bytes(path: Path, data: bytes) -> Scan:
    """Read a journal's bytes to their longest valid prefix (see the module's docstring)."""
    # the first release's lines are bare JSON; a checksummed journal that lost its first checksum is still one
    checksummed = not data.startswith(b"{") or _LATER_CRC_LINE.search(data) is not None
    replayed = _RecordChecker()
    lines: list[JournalLine] = []
    pos, crc, number = 0, 0, 0
    damage: Damage | None = None
    while pos < len(data):
        number += 1
        newline = data.find(b"\n", pos)
        try:
            if newline < 0:
                raise _Bad(_unwritten(data[pos:]) or "the line is cut short, with no end of line")
            entry, own = _decode(data[pos:newline], crc, checksummed)
            replayed.add(entry)
        except Exception as exc:   # whatever a record holds, the board starts
            reason = str(exc) if isinstance(exc, _Bad) else f"unreadable ({type(exc).__name__}: {exc})"
            tail = data[pos:]
            damage = Damage(number, reason, tail.count(b"\n") + (not tail.endswith(b"\n")), len(tail))
            break
        pos = newline + 1
        crc = own or 0
        lines.append(JournalLine(number, entry, own, pos))
    if not data:
        damage = Damage(1, "the file is empty", 0, 0)
    return Scan(Path(path), True, len(data), tuple(lines), replayed.state(), damage, checksummed)


def scan(path: Path) -> Scan:
    """Read the journal file at ``path`` (nothing is changed): its valid prefix, damage and format. A file
    that cannot be a journal (a FIFO, a device such as a link to /dev/zero, a huge file) or cannot be read
    (a failing card) is damaged from its first line: it is set aside whole, unread."""
    path = Path(path)
    size = 0
    try:
        info = path.stat()
        size = info.st_size
        check_regular(info, path, "journal", MAX_JOURNAL_BYTES)
        data = path.read_bytes()
    except FileNotFoundError:
        return Scan(path, False)
    except ReadError as exc:
        return Scan(path, True, size, damage=Damage(1, exc.reason.replace("the journal", "it", 1), 1, size))
    except OSError as exc:
        return Scan(path, True, size, damage=Damage(1, f"it cannot be read: {plain_reason(exc)}", 1, size))
    return scan_bytes(path, data)


def read_journal(path: Path) -> JournaledGame | None:
    """The game the journal at ``path`` replays to (its longest valid prefix); None when there is none."""
    return scan(path).state


class Journal:
    """The append-only, fsynced, checksummed file of the game in progress (``directory/game.journal``).

    Writes go where the valid journal ends (known from ``start``, or from a scan) and whatever lies beyond is
    cut off first; a failed write raises the OSError and leaves the journal as it was, so a retry is safe.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.path = self.directory / JOURNAL_NAME
        self._fd: int | None = None
        """The journal, open for writing between writes (closed whenever the file is replaced)."""
        self._size: int | None = None
        """Bytes of the valid journal on disk; None until a start or a scan says."""
        self._crc = 0
        self._pending: Scan | None = None
        """A damaged (or old-format) journal still to be repaired before the next write."""
        self._kept: Path | None = None
        """The damaged journal's copy, once made (a repair tried again makes no second one)."""
        self._torn = False
        """A write failed and its bytes could not be cut off yet: the next write cuts them off first."""

    # --- reading and repairing -------------------------------------------------------------------------
    def read(self) -> JournaledGame | None:
        """The game the journal replays to (nothing is changed); None when there is none."""
        return read_journal(self.path)

    def open(self) -> Opened:
        """Read the journal at start and repair it: a damaged one is kept whole (``game.journal.damaged-...``)
        and replaced by its valid prefix (an old-format one is rewritten with checksums). A repair that fails
        (a read-only or full card) is said in ``Opened.repair_failed`` and retried before the next write."""
        self.close()
        found = scan(self.path)
        self._pending = None
        self._size = found.valid_bytes if found.checksummed else None
        self._crc = found.crc
        if not found.exists or (found.damage is None and found.checksummed):
            return Opened(found)
        try:
            copy = self._repair(found)
        except OSError as exc:
            self._pending, self._size = found, None
            return Opened(found, repair_failed=exc)
        return Opened(found, damaged_copy=copy)

    def _repair(self, found: Scan) -> Path | None:
        """Keep a damaged journal whole beside it (returned), then replace it by its valid prefix, with
        checksums; a journal with nothing valid is moved aside whole."""
        self.close()
        self._size, self._pending = None, found
        copy = self._kept or (damaged_name(self.path) if found.damage is not None else None)
        if found.state is None:
            assert copy is not None
            os.replace(self.path, copy)
            fsync_dir(self.directory)
            self._pending = None
            return copy
        if found.checksummed:
            prefix, crc = self.path.read_bytes()[:found.valid_bytes], found.crc
        else:
            prefix, crc = b"", 0
            for line in found.lines:
                raw, crc = _encode(_body(line.entry), crc)
                prefix += raw
        if copy is not None and self._kept is None:
            keep_copy(self.path, copy)
            self._kept = copy
        durable_replace(self.path, prefix)
        self._size, self._crc, self._pending, self._kept, self._torn = len(prefix), crc, None, None, False
        return copy

    # --- writing ---------------------------------------------------------------------------------------
    def start(self, header: dict[str, Any]) -> None:
        """Begin a new game: the previous journal is replaced atomically by one holding only ``header``."""
        self.close()
        if self._pending is not None:   # a damaged journal is kept aside before it is replaced
            self._repair(self._pending)
        line, crc = _encode(_body({"type": "start", **header}), 0)
        try:
            make_dir(self.directory)
            durable_replace(self.path, line)
        except OSError:
            self._size = None   # the old journal or the new one: read it again before the next write
            raise
        self._size, self._crc, self._pending, self._torn = len(line), crc, None, False

    def record(self, record: PlyRecord) -> None:
        """Append a committed ply and wait until it is on disk."""
        self._append(record.to_json())

    def takeback(self, plies: int) -> None:
        """Append a takeback of ``plies`` plies."""
        self._append({"type": "takeback", "plies": plies})

    def end(self, result: str, reason: str) -> None:
        """Append the game's end."""
        self._append({"type": "end", "result": result, "reason": reason})

    def _append(self, entry: dict[str, Any]) -> None:
        if self._pending is not None:
            self._repair(self._pending)
        if self._size is None:
            found = scan(self.path)
            if found.state is None:
                raise JournalError(f"{self.path}: no game is started in this journal")
            if found.damage is not None or not found.checksummed:
                self._repair(found)
            else:
                self._size, self._crc = found.valid_bytes, found.crc
        assert self._size is not None
        line, crc = _encode(_body(entry), self._crc)
        if self._fd is None:
            self._fd = os.open(self.path, os.O_WRONLY)
        fd = self._fd
        if self._torn:
            os.ftruncate(fd, self._size)   # the bytes of a write that failed: never confirmed
            self._torn = False
        try:
            write_all(fd, line, self._size)
            os.fsync(fd)
        except OSError:
            self._torn = True
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._size)
                self._torn = False
            raise
        self._size += len(line)
        self._crc = crc

    def close(self) -> None:
        """Close the file (the next write opens it again)."""
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def __repr__(self) -> str:
        return f"Journal({str(self.path)!r})"
