"""Refusals as values: every illegal move text names the rule that refuses it (rules.Illegal)."""

from __future__ import annotations

import pytest

from rules import Board, Illegal, IllegalMoveError

CASES = [
    # variant, FEN (None: start), move text, the rule that refuses it
    ("international", None, "19-23", Illegal.NOT_YOUR_PIECE),
    ("international", None, "28-23", Illegal.NO_PIECE),
    ("international", None, "46-41", Illegal.PIECE_MOVEMENT),
    ("international", "W:W28,32:B23", "32-27", Illegal.MUST_CAPTURE),
    # issue 13 item 8: not a diagonal step at all: the true reason first, though a capture is compulsory
    ("international", "W:W27,33:B22", "33-23", Illegal.PIECE_MOVEMENT),
    ("international", "W:W9,35,K45:BK40,36,1,K24", "35x44", Illegal.MUST_TAKE_MAXIMUM),
    ("international", "W:W9,35,K45:BK40,36,1,K24", "45x29", Illegal.INCOMPLETE_CAPTURE),
    ("spanish", "W:W3,19,27:B7,K31,K15,K6", "3x12", Illegal.MUST_TAKE_MORE_KINGS),
    ("italian", "W:WK25,K13,K29:B23,K21,10,K20", "13x6", Illegal.MUST_TAKE_MORE_KINGS),
    ("italian", "W:WK7,K25,31:B30,11,27,32", "31x22", Illegal.MUST_CAPTURE_WITH_KING),
    ("italian", "W:W23,K16,K22:B19,K17,11,K12", "22x8", Illegal.MUST_TAKE_KINGS_FIRST),
]


@pytest.mark.parametrize(("variant", "fen", "text", "reason"), CASES)
def test_illegal_move_names_its_rule(variant: str, fen: str | None, text: str, reason: Illegal) -> None:
    board = Board(variant, fen)
    with pytest.raises(IllegalMoveError) as info:
        board.parse_move(text)
    assert info.value.reason is reason, str(info.value)
    assert text.split("x")[0].split("-")[0] in str(info.value)


def test_push_of_an_illegal_move_object_names_its_rule() -> None:
    board = Board("international", "W:W28,32:B23")
    move = Board("international", "W:W32:B23").parse_move("32-27")
    with pytest.raises(IllegalMoveError) as info:
        board.push(move)
    assert info.value.reason is Illegal.MUST_CAPTURE
