"""The board's one question gesture, sans-IO: a piece lifted, held up a moment (``TAP_UP`` seconds) and put
back on its own square with nothing else touched in between. No move looks like it (a move that ends where
it began takes pieces on the way, and a piece put back is "no move" to the game), so a blind player can ask
with it: one tap names the piece and where it may go, a second tap within ``TAP_SECONDS`` reads the whole
position (README, "A board for blind and partially sighted players")."""

from __future__ import annotations

from dataclasses import dataclass

from firmware_bridge.types import Cell

__all__ = ["TAP_SECONDS", "TAP_UP", "Tap", "Taps"]

TAP_UP = (0.3, 3.0)
"""How long a tapped piece is up: longer than a reed's flicker (firmware_bridge.faults: a flip is undone
within 0.25 s), shorter than a piece lifted to think with."""

TAP_SECONDS = 2.0
"""Taps on the same square at most this far apart count as one gesture (two taps: read the position)."""


@dataclass(frozen=True)
class Tap:
    """A piece on ``cell`` lifted and put back; ``count`` taps on it in a row (1, 2, ...)."""

    cell: Cell
    count: int = 1

    @property
    def reads_position(self) -> bool:
        """The second tap of a pair asks for the whole position; the first (and third) for the piece."""
        return self.count % 2 == 0


@dataclass
class Taps:
    """Fed each change of the played squares (``touched``); answers the Tap it completes, if any."""

    _up: Cell | None = None
    _up_at: float = 0.0
    _last: Tap | None = None
    _last_at: float = 0.0

    def touched(self, lifted: frozenset[Cell], placed: frozenset[Cell], now: float) -> Tap | None:
        """One reading's change: a single piece up starts a tap, the same square filled again in time ends
        it; any other change (a second square, a piece put elsewhere, a flicker) is no tap and ends a run."""
        up, self._up = self._up, None
        if len(lifted) == 1 and not placed and up is None:
            (self._up,), self._up_at = lifted, now
            return None
        if not lifted and placed == {up} and TAP_UP[0] <= now - self._up_at <= TAP_UP[1]:
            assert up is not None
            last = self._last
            count = last.count + 1 if last and last.cell == up and now - self._last_at <= TAP_SECONDS else 1
            self._last, self._last_at = Tap(up, count), now
            return self._last
        self._last = None
        return None

    def __repr__(self) -> str:
        return f"Taps(up={self._up}, last={self._last})"
