"""Recording a game played on the board as a `PdnGame`, with each move's clocks in a `[%clock]` comment."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from rules.pdn.model import Clock, MoveNode, PdnGame


def game_from_board(board: rules.Board, *, tags: dict[str, str] | None = None,
                    clocks: Sequence[Clock | None] = (), result: str = "*") -> PdnGame:
    """The moves of `board.move_stack` as a PdnGame (GameType, FEN/SetUp when not the start position).

    `clocks[i]` (if given) is stored on move i and written as `{[%clock w0:05:12 b0:04:58] [%wall ...]}`.
    """
    start = board.copy()
    while start.move_stack:
        start.pop()
    variant = board.variant
    game = PdnGame(tags=dict(tags or {}), result=result)
    game.tags.setdefault("Result", result)
    game.tags.setdefault("GameType", variant.pdn_gametype.split(",")[0] if variant.gametype_number
                         else variant.pdn_gametype)
    if variant.gametype_number is None:
        game.tags.setdefault("Variant", variant.id)
    if start.fen() != rules.Board(variant).fen():
        game.tags["SetUp"] = "1"
        game.tags["FEN"] = start.fen()
        game.start_ply = 0 if start.turn == variant.first else 1
    for index, move in enumerate(board.move_stack):
        node = MoveNode(start.move_text(move), clock=clocks[index] if index < len(clocks) else None)
        node.move = move
        game.mainline.moves.append(node)
        start.push(move)
    return game
