"""The writer: canonical tag order, 80 columns, move numbers, NAGs, clocks; read(write(g)) == g."""

from __future__ import annotations

import io

import draughts
import draughts.PDN
import pytest
from _pdnhelpers import read_text
from _rulestest import playout

import rules
from rules.pdn import ClockComment, Line, MoveNode, PdnGame, game_from_board
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
    game.mainline.moves.append(MoveNode("2-7", clock=ClockComment(312, 298, "2026-11-29T13:10:55")))
    game.mainline.moves.append(MoveNode("31-27", nags=[1, 22], clock=ClockComment(300, 290)))
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
    clocks = [ClockComment(300 - 10 * i, 300 - 7 * i, f"2026-11-29T13:1{i}:00") for i in range(4)]
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
    for move, written in (("32-28", "32-28"), ("19x28x37", "19x28x37"), ("d4:f6", "d4xf6"),
                          ("h1xh1", "h1xh1"), ("c3d4", "c3d4"), ("k12-l11", "k12-l11")):
        assert f"1. {written} *" in write_game(PdnGame(mainline=Line([MoveNode(move)])))
    for forged in ('32-28\n[Event "FAKE"]', "32-28 33-29", "{32-28}", "32-28)", "", "32-", "1. 32-28",
                   "32\u201328"):
        with pytest.raises(ValueError, match="not a move to write as PDN"):
            write_game(PdnGame(mainline=Line([MoveNode(forged)])))


# -- captures in files: PDN 3.0's `x` in every variant (issue 28 item 4) -----------------------------------
# Our variant id -> pydraughts 0.6.7's name, for the variants pydraughts plays (its Board knows standard,
# english, italian, russian, brazilian, turkish, frisian, frysk!, antidraughts and breakthrough; the project
# has no frisian, frysk! or breakthrough, and pydraughts' antidraughts is international's, not giveaway).
PYDRAUGHTS = {"international": "standard", "english": "english", "italian": "italian", "russian": "russian",
              "brazilian": "brazilian", "turkish": "turkish"}


def _captures_game(variant_id: str) -> rules.Board:
    """A random game of the variant (the first seed up to 20 whose 60 plies include a capture)."""
    for seed in range(20):
        board = playout(variant_id, 60, f"pdn-x {variant_id} {seed}")
        if any(m.is_capture for m in board.move_stack):
            return board
    raise AssertionError(f"no capture in 20 random {variant_id} games")


def _as_displayed(board: rules.Board) -> PdnGame:
    """The game with each move as the board shows it (Russian `c3:e5`): what a saved record holds."""
    game = game_from_board(board)
    replay = rules.Board(board.variant)
    for node, move in zip(game.moves, board.move_stack, strict=True):
        node.text = replay.move_text(move)
        replay.push(move)
    return game


def _pydraughts_replay(text: str) -> str:
    """The final position (a FEN in pydraughts' variant notation) of a PDN game replayed by pydraughts."""
    (game,) = draughts.PDN.PDNReader(pdn_text=text).games
    board = draughts.Board(game.variant)
    for move in game.moves:
        board.push(draughts.Move(board, pdn_move=move))
    return str(board.fen)


@pytest.mark.parametrize("variant_id", rules.VARIANT_IDS)
def test_every_variants_record_joins_captures_by_x_and_replays(variant_id: str) -> None:
    """Captures were written `d4:f6` in Russian, which pydraughts cannot read (KeyError '14:23'); files now
    say `d4xf6` in every variant, our reader takes both, and pydraughts replays the games of the variants
    it knows to the same final position."""
    board = _captures_game(variant_id)
    # Display text joined by `-` (Thai) is indistinguishable from a plain move without the rules: the board's
    # record (controller/record.py write_pdn) rewrites it through the rules, tests/controller/test_record.py
    shown = [_as_displayed(board)] if board.variant.capture_separator != "-" else []
    for game in (game_from_board(board), *shown):
        text = write_game(game)
        moves = [node.text for node in read_text(text)[0].moves]
        captures = [t for t, m in zip(moves, board.move_stack, strict=True) if m.is_capture or m.is_removal]
        assert captures and all("x" in t and ":" not in t and "-" not in t for t in captures), captures
        (read,) = read_text(text, validate=True)
        assert not read.errors and [n.move for n in read.moves] == board.move_stack
        if variant_id in PYDRAUGHTS:
            assert read.tags["GameType"].split(",")[0] in draughts.PDN.PDNWriter.SHORT_TO_LONG_GAMETYPE
            assert rules.Board(variant_id, _pydraughts_replay(text)).fen() == board.fen()


def test_a_russian_record_with_colons_is_read_and_written_with_x() -> None:
    (game,) = read_text('[GameType "25"]\n\n1. c3-d4 f6-e5 2. d4:f6 g7xe5 *\n', validate=True)
    assert not game.errors and [n.text for n in game.moves] == ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]
    assert "2. d4xf6 g7xe5 *" in write_game(game)
