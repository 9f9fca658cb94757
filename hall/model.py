"""Each board's game as the hall knows it: journal entries applied strictly in sequence, replayed through the
rules, so a message seen twice, out of order or forged never changes a game.

An entry ``seq`` is applied when it is the next one; one already applied is dropped (and must be identical:
anything else is a conflict); a later one waits until the gap is filled, by the stream or by the board's
retained game (which holds every entry).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from controller.record import forced_move_text
from rules import Board, Variant, get_variant
from rules.pdn.tokens import is_move_text

from .errors import HallError

MAX_HELD = 500
"""Entries kept waiting for a gap to be filled (more means the board is out of sync: its game catches up)."""


class StreamError(HallError, ValueError):
    """An entry the hall cannot accept: it conflicts with what was applied, or the rules refuse it."""


MAX_LABEL = 120
"""The longest forced ply's label (its move and the words in brackets after it)."""


def check_ply_text(kind: str, text: str, number: int) -> None:
    """A ply's text as the board wrote it: one move, and for a forced ply a short label of printable words
    after it; anything else could write other moves, tags or games into the live PDN."""
    move = forced_move_text(text) if kind == "forced" else text
    printable = text.isprintable() and len(text) <= MAX_LABEL
    if not is_move_text(move) or not printable or (kind == "move" and move != text):
        raise StreamError(f"ply {number}: {text[:40]!r} is not a move (and a short label, when forced)")


@dataclass(frozen=True)
class Ply:
    """One committed ply as the board recorded it: ``forced`` plies carry the position after them."""

    kind: str
    text: str
    fen: str
    by: str
    clocks: tuple[float, float] | None = None
    wall: str | None = None


@dataclass
class GameStream:
    """One game of one board: its entries in order and the position they replay to."""

    game: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    plies: list[Ply] = field(default_factory=list)
    result: tuple[str, str] | None = None
    variant: Variant | None = None
    start_fen: str | None = None
    board: Board | None = None
    held: dict[int, dict[str, Any]] = field(default_factory=dict)

    @property
    def seq(self) -> int:
        """The number of the last entry applied (0 before the start)."""
        return len(self.entries)

    @property
    def started(self) -> str:
        return str(self.entries[0].get("started", "")) if self.entries else ""

    def offer(self, seq: int, entry: dict[str, Any]) -> int:
        """Take entry ``seq``: the number of entries applied (0 for a duplicate or one held for later)."""
        if seq <= self.seq:
            if self.entries[seq - 1] != entry:
                raise StreamError(f"entry {seq} differs from the one already applied")
            return 0
        if seq > self.seq + 1:
            if len(self.held) >= MAX_HELD:
                raise StreamError(f"more than {MAX_HELD} entries wait for entry {self.seq + 1}")
            self.held[seq] = entry
            return 0
        self._apply(entry)
        applied = 1
        while self.seq + 1 in self.held:
            self._apply(self.held.pop(self.seq + 1))
            applied += 1
        self.held = {k: v for k, v in self.held.items() if k > self.seq}
        return applied

    def catch_up(self, entries: list[dict[str, Any]]) -> int:
        """Take a whole retained game: the entries past ours (the ones we have must be the same)."""
        applied = 0
        for seq, entry in enumerate(entries, 1):
            applied += self.offer(seq, entry)
        return applied

    def _apply(self, entry: dict[str, Any]) -> None:
        kind = entry["type"]
        if (kind == "start") != (self.seq == 0):
            raise StreamError("a game starts with its start entry, and only there")
        if kind == "start":
            self._start(entry)
        elif kind in ("move", "forced"):
            self._ply(kind, entry)
        elif kind == "takeback":
            self._takeback(entry["plies"])
        else:
            self.result = (entry["result"], entry["reason"])
        self.entries.append(entry)

    def _start(self, entry: dict[str, Any]) -> None:
        settings = entry["settings"]
        try:
            options = settings.get("variant_options") or {}   # docs/rules/README.md#options
            if not isinstance(options, dict):
                raise ValueError(f"variant_options must be an object, not {options!r}")
            self.variant = get_variant(settings["variant"], **options)
            self.start_fen = settings.get("fen")
            self.board = Board(self.variant, self.start_fen)
        except ValueError as exc:
            raise StreamError(f"bad start: {exc}") from None

    def _ply(self, kind: str, entry: dict[str, Any]) -> None:
        assert self.board is not None and self.variant is not None
        board = self.board.copy()
        check_ply_text(kind, entry["text"], len(self.plies) + 1)
        try:
            if kind == "move":
                board.push(board.parse_move(entry["text"]))
            else:
                board = Board(self.variant, entry["fen"])
        except ValueError as exc:
            raise StreamError(f"ply {len(self.plies) + 1} {entry['text']}: {exc}") from None
        if board.fen() != entry["fen"]:
            raise StreamError(f"ply {len(self.plies) + 1} {entry['text']}: the position after it is not the "
                              f"board's")
        clocks = entry.get("clocks")
        self.plies.append(Ply(kind, entry["text"], entry["fen"], entry["by"],
                              (float(clocks[0]), float(clocks[1])) if clocks else None, entry.get("wall")))
        self.board = board
        self.result = None

    def _takeback(self, plies: int) -> None:
        assert self.variant is not None
        if plies > len(self.plies):
            raise StreamError(f"a takeback of {plies} plies, but only {len(self.plies)} were played")
        del self.plies[len(self.plies) - plies:]
        board = Board(self.variant, self.start_fen)
        for ply in self.plies:
            if ply.kind == "move":
                board.push(board.parse_move(ply.text))
            else:
                board = Board(self.variant, ply.fen)
        self.board = board
        self.result = None

    def positions(self) -> list[str]:
        """The FEN at the start and after every ply."""
        assert self.variant is not None
        return [Board(self.variant, self.start_fen).fen(), *(p.fen for p in self.plies)]

    def __repr__(self) -> str:
        variant = self.variant.id if self.variant else "?"
        return (f"GameStream({self.game}, {variant}, seq={self.seq}, plies={len(self.plies)}, "
                f"result={self.result})")
