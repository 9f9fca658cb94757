"""Board: move generation rules of each variant, push/pop, hashing."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules import Board, Color, IllegalMoveError, Move, Piece, get_variant


def caps(variant: str, fen: str) -> set[tuple[str, tuple[str, ...], str]]:
    """Legal moves as (from, captured squares in order, to), all in algebraic names."""
    b = Board(variant, fen)
    g = b.variant.geometry
    return {(g.algebraic(m.from_square), tuple(g.algebraic(c) for c in m.captures), g.algebraic(m.to_square))
            for m in b.legal_moves}


def test_start_position_pieces() -> None:
    b = Board("international")
    assert len(b.pieces()) == 40
    assert b.piece_at(b.variant.geometry.parse_square("31")) == Piece(Color.WHITE, False)
    assert b.piece_at(b.variant.geometry.parse_square("25")) is None
    assert b.occupied() == frozenset(b.men(Color.WHITE) | b.men(Color.BLACK))


def test_capture_is_compulsory() -> None:
    b = Board("international", "W:W28,40:B23")
    assert all(m.is_capture for m in b.legal_moves)
    assert b.has_capture()


def test_russian_man_crowned_mid_capture_continues_as_king() -> None:
    moves = caps("russian", "W:Wb6:Bc7,f6")
    assert moves == {("b6", ("c7", "f6"), "g5"), ("b6", ("c7", "f6"), "h4")}
    assert all(m.promotion for m in Board("russian", "W:Wb6:Bc7,f6").legal_moves)


def test_brazilian_man_stops_on_crown_row_and_is_crowned() -> None:
    b = Board("brazilian", "W:Wb6:Bc7,f6")
    (m,) = list(b.legal_moves)
    assert m.promotion and len(m.captures) == 1


def test_international_man_passing_crown_row_stays_man() -> None:
    b = Board("international", "W:W15:B9,10")
    (m,) = list(b.legal_moves)
    assert b.variant.geometry.name(m.to_square) == "13" and not m.promotion


def test_italian_men_cannot_capture_kings_and_king_must_capture() -> None:
    assert caps("italian", "W:Wd3:Be4,Kc4") == {("d3", ("e4",), "f5")}
    assert caps("italian", "W:Wd3,Kh3:Be4,g4") == {("h3", ("g4",), "f5")}


def test_italian_earliest_king_order() -> None:
    # King d1 can take c2 (man) then c4 (king), or e2 (king) then g4 (man): meeting the king first wins.
    assert caps("italian", "W:WKd1:Bc2,g4,Kc4,Ke2") == {("d1", ("e2", "g4"), "h5")}
    assert len(caps("english", "W:WKd2:Bc3,g5,Kc5,Ke3")) == 2


def test_spanish_quality_rule_and_traditional_without_it() -> None:
    assert caps("spanish", "W:Wd3:Be4,Kc4") == {("d3", ("c4",), "b5")}
    assert len(caps("spanish-traditional", "W:Wd3:Be4,Kc4")) == 2


def test_spanish_man_captures_forward_only() -> None:
    assert caps("spanish", "W:Wd3:Be2") == {("d3", (), "c4"), ("d3", (), "e4")}


def test_german_king_stops_right_behind_last_piece() -> None:
    assert caps("spanish-german", "W:WKa1:Bc3") == {("a1", ("c3",), "d4")}
    assert caps("spanish-german", "W:WKa1:Bc3,e5") == {("a1", ("c3", "e5"), "f6")}
    assert len(caps("spanish", "W:WKh1:Bf3")) == 5  # Spanish king may land anywhere beyond


def test_nordic_men_capture_long_forward_only() -> None:
    moves = caps("spanish-nordic", "W:Wa1:Bd4")
    assert {to for _, _, to in moves} == {"e5", "f6", "g7", "h8", "i9", "j10"}
    assert caps("spanish-nordic", "W:We5:Bd4") == {("e5", (), "d6"), ("e5", (), "f6")}


def test_thai_king_lands_directly_behind() -> None:
    assert caps("thai", "W:WKa1:Bd4") == {("a1", ("d4",), "e5")}
    assert caps("thai", "W:WKa1:Bd4,f4") == {("a1", ("d4", "f4"), "g3")}


def test_polish_immediate_removal_reopens_lines() -> None:
    polish = caps("polish", "W:WKa1:Bc3,g3,d6")
    international = caps("international", "W:WKa1:Bc3,g3,d6")
    assert max(len(c) for _, c, _ in polish) == 3
    assert max(len(c) for _, c, _ in international) == 2


def test_turkish_orthogonal_captures_and_sideways() -> None:
    assert caps("turkish", "W:Wd4:Bd5,c6,e6") == {("d4", ("d5", "c6"), "b6"), ("d4", ("d5", "e6"), "f6")}
    assert caps("turkish", "W:Wd4:Bd3") == {("d4", (), "d5"), ("d4", (), "c4"), ("d4", (), "e4")}


def test_turkish_no_180_turn() -> None:
    # King e4 takes d4 westwards; it may not turn back east to take f4 (allowed in Thai-style 180 rules).
    moves = caps("turkish", "W:WKe4:Bd4,f4")
    assert all(len(c) == 1 for _, c, _ in moves)


def test_czech_king_priority_without_quantity() -> None:
    moves = caps("czech", "W:Wc3,Kh2:Bd4,f4,b6")
    assert moves and all(frm == "h2" for frm, _, _ in moves)
    # No maximum rule: a king may take one piece even when two are possible elsewhere.
    free = caps("czech", "W:WKd4:Be5,e3,g3")
    assert {len(c) for _, c, _ in free} == {1, 2}
    assert {len(c) for _, c, _ in caps("brazilian", "W:WKd4:Be5,e3,g3")} == {2}


def test_english_short_king_and_free_choice() -> None:
    assert len(caps("english", "B:B18:W22,23")) == 2
    b = Board("english", "W:WK18")
    assert len(b.legal_moves) == 4


def test_push_pop_restores_everything() -> None:
    rng = random.Random(7)
    for vid in ("international", "russian", "turkish", "thai", "italian", "polish"):
        b = Board(vid)
        snaps = []
        for _ in range(60):
            moves = list(b.legal_moves)
            if not moves:
                break
            snaps.append((b.fen(), b.key()))
            b.push(rng.choice(moves))
            assert b.key() == Board(vid, b.fen()).key()
        while snaps:
            b.pop()
            assert (b.fen(), b.key()) == snaps.pop()


def test_push_rejects_illegal_move_with_reason() -> None:
    b = Board("international")
    sq = b.variant.geometry.parse_square
    with pytest.raises(IllegalMoveError, match="no piece on 25"):
        b.push(Move.simple(sq("25"), sq("20")))


def test_duplicate_captures_merged_but_paths_available() -> None:
    # The king can go round the circuit clockwise or counter-clockwise: same from, to and captured set.
    english = Board("english", "W:WK21:B25,18,32,15,17,26")
    assert [english.move_text(m) for m in english.legal_moves] == ["21x21"]
    assert len(english.capture_paths()) == 2
    b = Board("international", "W:WK15:B24,43,38,5,22,4")
    moves = list(b.legal_moves)
    ids = [m.identity for m in moves]
    assert len(ids) == len(set(ids))
    assert len(b.capture_paths()) > len(moves)


def test_copy_is_independent() -> None:
    b = Board("english")
    c = b.copy()
    c.push(next(iter(c.legal_moves)))
    assert b.move_stack == [] and len(c.move_stack) == 1 and b != c


def test_giveaway_winner_is_blocked_side() -> None:
    b = Board("giveaway", "B:W22")
    assert b.is_game_over() and b.winner() == Color.BLACK
    assert Board("english", "B:W22").winner() == Color.WHITE


def test_optional_continuation_parameter_allows_stopping_anywhere() -> None:
    partial = dataclasses.replace(get_variant("english"), must_complete_sequence=False)
    b = Board(partial, "B:B1:W6,15,24")
    assert sorted(b.move_text(m) for m in b.legal_moves) == ["1x10", "1x19", "1x28"]
    full = Board("english", "B:B1:W6,15,24")
    assert [full.move_text(m) for m in full.legal_moves] == ["1x28"]


def test_capture_ending_on_its_start_square_keeps_the_piece() -> None:
    for vid, fen, start in (("international", "W:WK38:B32,22,23,33,1", "38"),
                            ("english", "W:WK21:B25,18,32,15,17,26", "21")):
        b = Board(vid, fen)
        (move,) = [m for m in b.legal_moves if m.from_square == m.to_square]
        key = b.key()
        b.push(move)
        sq = b.variant.geometry.parse_square(start)
        assert b.piece_at(sq) == Piece(Color.WHITE, True)
        assert len(b.pieces()) == len(Board(vid, fen).pieces()) - len(move.captures)
        assert b.key() == Board(vid, b.fen()).key()
        b.pop()
        assert b.fen() == Board(vid, fen).fen() and b.key() == key


def test_copy_shares_no_mutable_state() -> None:
    b = Board("international")
    list(b.legal_moves)
    c = b.copy()
    assert c._cache is not b._cache
    c.push(next(iter(c.legal_moves)))
    c.pop()
    assert list(c.legal_moves) == list(b.legal_moves)


def test_setting_turn_updates_key_and_moves() -> None:
    b = Board("international")
    assert len(b.legal_moves) == 9
    b.turn = Color.BLACK
    assert b.key() == Board("international", "B:W31-50:B1-20").key()
    assert sorted(b.move_text(m) for m in b.legal_moves)[0] == "16-21"


def test_describe_names_the_move_the_piece_and_what_it_takes() -> None:
    """Issue 14: a Move prints in the variant's notation where the board is known."""
    board = Board("international", "W:W28,K33:B23,12")
    assert [board.describe(m) for m in board.legal_moves] == ["28x19: white man takes 23"]
    king = Board("international", "W:WK46:B5")
    assert king.describe(king.parse_move("46-41")) == "46-41: white king moves"
    move = next(iter(board.legal_moves))
    assert repr(move).startswith("Move(grid ")
    quiet = Board("english")
    assert quiet.describe(quiet.parse_move("9-13")) == "9-13: black man moves"
