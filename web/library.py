"""The game library: the games saved in the controller's data directory (PDN files; finished, or unfinished
with result ``*``), indexed once and listed with their headers, replayed move by move for the viewer, and
served back as PDN."""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import WebError

if TYPE_CHECKING:   # the rules core is imported when a game is replayed, not to list the library
    import rules

log = logging.getLogger(__name__)

TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
MOVE_RE = re.compile(r"^[a-zA-Z]?\d+[a-z]?\d*(?:[-x:][a-zA-Z]?\d+[a-z]?\d*)+$")


RACY_SECONDS = 1.0


class LibraryError(WebError, ValueError):
    """A game id that does not exist, or a PDN game that cannot be read (names the file and game)."""


@dataclass(frozen=True)
class LibraryGame:
    """One game of a PDN file: where it is, its tags, its move texts and its PDN text as stored."""

    game_id: str
    path: Path
    index: int
    tags: tuple[tuple[str, str], ...]
    moves: tuple[str, ...]
    pdn: str
    games_in_file: int = 1
    mtime: float | None = None

    def tag(self, name: str, default: str = "") -> str:
        """The value of tag ``name`` (case-insensitive), or ``default``."""
        return _tag(self.tags, name, default)

    def summary(self) -> dict[str, Any]:
        """What the library list shows (see :func:`summary`)."""
        return summary(self.game_id, self.path, self.tags, len(self.moves), self.mtime)

    @property
    def download_name(self) -> str:
        """The file name a download gets: the PDN file's own, numbered when it holds several games."""
        return download_name(self.path, self.index, self.games_in_file)

    def variant_label(self) -> str:
        """The variant's id when the file names it (Variant or GameType tag), else the raw GameType."""
        return variant_label(self.tags)

    def __repr__(self) -> str:
        players = f"{self.tag('White')!r}-{self.tag('Black')!r}"
        return f"LibraryGame({self.game_id!r}, {players}, {len(self.moves)} plies)"


def _tag(tags: tuple[tuple[str, str], ...], name: str, default: str = "") -> str:
    for key, value in tags:
        if key.lower() == name.lower():
            return value
    return default


def variant_label(tags: tuple[tuple[str, str], ...]) -> str:
    """The variant's id when the tags name it (Variant or GameType tag), else the raw GameType."""
    variant = _tag(tags, "Variant")
    if variant:
        return variant
    gametype = _tag(tags, "GameType")
    if gametype:
        try:
            import rules

            return rules.variant_for_gametype(gametype).id
        except (ImportError, AttributeError, ValueError):
            return gametype
    return "international"


STAMP_RE = re.compile(r"^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})\d{2}-")
"""The start time in the name the board gives a game's file: ``20261130-203000-international.pdn``."""


def game_time(path: Path, date: str) -> str:
    """The game's start time "HH:MM" from its file's name, when that name is the board's for a game of
    ``date`` (the Date tag holds no time); else ""."""
    m = STAMP_RE.match(path.name)
    if not m or date != f"{m[1]}.{m[2]}.{m[3]}":
        return ""
    return f"{m[4]}:{m[5]}"


def variant_name(label: str) -> str:
    """The variant's name for readers ("Brazilian draughts"); ``label`` for a variant the board lacks."""
    try:
        import rules

        return rules.get_variant(label).name
    except (ImportError, ValueError):
        return label


def summary(game_id: str, path: Path, tags: tuple[tuple[str, str], ...], plies: int,
            mtime: float | None) -> dict[str, Any]:
    """What the library list shows: date and start time (when known), variant id and name, players,
    result, whether and how the game ended, the number of plies and the name its download gets."""
    date = _tag(tags, "Date")
    start = game_time(path, date)
    if (not date or "?" in date) and mtime is not None:
        date, start = time.strftime("%Y.%m.%d", time.localtime(mtime)), time.strftime("%H:%M",
                                                                                       time.localtime(mtime))
    result = _tag(tags, "Result", "*")
    label = variant_label(tags)
    return {"id": game_id, "file": path.name, "date": date or "?", "time": start, "variant": label,
            "variant_name": variant_name(label), "white": _tag(tags, "White", "?"),
            "black": _tag(tags, "Black", "?"), "result": result, "finished": result != "*",
            "termination": _tag(tags, "Termination"), "plies": plies, "event": _tag(tags, "Event")}


