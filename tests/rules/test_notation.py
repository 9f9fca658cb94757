"""Move text: writing in each variant's notation, parsing, and the precise error messages."""

from __future__ import annotations

import random

import pytest

from rules import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError

TURKISH_AMBIGUOUS = "W:Wa2,d2,e2,f2,g2,h2,a3,f3,g3,Kh8:Bd5,a6,e6,a7,c7,d7,h7"


def texts(board: Board) -> list[str]:
    return sorted(board.move_text(m) for m in board.legal_moves)


def test_separators_per_variant() -> None:
    assert texts(Board("international", "W:W28,32:B23")) == ["28x19"]
    assert texts(Board("russian", "W:Wc3:Bd4")) == ["c3:e5"]
    assert texts(Board("brazilian", "W:Wc3:Bd4")) == ["c3xe5"]
    assert texts(Board("thai", "W:WKa1:Bd4")) == ["4-18"]
    assert texts(Board("international")) == [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    assert texts(Board("russian"))[0] == "a3-b4"


def test_intermediate_squares_only_when_ambiguous() -> None:
    b = Board("turkish", TURKISH_AMBIGUOUS)
    assert texts(b) == ["h8xd3", "h8xd4", "h8xd8", "h8xh5xc5xc8", "h8xh6xc6xc8"]


def test_parse_with_intermediate_squares() -> None:
    b = Board("turkish", TURKISH_AMBIGUOUS)
    assert b.move_text(b.parse_move("h8xh5xc8")) == "h8xh5xc5xc8"
    assert b.move_text(b.parse_move("h8xc6xc8")) == "h8xh6xc6xc8"
    with pytest.raises(AmbiguousMoveError, match="h8xh6xc6xc8 or h8xh5xc5xc8"):
        b.parse_move("h8xc8")


@pytest.mark.parametrize(("vid", "fen", "text", "captured"), [
    ("czech", "W:WKa7,Kg7:Bb2,d2,f2,c3,b4,e5,b6,Kh8", "a7xc5xg1", {"b6", "f2"}),
    ("russian", "B:WKb2,Ke3,a5,h6,Kc7,Ke7,g7,Kh8:Bh4,Kf8", "f8:d6:b8", {"e7", "c7"}),
    ("thai", "B:WK8,15,16,17,K24:BK9,K12,30", "12-19-10-21", {"16", "15", "17"}),
    ("czech", "W:WKd4,d6,g7:BKb6,Kd8,g5,Ke5,c7,g3,f8,Ke3,Ka3", "d4xa7", {"b6"}),
])
def test_exact_intermediate_list_beats_longer_rival(
    vid: str, fen: str, text: str, captured: set[str]
) -> None:
    b = Board(vid, fen)
    move = b.parse_move(text)
    assert {b.variant.geometry.name(s) for s in move.captures} == captured
    assert b.move_text(move) == text
    for m in b.legal_moves:
        assert b.parse_move(b.move_text(m)).identity == m.identity


def test_parse_accepts_move_numbers_and_any_separator() -> None:
    b = Board("international")
    assert b.move_text(b.parse_move("1. 32-28")) == "32-28"
    r = Board("russian", "W:Wc3:Bd4")
    assert r.parse_move("c3:e5") == r.parse_move("c3xe5") == r.parse_move("C3:E5")


def test_compulsory_capture_message() -> None:
    b = Board("international", "W:W27,28,40:B22,21")
    with pytest.raises(IllegalMoveError, match="a capture was compulsory: 28x26"):
        b.parse_move("40-35")
    with pytest.raises(IllegalMoveError, match=r"the capture taking the most pieces is compulsory: 28x26"):
        b.parse_move("27x16")


def test_compulsory_capture_lists_all_options() -> None:
    b = Board("english", "B:B18:W22,23,30")
    with pytest.raises(IllegalMoveError, match="compulsory: 18x25 or 18x27"):
        b.parse_move("18-14")


def test_no_piece_and_wrong_color_and_bad_target() -> None:
    b = Board("international")
    with pytest.raises(IllegalMoveError, match="no piece on 25"):
        b.parse_move("25-20")
    with pytest.raises(IllegalMoveError, match="Black's but White is to move"):
        b.parse_move("20-25")
    with pytest.raises(IllegalMoveError, match="can only play 32-27 or 32-28"):
        b.parse_move("32-26")
    with pytest.raises(IllegalMoveError, match="has no legal move"):
        b.parse_move("46-41")


@pytest.mark.parametrize("text", ["", "32", "32-", "32-99", "a1-b2", "hello"])
def test_syntax_errors(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="is not a move"):
        Board("international").parse_move(text)


def test_roundtrip_random_games() -> None:
    rng = random.Random(11)
    for vid in ("international", "russian", "turkish", "thai", "italian", "spanish", "czech", "canadian"):
        b = Board(vid)
        for _ in range(80):
            moves = list(b.legal_moves)
            if not moves:
                break
            for m in moves:
                assert b.parse_move(b.move_text(m)).identity == m.identity
            b.push(rng.choice(moves))
