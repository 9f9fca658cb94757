"""FEN (PDN 3.0): ranges, kings, algebraic squares, empty blocks, round trips and error messages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import VARIANT_IDS, Board, Color, FenError, Piece


def test_ranges_and_start_positions() -> None:
    assert Board("international", "W:W31-50:B1-20") == Board("international")
    assert Board("english", "B:W21-32:B1-12") == Board("english")
    assert Board("italian", "W:W21-32:B1-12") == Board("italian")
    assert Board("spanish", "W:W1-12:B21-32") == Board("spanish")


def test_kings_and_king_ranges() -> None:
    b = Board("international", "B:WK1,K2,10:BK46-48")
    g = b.variant.geometry
    assert b.turn == Color.BLACK
    assert b.piece_at(g.parse_square("1")) == Piece(Color.WHITE, True)
    assert b.piece_at(g.parse_square("10")) == Piece(Color.WHITE, False)
    assert b.kings(Color.BLACK) == {g.parse_square(n) for n in ("46", "47", "48")}


def test_algebraic_fen_roundtrip() -> None:
    fen = "W:Wa1,c3,Kh8:Bb6,Kd8"
    b = Board("russian", fen)
    assert b.fen() == fen
    assert Board("russian", b.fen()) == b


def test_algebraic_variant_accepts_numeric_fen() -> None:
    # pydraughts numbers Russian squares a1 = 1, c1 = 2, ... h8 = 32.
    assert Board("russian", "W:W1,2:B32").fen() == "W:Wa1,c1:Bh8"


def test_empty_color_blocks_and_missing_blocks() -> None:
    assert Board("international", "W:W:B").pieces() == {}
    assert Board("international", "B:W10").pieces() != {}
    assert Board("international", "W:B1").fen() == "W:W:B1"


def test_write_is_sorted_by_number_and_roundtrips() -> None:
    b = Board("international", "W:W50,31,K40:B3,1")
    assert b.fen() == "W:W31,K40,50:B1,3"
    for vid in ("spanish", "turkish", "thai", "canadian", "czech"):
        start = Board(vid)
        assert Board(vid, start.fen()) == start


def test_unknown_side_to_move_means_first_player() -> None:
    assert Board("english", "?:W21-32:B1-12").turn == Color.BLACK
    assert Board("international", "?:W31-50:B1-20").turn == Color.WHITE


def test_pdn_tag_wrapping_and_trailing_dot() -> None:
    assert Board("international", '[FEN "W:W31-50:B1-20."]') == Board("international")


@pytest.mark.parametrize(
    ("fen", "token"),
    [("X:W31:B1", "'X'"), ("W:W31,99:B1", "'99'"), ("W:W31:B1,31", "31"), ("W:Z31", "'Z31'"),
     ("W:W40-31", "'40-31'"), ("W:W31:W32", "repeats"), ("", "empty"), ("W:WK:B1", "'K'")],
)
def test_errors_name_the_offending_token(fen: str, token: str) -> None:
    with pytest.raises(FenError, match=token):
        Board("international", fen)


def test_non_playing_square_rejected() -> None:
    with pytest.raises(FenError, match="'a2'"):
        Board("russian", "W:Wa2:Bb8")


# Pieces of FENs and of the ways they go wrong: Unicode digits, 5,000-digit numbers, stray separators.
FEN_PIECES = st.sampled_from(["W", "B", "?", "K", "k", "H", "F", "X", ":", ",", "-", ".", '"', "[FEN ", "]",
                              " ", "1", "5", "12", "31", "50", "99", "0", "a1", "c3", "h8", "l12", "z9", "²",
                              "٣", "\U0001d7d9", "Ⅻ", "\x00", "9" * 5000, "1-" + "9" * 4400,
                              "K" + "0" * 4301])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(VARIANT_IDS), st.lists(FEN_PIECES, max_size=14))
def test_item_18_fen_parsing_raises_only_fen_errors(variant: str, pieces: list[str]) -> None:
    """Whatever the text: a board, or a FenError of one short line - never a bare ValueError."""
    fen = "".join(pieces)
    try:
        Board(variant, fen)
    except FenError as exc:
        assert "\n" not in str(exc) and len(str(exc)) < 400
    except Exception as exc:  # the point: nothing else may escape
        pytest.fail(f"{type(exc).__name__} escaped for FEN {fen[:80]!r}: {exc}"[:500])


@pytest.mark.parametrize(("fen", "says"), [
    ("W:W²:B1", "bad square '²'"), ("W:W1-²:B1", "bad range '1-²'"), ("W:Wa²:B1", "bad square 'a²'"),
    ("W:W٣:B1", "bad square '٣'"), ("W:H²:W1", "bad color block 'H²'"),
    ("W:W" + "1" * 5000 + ":B1", "bad square '111111111111111111111111111111... (5,000 characters)'"),
    ("W:W1-" + "9" * 5000, "bad range '1-9999999999999999999999999999... (5,002 characters)'"),
])
def test_item_18_unicode_digits_and_huge_numbers_are_fen_errors(fen: str, says: str) -> None:
    with pytest.raises(FenError) as caught:
        Board("russian", fen)
    assert says in str(caught.value) and len(str(caught.value)) < 200