def download_name(path: Path, index: int, games_in_file: int) -> str:
    """``20261201-104321-spanish.pdn``, the only game of its file; ``club-2.pdn``, the second of many."""
    return path.name if games_in_file == 1 else f"{path.stem}-{index + 1}.pdn"


def split_games(text: str) -> list[str]:
    """Split PDN text into the texts of its games (a game ends with its result token)."""
    games: list[str] = []
    current: list[str] = []
    in_moves = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("[") and in_moves and current:
            games.append("\n".join(current).strip())
            current, in_moves = [], False
        if stripped and not stripped.startswith("["):
            in_moves = True
        current.append(line)
    if "".join(current).strip():
        games.append("\n".join(current).strip())
    return games


def parse_game(text: str) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Tags and move texts of one PDN game (comments, variations, move numbers and the result dropped)."""
    tags = tuple((m.group(1), m.group(2).replace('\\"', '"')) for m in TAG_RE.finditer(text))
    body = TAG_RE.sub(" ", text)
    body = re.sub(r"\{[^}]*\}", " ", body)
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", " ", body)
    body = re.sub(r"\d+\.(\.\.)?", " ", body)
    moves = []
    for token in body.split():
        token = token.rstrip("!?*")
        if not token or token in RESULTS:
            continue
        if MOVE_RE.match(token):
            moves.append(token)
    return tags, tuple(moves)


@dataclass(frozen=True)
class _Entry:
    """One game as the index keeps it: enough for the list, not its moves or text (read again on demand)."""

    game_id: str
    path: Path
    index: int
    tags: tuple[tuple[str, str], ...]
    plies: int


@dataclass(frozen=True)
class _File:
    stamp: tuple[int, int]   # st_mtime_ns, st_size
    mtime: float
    entries: tuple[_Entry, ...]


class GameLibrary:
    """The games under one directory (``*.pdn`` in it and below, newest file first), indexed once: a listing
    looks only at the directories' modification times, re-reads only the files that changed, and serves the
    list's JSON built when something did. A file changed in place (same name, its directory untouched) is
    found by the full check every ``sweep_seconds``."""

    def __init__(self, directory: Path, sweep_seconds: float = 30.0) -> None:
        self.directory = Path(directory)
        self.sweep_seconds = sweep_seconds
        self.reads = 0   # PDN files read since the start (the index re-reads only what changed)
        self._files: dict[Path, _File] = {}
        self._unreadable: dict[Path, str] = {}   # files the last sweep could not read, and why
        self._dirs: dict[str, int] = {}
        self._swept_at = -sweep_seconds
        self._racy = True
        self._entries: list[_Entry] = []
        self._by_id: dict[str, _Entry] = {}
        self._listing: bytes | None = None
        self._lock = threading.Lock()

    # --- the index --------------------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Bring the index up to date; whether anything changed."""
        with self._lock:
            if self._dirs and not self._racy and self._dirs == self._known_dir_stamps() and \
                    time.monotonic() - self._swept_at < self.sweep_seconds:
                return False
            return self._sweep()

    def _known_dir_stamps(self) -> dict[str, int]:
        """The modification times of the directories found by the last sweep (a new or removed folder changes
        its parent's, so this is enough to tell whether anything changed)."""
        stamps: dict[str, int] = {}
        for folder in self._dirs:
            try:
                stamps[folder] = os.stat(folder).st_mtime_ns
            except OSError:
                continue
        return stamps

    def _dir_stamps(self) -> dict[str, int]:
        """The modification time of every directory of the library (a file added, removed or replaced by a
        rename changes its directory's)."""
        stamps: dict[str, int] = {}
        stack = [str(self.directory)]
        while stack:
            folder = stack.pop()
            try:
                stamps[folder] = os.stat(folder).st_mtime_ns
                with os.scandir(folder) as entries:
                    stack.extend(e.path for e in entries if e.is_dir(follow_symlinks=False))
            except OSError:
                continue
        return stamps

    def _sweep(self) -> bool:
        self._dirs = self._dir_stamps()
        self._swept_at = time.monotonic()
        # A directory changed within the clock's granularity of this sweep could change again with the same
        # time stamp: trust the stamps only once they are older than that (as git does with its index).
        self._racy = any(time.time() - stamp / 1e9 < RACY_SECONDS for stamp in self._dirs.values())
        seen: dict[Path, _File] = {}
        self._unreadable = {}
        changed = False
        for folder in self._dirs:
            try:
                with os.scandir(folder) as entries:
                    found = [(Path(e.path), e.stat()) for e in entries
                             if e.name.endswith(".pdn") and e.is_file(follow_symlinks=False)]
            except OSError:
                continue
            for path, stat in found:
                stamp = (stat.st_mtime_ns, stat.st_size)
                known = self._files.get(path)
                if known is not None and known.stamp == stamp:
                    seen[path] = known
                    continue
                indexed = self._read(path, stamp, stat.st_mtime)
                if indexed is not None:
                    seen[path] = indexed
                    changed = True
        changed = changed or seen.keys() != self._files.keys()
        if changed:
            self._files = seen
            ordered = sorted(seen.items(), key=lambda item: (item[1].mtime, item[0].name), reverse=True)
            self._entries = [entry for _, indexed in ordered for entry in indexed.entries]
            self._by_id = {entry.game_id: entry for entry in self._entries}
            self._listing = None
        return changed

    def _read(self, path: Path, stamp: tuple[int, int], mtime: float) -> _File | None:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            log.warning("cannot read %s: %s", path, exc)
            self._unreadable[path] = exc.strerror or str(exc)
            return None
        self.reads += 1
        rel = path.relative_to(self.directory).as_posix()
        entries = []
        for index, game_text in enumerate(split_games(text)):
            tags, moves = parse_game(game_text)
            game_id = f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', rel)}~{index}"
            entries.append(_Entry(game_id, path, index, tags, len(moves)))
        return _File(stamp, mtime, tuple(entries))

    # --- reading it ---------------------------------------------------------------------------------------
    def listing(self) -> list[dict[str, Any]]:
        """The summaries of every game, newest file first."""
        self.refresh()
        with self._lock:
            return [self._summary(entry) for entry in self._entries]

    def listing_json(self) -> bytes:
        """``{"games": [summary, ...]}`` as JSON, built again only when the library changed."""
        self.refresh()
        with self._lock:
            if self._listing is None:
                games = [self._summary(entry) for entry in self._entries]
                self._listing = json.dumps({"games": games}, separators=(",", ":"),
                                           ensure_ascii=False).encode()
            return self._listing

    def _summary(self, entry: _Entry) -> dict[str, Any]:
        indexed = self._files[entry.path]
        return summary(entry.game_id, entry.path, entry.tags, entry.plies, indexed.mtime) | {
            "download": download_name(entry.path, entry.index, len(indexed.entries))}

    def games(self) -> list[LibraryGame]:
        """Every game of every file, read whole (for tools and tests; the page uses :meth:`listing_json`)."""
        self.refresh()
        with self._lock:
            files = list(dict.fromkeys(entry.path for entry in self._entries))
        return [record for path in files for record in self._records(path)]

    def games_and_problems(self) -> tuple[list[LibraryGame], list[str]]:
        """Every game of every file read whole, and one message for each file that cannot be read or is not
        UTF-8 text (its games are left out): for the statistics, which name what they leave out."""
        self.refresh()
        with self._lock:
            files = list(dict.fromkeys(entry.path for entry in self._entries))
            problems = [f"{self._name(path)}: cannot read: {why}"
                        for path, why in sorted(self._unreadable.items())]
        records: list[LibraryGame] = []
        for path in files:
            try:
                path.read_bytes().decode("utf-8")
                records += self._records(path)
            except UnicodeDecodeError as exc:
                problems.append(f"{self._name(path)}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at "
                                f"offset {exc.start}); its games are left out")
            except OSError as exc:
                problems.append(f"{self._name(path)}: cannot read: {exc.strerror or exc}")
            except LibraryError as exc:
                problems.append(str(exc))
        return records, problems

    def _name(self, path: Path) -> str:
        """A file's name relative to the library's directory (what messages show)."""
        return path.relative_to(self.directory).as_posix()

    def get(self, game_id: str) -> LibraryGame:
        """The game with this id, read from its file (ids come from the index; nothing else is ever read)."""
        self.refresh()
        with self._lock:
            entry = self._by_id.get(game_id)
        records = self._records(entry.path) if entry is not None else []
        for record in records:
            if record.game_id == game_id:
                return record
        raise LibraryError(f"no game {game_id!r} in the library")

    def _records(self, path: Path) -> list[LibraryGame]:
        """The games of one indexed file, read again (they are not kept in memory)."""
        with self._lock:
            indexed = self._files.get(path)
        if indexed is None:
            return []
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise LibraryError(f"cannot read {path.name}: {exc.strerror}") from None
        self.reads += 1
        texts = split_games(text)
        records = []
        for entry, game_text in zip(indexed.entries, texts, strict=False):
            tags, moves = parse_game(game_text)
            records.append(LibraryGame(entry.game_id, path, entry.index, tags, moves, game_text, len(texts),
                                      indexed.mtime))
        return records

    def all_pdn(self) -> str:
        """Every game of the library as one PDN text."""
        return "\n\n".join(record.pdn for record in self.games()) + "\n"

    def __repr__(self) -> str:
        return f"GameLibrary({str(self.directory)!r}, {len(self._entries)} games indexed, {self.reads} reads)"


