"""Issue 28 item 18: the hall numbers a game's plies by moves, as the board's page does ("3. 9-13", "3. …
22-18"), not by plies ("5. 9-13")."""

from __future__ import annotations

from hall.model import GameStream
from hall.views import move_labels
from rules import Board


def game_of(fen: str | None, *texts: str) -> GameStream:
    """An English game from ``fen`` (None: the start position) with the plies ``texts``."""
    board = Board("english", fen)
    stream = GameStream("g")
    stream.offer(1, {"type": "start", "settings": {"variant": "english", "fen": fen}})
    for seq, text in enumerate(texts, 2):
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        stream.offer(seq, {"type": "move", "text": text, "fen": board.fen(), "by": by})
    return stream


def test_plies_are_numbered_by_moves_from_the_first_mover() -> None:
    game = game_of(None, "11-15", "23-19", "8-11", "22-17", "9-13")   # English: Black moves first
    assert move_labels(game) == ["1. 11-15", "1. \u2026 23-19", "2. 8-11", "2. \u2026 22-17", "3. 9-13"]


def test_a_game_set_up_for_the_second_mover_starts_with_its_ellipsis() -> None:
    game = game_of("W:W21,22:B9,10", "22-18", "10-15")
    assert move_labels(game) == ["1. \u2026 22-18", "2. 10-15"]
