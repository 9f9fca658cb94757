"""The JSON the hall's page reads: a round's boards (mini boards, last move, clocks, results, flags) and one
board's whole game, positions drawn from the rules (row 0 is White's side)."""

from __future__ import annotations

from typing import Any

from rules import Board, Color

from .book import EventBook
from .model import GameStream
from .pdn import result_of
from .registry import BoardFeed


def pieces(game: GameStream, fen: str) -> list[list[int | str]]:
    """``[row, col, "w"|"b"|"W"|"B"]`` for every piece of a position of the game."""
    assert game.variant is not None
    board = Board(game.variant, fen)
    rc = game.variant.geometry.rc
    out: list[list[int | str]] = []
    for square, piece in board.pieces().items():
        letter = "w" if piece.color == Color.WHITE else "b"
        out.append([*rc(square), letter.upper() if piece.king else letter])
    return out


def last_move(game: GameStream) -> list[list[int]]:
    """The cells the last legal move went from and to (empty for none or a forced ply)."""
    if not game.plies or game.plies[-1].kind != "move" or game.variant is None:
        return []
    before = game.positions()[-2]
    try:
        move = Board(game.variant, before).parse_move(game.plies[-1].text)
    except ValueError:
        return []
    rc = game.variant.geometry.rc
    return [list(rc(move.from_square)), list(rc(move.to_square))]


def move_labels(game: GameStream) -> list[str]:
    """Every ply as the board's page writes it on its own: "3. 9-13" for the first mover's, "3. … 22-18" for
    the second's; numbered by moves, not plies (a game set up for the second mover starts "1. … ")."""
    assert game.variant is not None
    first = "white" if game.variant.first == Color.WHITE else "black"
    labels: list[str] = []
    number, second_done = 0, True
    for ply in game.plies:
        if ply.by == first or second_done:
            number += 1
            second_done = False
        if ply.by == first:
            labels.append(f"{number}. {ply.text}")
        else:
            labels.append(f"{number}. \u2026 {ply.text}")
            second_done = True
    return labels


def board_summary(feed: BoardFeed, book: EventBook, now: float) -> dict[str, Any]:
    """One board of the round page."""
    t = feed.topic
    pairing = book.pairing(t.round, t.board)
    correction = book.correction(t.round, t.board)
    game = feed.game
    summary: dict[str, Any] = {
        "board": t.board,
        "white": (pairing.white if pairing else "") or feed.headers.get("white") or "?",
        "black": (pairing.black if pairing else "") or feed.headers.get("black") or "?",
        "result": result_of(feed, correction), "reason": game.result[1] if game and game.result else None,
        "corrected": {"result": correction.result, "note": correction.note} if correction else None,
        "flags": feed.flags(now), "problem": feed.problem,
        "online": feed.status.get("online"), "state": feed.status.get("state"),
        "clocks": feed.status.get("clocks"), "plies": 0, "last": None, "seq": game.seq if game else 0,
    }
    if game is not None and game.variant is not None and game.board is not None:
        summary.update({
            "variant": game.variant.id, "rows": game.variant.height, "cols": game.variant.width,
            "plies": len(game.plies), "last": game.plies[-1].text if game.plies else None,
            "last_label": move_labels(game)[-1] if game.plies else None,
            "turn": "white" if game.board.turn == Color.WHITE else "black",
            "pieces": pieces(game, game.board.fen()), "last_cells": last_move(game),
        })
        if game.plies and game.plies[-1].clocks is not None and summary["clocks"] is None:
            white, black = game.plies[-1].clocks
            summary["clocks"] = {"white": round(white), "black": round(black), "running": None}
    return summary


def board_detail(feed: BoardFeed, book: EventBook, now: float) -> dict[str, Any]:
    """One board with its whole game: every ply and the position after it."""
    detail = board_summary(feed, book, now)
    game = feed.game
    if game is not None and game.variant is not None:
        positions = game.positions()
        labels = move_labels(game)
        detail["moves"] = [{"ply": i + 1, "text": p.text, "label": labels[i], "by": p.by, "clocks": p.clocks,
                            "pieces": pieces(game, positions[i + 1])} for i, p in enumerate(game.plies)]
        detail["start"] = pieces(game, positions[0])
    return detail