def replay(record: LibraryGame) -> dict[str, Any]:
    """The game move by move for the viewer: the board size and, for every ply from the start, the pieces,
    the move text and its from/to squares. Stops (with ``error``) at the first move that cannot be read."""
    import rules
    from rules.pdn import PdnGame, variant_of

    try:   # the variant with the options its tags give (VariantOptions, the GameType's first player)
        variant = variant_of(PdnGame(tags=dict(record.tags)))
    except ValueError as exc:
        raise LibraryError(f"{record.path.name}, game {record.index + 1}: {exc}") from None
    fen = record.tag("FEN") or None
    board = rules.Board(variant, fen)
    geometry = variant.geometry
    frames: list[dict[str, Any]] = [{"text": "start", "pieces": pieces_json(board), "from": None, "to": None}]
    error = None
    for ply, text in enumerate(record.moves, start=1):
        try:
            move = board.parse_move(text)
        except ValueError as exc:
            error = f"move {ply} ({text}): {exc}"
            break
        by = "white" if int(board.turn) == 0 else "black"
        board.push(move)
        frames.append({"text": text, "pieces": pieces_json(board), "by": by,
                       "from": list(geometry.rc(move.from_square)), "to": list(geometry.rc(move.to_square))})
    return {"id": record.game_id, "summary": record.summary(), "variant": variant.id,
            "first": "white" if int(variant.first) == 0 else "black",
            "rows": variant.height, "cols": variant.width, "frames": frames, "error": error}


def pieces_json(board: rules.Board) -> list[dict[str, Any]]:
    """The pieces of a rules Board as the page draws them: row, col, color and king flag."""
    geometry = board.variant.geometry
    out = []
    for square, piece in sorted(board.pieces().items()):
        row, col = geometry.rc(square)
        out.append({"row": row, "col": col, "color": "white" if int(piece.color) == 0 else "black",
                    "king": bool(piece.king)})
    return out
