"""Value types of a search: its limits, progress reports and final result."""

from __future__ import annotations

from dataclasses import dataclass, field

from rules import Move

MATE = 100_000
MATE_BOUND = MATE - 1_000
INFINITY = MATE + 1


@dataclass(frozen=True)
class SearchLimits:
    """When to stop: after `depth` plies, `time` seconds or `nodes` nodes, whichever is first (None: none)."""

    depth: int | None = None
    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"search depth must be at least 1, got {self.depth}")
        if self.time is not None and self.time <= 0:
            raise ValueError(f"search time must be positive, got {self.time}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"search node limit must be positive, got {self.nodes}")


@dataclass(frozen=True)
class SearchProgress:
    """One finished iteration of the iterative deepening: what the engine thinks so far."""

    depth: int
    score: int
    pv: tuple[Move, ...]
    pv_text: tuple[str, ...]
    nodes: int
    seconds: float

    @property
    def nps(self) -> int:
        """Nodes per second so far."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search: best move (None when there is no legal move), score for the side to move."""

    move: Move | None
    score: int
    pv: tuple[Move, ...] = ()
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    pv_text: tuple[str, ...] = field(default=())

    @property
    def nps(self) -> int:
        """Nodes per second of the whole search."""
        return int(self.nodes / self.seconds) if self.seconds > 0 else 0


def format_score(score: int) -> str:
    """Human text of a score: '+1.25' men, or 'win in 5' / 'loss in 3' (plies) near the mate bound."""
    if score >= MATE_BOUND:
        return f"win in {MATE - score}"
    if score <= -MATE_BOUND:
        return f"loss in {MATE + score}"
    return f"{score / 100:+.2f}"
