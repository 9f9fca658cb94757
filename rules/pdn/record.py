"""Recording a game played on the board as a `PdnGame`, with each move's clocks in a `[%clock]` comment."""

from __future__ import annotations

from collections.abc import Sequence

import rules
from rules.options import format_text
from rules.pdn.model import ClockComment, MoveNode, PdnGame


def variant_tags(variant: rules.Variant, short: bool = False) -> dict[str, str]:
    """The tags naming a game's variant: GameType (its first player the game's: Thai with White first is
    ``31,W,8,8,N2,0``), and VariantOptions for the options that differ from the variant's defaults
    (``first=white allow_180=false``). `short`: an official GameType by its number alone when it can be."""
    values = variant.option_values()
    gametype = variant.pdn_gametype
    if "first" in values:
        parts = gametype.split(",")
        gametype = ",".join([parts[0], variant.first.letter, *parts[2:]])
    elif short and variant.gametype_number:
        gametype = gametype.split(",")[0]
    tags = {"GameType": gametype}
    if values:
        tags["VariantOptions"] = format_text(values)
    return tags


def notation_gametype(variant: rules.Variant, notation: str) -> str:
    """The variant's full GameType with its notation field saying how `notation` ("numeric", "algebraic")
    names squares: `A0` for names; numbers count from a1 along the ranks on an algebraic board, so `N0` (`N3`
    seen by a first player of Black's side); the variant's own field when it already writes `notation`."""
    parts = variant_tags(variant)["GameType"].split(",")
    if (notation == "numeric") != variant.geometry.numeric:
        parts[4] = "A0" if notation == "algebraic" else ("N0" if variant.first == rules.Color.WHITE else "N3")
    return ",".join(parts)


def game_from_board(board: rules.Board, *, tags: dict[str, str] | None = None,
                    clocks: Sequence[ClockComment | None] = (), result: str = "*") -> PdnGame:
    """The moves of `board.move_stack` as a PdnGame (GameType, FEN/SetUp when not the start position).

    `clocks[i]` (if given) is stored on move i and written as `{[%clock w0:05:12 b0:04:58] [%wall ...]}`.
    """
    start = board.copy()
    while start.move_stack:
        start.pop()
    variant = board.variant
    game = PdnGame(tags=dict(tags or {}), result=result)
    game.tags.setdefault("Result", result)
    for name, value in variant_tags(variant, short=True).items():
        game.tags.setdefault(name, value)
    if variant.gametype_number is None:
        game.tags.setdefault("Variant", variant.id)
    if start.fen() != rules.Board(variant).fen():
        game.tags["SetUp"] = "1"
        game.tags["FEN"] = start.fen()
        game.start_ply = 0 if start.turn == variant.first else 1
    for index, move in enumerate(board.move_stack):
        node = MoveNode(start.pdn_move_text(move), clock=clocks[index] if index < len(clocks) else None)
        node.move = move
        game.mainline.moves.append(node)
        start.push(move)
    return game
