"""The writer: canonical tag order, 80 columns, move numbers, NAGs, clocks; read(write(g)) == g."""

from __future__ import annotations

import io

import pytest
from _pdnhelpers import read_text

from rules.pdn import Clock, Line, MoveNode, PdnGame
from rules.pdn.writer import write_game, write_games


def test_canonical_tag_order() -> None:
    game = PdnGame(tags={"Opening": "Roozenburg", "FEN": "W:W31-50:B1-20", "Result": "1-0", "GameType": "20",
                      "White": "A", "Event": "E", "SetUp": "1", "Black": "B", "Date": "2026.11.29",
                      "Site": "S", "Round": "1"})
    lines = write_game(game).splitlines()
    assert [line.split()[0][1:] for line in lines if line.startswith("[")] == [
        "Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN", "SetUp", "Opening"]


def test_movetext_layout_and_numbers() -> None:
    (game,) = read_text("[Event \"x\"]\n1. 32-28 {a comment} 19-23 (18-23 2. 38-32) 2. 28x19 $14 14x23 2-0")
    text = write_game(game)
    assert text == ('[Event "x"]\n\n'
                    "1. 32-28 {a comment} 1... 19-23 (1... 18-23 2. 38-32) 2. 28x19 $14 14x23 2-0\n")


def test_lines_are_at_most_80_columns_and_round_trip() -> None:
    moves = " ".join(f"{i}. 32-28 {{{'word ' * (i % 7)}}} 19-23" for i in range(1, 60))
    (game,) = read_text(moves + " *")
    text = write_game(game)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert read_text(text) == [game]


def test_second_player_first_and_clock_comments() -> None:
    game = PdnGame(tags={"FEN": "B:W31,32:B1,2", "SetUp": "1"}, start_ply=1, result="0-1")
    game.mainline.moves.append(MoveNode("2-7", clock=Clock(312, 298, "2026-11-29T13:10:55")))
    game.mainline.moves.append(MoveNode("31-27", nags=[1, 22], clock=Clock(300, 290)))
    text = write_game(game)
    assert text.endswith("1... 2-7 {[%clock w0:05:12 b0:04:58] [%wall 2026-11-29T13:10:55]} 2. 31-27! $22\n"
                         "{[%clock w0:05:00 b0:04:50]} 0-1\n")
    assert read_text(text) == [game]


def test_comment_with_a_closing_brace_becomes_a_line_comment() -> None:
    game = PdnGame()
    game.mainline.moves.append(MoveNode("32-28", comments=["a } b"]))
    game.mainline.moves.append(MoveNode("19-23"))
    assert read_text(write_game(game)) == [game]


def test_write_games_separates_with_blank_lines() -> None:
    games = read_text('[Event "a"]\n1. 32-28 *\n[Event "b"]\n1. 33-29 1-0')
    buffer = io.StringIO()
    assert write_games(games, buffer) == 2
    assert buffer.getvalue() == '[Event "a"]\n\n1. 32-28 *\n\n[Event "b"]\n\n1. 33-29 1-0\n'


def test_game_played_on_the_board_keeps_its_clocks() -> None:
    import rules
    from rules.pdn import game_from_board

    board = rules.Board("english")
    for text in ("11-15", "23-19", "8-11", "22-17"):
        board.push(board.parse_move(text))
    clocks = [Clock(300 - 10 * i, 300 - 7 * i, f"2026-11-29T13:1{i}:00") for i in range(4)]
    game = game_from_board(board, tags={"Event": "Club night", "White": "A", "Black": "B"}, clocks=clocks,
                           result="1-0")
    text = write_game(game)
    assert text.startswith('[Event "Club night"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n'
                           '[GameType "21"]\n')
    assert "1. 11-15 {[%clock w0:05:00 b0:05:00] [%wall 2026-11-29T13:10:00]} 1... 23-19" in text
    (again,) = read_text(text, validate=True)
    assert again == game and not again.errors
    assert [n.clock for n in again.moves] == clocks
    assert [n.move for n in again.moves] == board.move_stack


def test_game_from_a_set_up_position_and_a_variant_without_gametype() -> None:
    import rules
    from rules.pdn import game_from_board

    board = rules.Board("giveaway")
    board.push(next(iter(board.legal_moves)))
    game = game_from_board(board)
    assert game.tags["Variant"] == "giveaway"
    (again,) = read_text(write_game(game), validate=True)
    assert not again.errors and again.variant_id == "giveaway"
    board = rules.Board.from_fen("international", "B:W31-50:B1-20")
    board.push(board.parse_move("20-25"))
    game = game_from_board(board)
    assert game.tags["FEN"] and game.start_ply == 1
    assert "1... 20-25 *" in write_game(game)


def test_a_move_text_that_is_not_one_move_is_refused() -> None:
    """A text that would read back as other moves, a tag or another game is never written (issue 30)."""
    for move in ("32-28", "19x28x37", "d4:f6", "h1xh1", "c3d4", "k12-l11"):
        assert move in write_game(PdnGame(mainline=Line([MoveNode(move)])))
    for forged in ('32-28\n[Event "FAKE"]', "32-28 33-29", "{32-28}", "32-28)", "", "32-", "1. 32-28",
                   "32\u201328"):
        with pytest.raises(ValueError, match="not a move to write as PDN"):
            write_game(PdnGame(mainline=Line([MoveNode(forged)])))
