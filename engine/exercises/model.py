"""One exercise: a position, what to find in it, the stated solution, the depth the engine confirms it at."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from rules import Board

KINDS: dict[str, str] = {
    "shot": "find the shot",
    "only": "find the only move",
    "ending": "win the ending",
}
"""Exercise kinds and the task each sets the player."""


class ExerciseError(EngineError, ValueError):
    """An exercise file that cannot be used: names the file, the exercise and what was expected."""


@dataclass(frozen=True)
class Exercise:
    """A position (FEN) of `variant` with its task (`kind`), the key move and the line the engine expects."""

    id: str
    variant: str
    kind: str
    fen: str
    solution: str
    depth: int
    line: tuple[str, ...] = ()
    source: str = ""
    note: str = field(default="", compare=False)

    def __repr__(self) -> str:
        return f"Exercise({self.id!r}, {self.kind}, {self.solution!r} at depth {self.depth})"

    @property
    def task(self) -> str:
        """What the player is asked, e.g. 'White to move: find the shot'."""
        side = "White" if self.fen.lstrip().upper().startswith("W") else "Black"
        return f"{side} to move: {KINDS.get(self.kind, self.kind)}"

    def board(self) -> Board:
        """A fresh board with the exercise's position."""
        return Board(self.variant, self.fen)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "kind": self.kind, "fen": self.fen, "solution": self.solution,
                                "depth": self.depth, "line": list(self.line), "source": self.source}
        if self.note:
            data["note"] = self.note
        return data

    @classmethod
    def from_json(cls, data: Any, variant: str, where: str) -> Exercise:
        """Read one entry of a collection file; `where` names it in errors (file and index)."""
        if not isinstance(data, dict):
            raise ExerciseError(f"{where}: expected an object with id, kind, fen, solution, depth")
        missing = [k for k in ("id", "kind", "fen", "solution", "depth") if k not in data]
        if missing:
            raise ExerciseError(f"{where}: missing field {', '.join(missing)}")
        kind = data["kind"]
        if not isinstance(kind, str) or kind not in KINDS:
            raise ExerciseError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
        depth = data["depth"]
        if not isinstance(depth, int) or not 1 <= depth <= 8:
            raise ExerciseError(f"{where}: depth must be a whole number of plies 1-8, got {depth!r}")
        texts = [data["id"], data["fen"], data["solution"], data.get("source", ""), data.get("note", "")]
        line = data.get("line", [])
        if not all(isinstance(t, str) for t in texts) or not isinstance(line, list) or not all(
                isinstance(t, str) for t in line):
            raise ExerciseError(f"{where}: id, fen, solution, source, note and the line's moves must be text")
        return cls(data["id"], variant, kind, data["fen"], data["solution"], depth, tuple(line),
                   data.get("source", ""), data.get("note", ""))
