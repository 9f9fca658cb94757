"""The PDN game model: tags, a move tree with comments, NAGs and variations, and a result.

Moves are kept as text (normalised: no move number, no leading zeros) so that games of any variant can be
read without the rules; `validate` fills `MoveNode.move` with the rules' `Move` for each checked move.
Equality compares what the game says - tags (in any order), moves, annotations, result and, when there are
moves, the number of the first - never where it stood in a file, its resolved moves or the messages met.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rules.errors import shorten

if TYPE_CHECKING:
    from rules.pdn.errors import PdnError

SEVEN_TAGS: tuple[str, ...] = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
RESULTS: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2", "2-0", "1-1", "0-2", "0-0", "*")
# Standard move-strength glyphs and their numeric annotation glyph numbers.
GLYPH_NAGS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}
NAG_GLYPHS: dict[int, str] = {v: k for k, v in GLYPH_NAGS.items()}


@dataclass(frozen=True)
class ClockComment:
    """A clock comment after a move: both players' remaining times (seconds) and the wall-clock time it was
    made (not a time source: that is firmware_bridge.clock.Clock)."""

    white: int
    black: int
    wall: str | None = None

    def __str__(self) -> str:
        text = f"[%clock w{_hms(self.white)} b{_hms(self.black)}]"
        return text + (f" [%wall {self.wall}]" if self.wall else "")


def _hms(seconds: int) -> str:
    h, rest = divmod(int(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


@dataclass(eq=True, slots=True)
class MoveNode:
    """One move of a line, with its annotations and the alternative lines that could replace it."""

    text: str
    nags: list[int] = field(default_factory=list)
    strength: str = ""  # a non-standard strength indicator kept verbatim, e.g. "(!?!!!)"
    comments: list[str] = field(default_factory=list)
    clock: ClockComment | None = None
    variations: list[Line] = field(default_factory=list)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)
    move: object | None = field(default=None, compare=False, repr=False)  # rules.Move once validated

    def __repr__(self) -> str:
        return f"MoveNode({self.text!r}, nags={self.nags}, variations={len(self.variations)})"


@dataclass(eq=True, slots=True)
class Line:
    """A sequence of moves: the main line of a game or a variation, with a comment before its first move."""

    moves: list[MoveNode] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"Line({' '.join(m.text for m in self.moves)!r})"


@dataclass(eq=True)
class PdnGame:
    """One PDN game: ordered tags, the move tree, the terminating result and the errors met reading it."""

    tags: dict[str, str] = field(default_factory=dict)
    mainline: Line = field(default_factory=Line)
    result: str = "*"
    start_ply: int = 0  # 2 * (first move number - 1) + (1 if the first move is the second player's)
    number: int = field(default=0, compare=False)  # 1-based index in its file
    line: int = field(default=0, compare=False)
    errors: list[PdnError] = field(default_factory=list, compare=False, repr=False)
    warnings: list[PdnError] = field(default_factory=list, compare=False, repr=False)  # e.g. move numbers
    variant_id: str | None = field(default=None, compare=False)
    tag_positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False, repr=False)
    result_position: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    @property
    def moves(self) -> list[MoveNode]:
        """The main-line moves."""
        return self.mainline.moves

    def __eq__(self, other: object) -> bool:
        """Same tags, moves, annotations and result (and first move number, when there are moves)."""
        if not isinstance(other, PdnGame):
            return NotImplemented
        return (self.tags == other.tags and self.result == other.result and self.mainline == other.mainline
                and (self.start_ply == other.start_ply or not self.moves))

    def label(self) -> str:
        """Event/White/Black for messages, e.g. "Event 'WK 2003', White 'A', Black 'B'"."""
        parts = [f"{k} {shorten(self.tags[k])!r}" for k in ("Event", "White", "Black") if self.tags.get(k)]
        return ", ".join(parts)

    def __repr__(self) -> str:
        return (f"PdnGame(number={self.number}, {self.label() or 'no tags'}, moves={len(self.moves)}, "
                f"result={self.result!r}, errors={len(self.errors)})")
