"""A board's game as PDN for broadcast pollers (lidraughts reads the same tags and ``[%clock]`` comments as
the board's own record): the arbiter's pairing names and corrected result win over the board's."""

from __future__ import annotations

from controller.record import ply_nodes
from rules import Board
from rules.pdn import Line, MoveNode, PdnGame, write_game
from rules.pdn.record import variant_tags

from .book import Correction, Pairing
from .model import GameStream
from .registry import BoardFeed


def game_tags(feed: BoardFeed, pairing: Pairing | None, correction: Correction | None,
              site: str) -> dict[str, str]:
    """The PDN tags of a board's game."""
    game, headers = feed.game, feed.headers
    started = game.started if game is not None else ""
    date = f"{started[0:4]}.{started[5:7]}.{started[8:10]}" if len(started) >= 10 else "????.??.??"
    tags = {"Event": headers.get("event") or feed.topic.event, "Site": headers.get("site") or site,
            "Date": date, "Round": feed.topic.round,
            "White": (pairing.white if pairing else "") or headers.get("white") or "?",
            "Black": (pairing.black if pairing else "") or headers.get("black") or "?",
            "Result": result_of(feed, correction)}
    if game is not None and game.variant is not None:
        if game.variant.pdn_gametype:
            tags.update(variant_tags(game.variant))
        if game.start_fen is not None:
            tags["FEN"] = game.start_fen
        time_control = game.entries[0]["settings"].get("time_control")
        if isinstance(time_control, str):
            tags["TimeControl"] = time_control
    tags["Board"] = feed.topic.board
    return tags


def result_of(feed: BoardFeed, correction: Correction | None) -> str:
    """The arbiter's result, else the board's, else ``*`` (in progress)."""
    if correction is not None:
        return correction.result
    game = feed.game
    return game.result[0] if game is not None and game.result is not None else "*"


def board_pdn(feed: BoardFeed, pairing: Pairing | None = None, correction: Correction | None = None,
              site: str = "draughts-board hall") -> str:
    """The PDN text of the board's current game (just the tags before its first message)."""
    tags = game_tags(feed, pairing, correction, site)
    game: GameStream | None = feed.game
    nodes: list[MoveNode] = []
    start_ply = 0
    if game is not None and game.variant is not None:
        board = Board(game.variant, game.start_fen)
        start_ply = 0 if board.turn == game.variant.first else 1
        nodes = ply_nodes(board, game.plies)
    line = Line(nodes)
    if correction is not None:
        note = f"Result set by the arbiter: {correction.result}" + (f" ({correction.note})"
                                                                    if correction.note else "")
        (nodes[-1].comments if nodes else line.comments).append(note)
    return write_game(PdnGame(tags=tags, mainline=line, result=tags["Result"], start_ply=start_ply))
