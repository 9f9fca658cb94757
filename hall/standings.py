"""The standings of an event from its pairings and results: points, then Sonneborn-Berger (round robin) or
Buchholz (Swiss), then wins. Draughts counts 2 points a win and 1 a draw unless the arbiter says otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .book import EventBook


@dataclass
class Standing:
    """One player's line of the table."""

    name: str
    points: float = 0.0
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    tiebreak: float = 0.0
    rank: int = 0
    opponents: list[tuple[str, float]] = field(default_factory=list, repr=False)
    """(opponent, this player's score against them as a fraction 0, 0.5, 1)."""


def standings(book: EventBook, results: Mapping[tuple[str, str], str]) -> list[Standing]:
    """The table for ``book``'s pairings, each board's result in ``results[(round, board)]`` (finished
    games only: ``1-0``, ``0-1``, ``1/2-1/2``). A bye scores a win."""
    table: dict[str, Standing] = {}

    def player(name: str) -> Standing:
        return table.setdefault(name, Standing(name))

    for round_, pairs in book.pairings.items():
        for board, pair in pairs.items():
            white = player(pair.white)
            if not pair.black:
                white.points += book.win
                continue
            black = player(pair.black)
            result = results.get((round_, board))
            if result not in ("1-0", "0-1", "1/2-1/2"):
                continue
            score = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
            for me, other, mine in ((white, black, score), (black, white, 1.0 - score)):
                me.games += 1
                me.points += book.win if mine == 1.0 else book.draw if mine == 0.5 else 0.0
                me.wins += mine == 1.0
                me.draws += mine == 0.5
                me.losses += mine == 0.0
                me.opponents.append((other.name, mine))
    for line in table.values():
        if book.system == "swiss":   # Buchholz: the opponents' points
            line.tiebreak = sum(table[o].points for o, _ in line.opponents)
        else:                        # Sonneborn-Berger: the points of those beaten, half of those drawn
            line.tiebreak = sum(table[o].points * s for o, s in line.opponents)
    ordered = sorted(table.values(), key=lambda s: (-s.points, -s.tiebreak, -s.wins, s.name))
    for index, line in enumerate(ordered):
        previous = ordered[index - 1] if index else None
        same = previous is not None and (previous.points, previous.tiebreak, previous.wins) == (
            line.points, line.tiebreak, line.wins)
        line.rank = previous.rank if same and previous is not None else index + 1
    return ordered
