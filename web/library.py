"""The game library: finished games read from the controller's data directory (PDN files), listed with their
headers, replayed move by move for the viewer, and served back as PDN."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
RESULTS = ("1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*")
MOVE_RE = re.compile(r"^[a-zA-Z]?\d+[a-z]?\d*(?:[-x:][a-zA-Z]?\d+[a-z]?\d*)+$")


class LibraryError(ValueError):
    """A game id that does not exist, or a PDN game that cannot be read (names the file and game)."""


@dataclass(frozen=True)
class GameRecord:
    """One game of a PDN file: where it is, its tags, its move texts and its PDN text as stored."""

    game_id: str
    path: Path
    index: int
    tags: tuple[tuple[str, str], ...]
    moves: tuple[str, ...]
    pdn: str

    def tag(self, name: str, default: str = "") -> str:
        """The value of tag ``name`` (case-insensitive), or ``default``."""
        for key, value in self.tags:
            if key.lower() == name.lower():
                return value
        return default

    def summary(self) -> dict[str, Any]:
        """What the library list shows: date, variant, players, result and the number of moves."""
        date = self.tag("Date")
        if not date or "?" in date:
            try:
                date = time.strftime("%Y.%m.%d %H:%M", time.localtime(self.path.stat().st_mtime))
            except OSError:
                date = "?"
        return {"id": self.game_id, "file": self.path.name, "date": date,
                "variant": self.variant_label(), "white": self.tag("White", "?"),
                "black": self.tag("Black", "?"), "result": self.tag("Result", "*"), "plies": len(self.moves),
                "event": self.tag("Event")}

    def variant_label(self) -> str:
        """The variant's id when the file names it (Variant or GameType tag), else the raw GameType."""
        variant = self.tag("Variant")
        if variant:
            return variant
        gametype = self.tag("GameType")
        if gametype:
            try:
                import rules

                return rules.variant_for_gametype(gametype).id
            except (ImportError, AttributeError, ValueError):
                return gametype
        return "international"

    def __repr__(self) -> str:
        players = f"{self.tag('White')!r}-{self.tag('Black')!r}"
        return f"GameRecord({self.game_id!r}, {players}, {len(self.moves)} plies)"


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


class GameLibrary:
    """Finished games under one directory (``*.pdn``, newest file first), rescanned on every listing."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def files(self) -> list[Path]:
        """The PDN files of the library, newest first (the journal of a game in progress is not one)."""
        if not self.directory.is_dir():
            return []
        files = [p for p in self.directory.rglob("*.pdn") if p.is_file()]
        return sorted(files, key=lambda p: (p.stat().st_mtime, p.name), reverse=True)

    def games(self) -> list[GameRecord]:
        """Every game of every file; unreadable files are logged and skipped."""
        records: list[GameRecord] = []
        for path in self.files():
            try:
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError as exc:
                log.warning("cannot read %s: %s", path, exc)
                continue
            rel = path.relative_to(self.directory).as_posix()
            for index, game_text in enumerate(split_games(text)):
                tags, moves = parse_game(game_text)
                game_id = f"{re.sub(r'[^A-Za-z0-9_.-]+', '_', rel)}~{index}"
                records.append(GameRecord(game_id, path, index, tags, moves, game_text))
        return records

    def get(self, game_id: str) -> GameRecord:
        """The game with this id (ids come from :meth:`games`; nothing else is ever read)."""
        for record in self.games():
            if record.game_id == game_id:
                return record
        raise LibraryError(f"no game {game_id!r} in {self.directory}")

    def all_pdn(self) -> str:
        """Every game of the library as one PDN text."""
        return "\n\n".join(record.pdn for record in self.games()) + "\n"

    def __repr__(self) -> str:
        return f"GameLibrary({str(self.directory)!r})"


def replay(record: GameRecord) -> dict[str, Any]:
    """The game move by move for the viewer: the board size and, for every ply from the start, the pieces,
    the move text and its from/to squares. Stops (with ``error``) at the first move that cannot be read."""
    import rules

    variant_id = record.variant_label()
    try:
        variant = rules.get_variant(variant_id)
    except ValueError:
        variant = rules.variant_for_gametype(record.tag("GameType"))
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
        board.push(move)
        frames.append({"text": text, "pieces": pieces_json(board),
                       "from": list(geometry.rc(move.from_square)), "to": list(geometry.rc(move.to_square))})
    return {"id": record.game_id, "summary": record.summary(), "variant": variant.id,
            "rows": variant.height, "cols": variant.width, "frames": frames, "error": error}


def pieces_json(board: Any) -> list[dict[str, Any]]:
    """The pieces of a rules Board as the page draws them: row, col, color and king flag."""
    geometry = board.variant.geometry
    out = []
    for square, piece in sorted(board.pieces().items()):
        row, col = geometry.rc(square)
        out.append({"row": row, "col": col, "color": "white" if int(piece.color) == 0 else "black",
                    "king": bool(piece.king)})
    return out
