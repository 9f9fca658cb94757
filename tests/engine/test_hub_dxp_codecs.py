"""Hub line and DXP record codecs, and numeric move/position texts."""

from __future__ import annotations

import pytest

from engine.dxp import board_from_dxp, dxp_position, move_from_message, move_message
from engine.dxp_protocol import BackAcc, BackReq, Chat, DxpError, GameAcc, GameEnd, GameReq, MoveMsg, parse
from engine.hub_protocol import format_message, parse_message
from engine.notation import (
    ProtocolMoveError,
    board_from_position,
    hub_move_text,
    parse_hub_move,
    position_string,
)
from rules import Board, get_variant


def test_hub_line_round_trip_with_quotes() -> None:
    line = format_message("info", depth=7, score="0.25", pv="32-28 19-23 28x19")
    assert line == 'info depth=7 score=0.25 pv="32-28 19-23 28x19"'
    msg = parse_message(line)
    assert msg.command == "info" and msg.args["pv"] == "32-28 19-23 28x19" and msg.args["depth"] == "7"
    go = parse_message("go think")
    assert go.flags == ("think",) and go.args == {}
    assert parse_message("level move-time=1.5").args == {"move-time": "1.5"}


def test_hub_capture_text_lists_all_captured_squares() -> None:
    board = Board("international", "W:W28,33:B19,22,23")
    move = next(iter(board.legal_moves))
    text = hub_move_text(board, move)
    parts = text.split("x")
    assert parts[0] == "33" or parts[0] == "28"
    assert len(parts) == 2 + len(move.captures)
    assert parse_hub_move(board, text) == move
    # captured squares in any order name the same move
    reordered = "x".join([*parts[:2], *reversed(parts[2:])])
    assert parse_hub_move(board, reordered) == move


def test_hub_move_errors_name_the_problem() -> None:
    board = Board("international")
    with pytest.raises(ProtocolMoveError, match="not legal"):
        parse_hub_move(board, "33-27")
    with pytest.raises(ProtocolMoveError, match="expected"):
        parse_hub_move(board, "32/28")
    with pytest.raises(ProtocolMoveError, match="does not exist"):
        parse_hub_move(board, "32-99")


def test_position_string_round_trip() -> None:
    board = Board("international", "B:W28,K33,40:B19,K22,23")
    text = position_string(board)
    assert text[0] == "B" and len(text) == 51 and text[33] == "W" and text[22] == "B" and text[19] == "b"
    again = board_from_position(get_variant("international"), text[0], text[1:])
    assert again.pieces() == board.pieces() and again.turn == board.turn
    with pytest.raises(ProtocolMoveError, match="needs 50"):
        board_from_position(get_variant("international"), "W", "e" * 49)


@pytest.mark.parametrize(
    "message",
    [
        Chat("hello there"),
        GameReq("Tester", "Z", 10, 75),
        GameReq("Tester", "W", 5, 40, "Z", "e" * 20 + "w" * 10 + "z" * 20),
        GameAcc("Kingsrow", 0),
        MoveMsg(12, 32, 28),
        MoveMsg(9999, 28, 17, (22, 11)),
        GameEnd(2, 1),
        BackReq(14, "W"),
        BackAcc(0),
    ],
)
def test_dxp_round_trip(message) -> None:
    assert parse(message.encode()) == message


def test_dxp_fixed_layout_and_errors() -> None:
    assert MoveMsg(1, 32, 28).encode() == "M000132280" + "0"
    assert GameReq("X", "Z", 0, 0).encode() == "R01" + "X".ljust(32) + "Z000000A"
    with pytest.raises(DxpError, match="unknown type"):
        parse("Q123")
    with pytest.raises(DxpError, match="captured squares announced"):
        parse("M0001322802")


def test_dxp_move_and_position_against_board() -> None:
    board = Board("international", "W:W28,33:B19,22,23")
    move = next(iter(board.legal_moves))
    msg = move_message(board, move, 3)
    assert move_from_message(board, parse(msg.encode())) == move
    side, squares = dxp_position(board)
    assert side == "W" and squares.count("w") == 2 and squares.count("z") == 3
    assert board_from_dxp(side, squares).pieces() == board.pieces()
