"""A board's game in the hall: entries applied strictly in sequence, duplicates dropped, gaps held until
filled, conflicts and illegal moves refused, takebacks and forced plies replayed."""

from __future__ import annotations

import pytest

from hall.model import GameStream, StreamError
from rules import Board, get_variant

START = {"type": "start", "settings": {"variant": "english", "fen": None}, "started": "2026-12-01T10:00:00"}


def entries(*texts: str) -> list[dict[str, object]]:
    board, out = Board("english"), [START]
    for text in texts:
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        out.append({"type": "move", "text": text, "fen": board.fen(), "by": by, "clocks": [299.5, 300.0]})
    return out


def test_entries_in_order_duplicates_and_gaps() -> None:
    e = entries("9-13", "22-18", "13-17")
    game = GameStream("g")
    assert game.offer(1, e[0]) == 1
    assert game.offer(3, e[2]) == 0 and game.seq == 1          # held: entry 2 is missing
    assert game.offer(2, e[1]) == 2 and game.seq == 3          # the gap filled, the held entry follows
    assert game.offer(2, e[1]) == 0 and game.seq == 3          # a duplicate is dropped
    assert game.catch_up(e) == 1 and [p.text for p in game.plies] == ["9-13", "22-18", "13-17"]
    assert game.plies[0].clocks == (299.5, 300.0)


def test_conflicts_and_illegal_moves_are_refused() -> None:
    e = entries("9-13", "22-18")
    game = GameStream("g")
    game.catch_up(e)
    with pytest.raises(StreamError, match="differs"):
        game.offer(2, entries("10-14")[1])
    with pytest.raises(StreamError, match="1-32"):
        game.offer(4, {"type": "move", "text": "1-32", "fen": "x", "by": "white"}) or game.offer(
            3, {"type": "move", "text": "1-32", "fen": "x", "by": "white"})
    with pytest.raises(StreamError, match="start"):
        GameStream("h").offer(1, e[1])
    assert game.seq == 3


def test_takeback_end_and_forced_plies() -> None:
    e = entries("9-13", "22-18")
    game = GameStream("g")
    game.catch_up([*e, {"type": "takeback", "plies": 1}])
    assert [p.text for p in game.plies] == ["9-13"] and game.board is not None
    assert game.board.fen() == e[1]["fen"]
    game.offer(6, {"type": "forced", "text": "22-17", "fen": "W:W17,21:B1,2", "by": "black"})
    assert game.seq == 4                                        # entry 5 is still missing
    assert game.offer(5, {"type": "end", "result": "0-1", "reason": "white resigned"}) == 2
    assert game.result is None and game.plies[-1].kind == "forced"   # play went on after the end
    assert game.board.fen() == "W:W17,21:B1,2"
    with pytest.raises(StreamError, match="takeback of 5"):
        game.offer(7, {"type": "takeback", "plies": 5})


def test_a_game_with_variant_options_is_replayed_by_them() -> None:
    """Thai with White first (docs/rules/README.md#options): the start entry carries the options, the
    hall's board follows them, and a bad option is refused as a bad start."""
    thai = get_variant("thai", first="white")
    board = Board(thai)
    move = next(iter(board.legal_moves))
    text = board.move_text(move)
    board.push(move)
    settings = {"variant": "thai", "fen": None, "variant_options": {"first": "white"}}
    start = {"type": "start", "settings": settings, "started": "2026-12-01T10:00:00"}
    game = GameStream("t")
    game.catch_up([start, {"type": "move", "text": text, "fen": board.fen(), "by": "white"}])
    assert game.variant == thai and game.board is not None and game.board.fen() == board.fen()
    bad = {**start, "settings": {"variant": "thai", "fen": None, "variant_options": {"colour": "white"}}}
    with pytest.raises(StreamError, match="bad start: variant thai has no option 'colour'"):
        GameStream("u").offer(1, bad)
