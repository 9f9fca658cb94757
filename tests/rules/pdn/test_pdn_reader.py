"""The reader's grammar: tags, move numbers, comments, variations, NAGs, results, several games."""

from __future__ import annotations

import io

import pytest
from _pdnhelpers import read_text

from rules.pdn import ClockComment, GameBuilder, HeadersVisitor, PdnReader, scan
from rules.pdn.model import Line, MoveNode


def test_tags_moves_and_result() -> None:
    (game,) = read_text('[Event "WK 2003"]\n[White "A"]\n[Black "B"]\n[Result "2-0"]\n\n'
                        "1. 32-28 19-23 2. 28x19 14x23 2-0\n")
    assert game.tags == {"Event": "WK 2003", "White": "A", "Black": "B", "Result": "2-0"}
    assert [m.text for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]
    assert game.result == "2-0"
    assert game.label() == "Event 'WK 2003', White 'A', Black 'B'"


@pytest.mark.parametrize("movetext", [
    "1. 32-28 19-23 2. 28x19 14x23",
    "1.32-28 19-23 2.28x19 14x23",
    "1. 32-28 1... 19-23 2. 28x19 2... 14x23",
    "1. 32-28 1. ... 19-23 2. 28x19 14x23",
    "32-28 19-23 28x19 14x23",
    "01. 32-28 19-23 02. 28x19 14x23",
])
def test_move_number_forms(movetext: str) -> None:
    (game,) = read_text(movetext + " *")
    assert [m.text for m in game.moves] == ["32-28", "19-23", "28x19", "14x23"]
    assert game.warnings == [] and game.errors == []


def test_first_move_number_sets_the_numbering() -> None:
    (game,) = read_text("[FEN \"B:W31-50:B1-20\"]\n25... 20-25 26. 31-27 *")
    assert game.start_ply == 49
    (game,) = read_text('[FEN "B:W31,32:B1,2"]\n1. ... 2-7 2. 32-28 *')
    assert game.start_ply == 1 and game.warnings == []


def test_algebraic_moves_with_every_separator_and_leading_zeros() -> None:
    (game,) = read_text("1. c3-d4 f6-g5 2. d4:f6 g7xe5 3. a3b4 01-06 *")
    assert [m.text for m in game.moves] == ["c3-d4", "f6-g5", "d4xf6", "g7xe5", "a3b4", "1-6"]


def test_spaces_inside_old_moves() -> None:
    (game,) = read_text("1. 32-28  1- 6 *")
    assert [m.text for m in game.moves] == ["32-28", "1-6"]


def test_ambiguous_capture_with_intermediate_squares_is_one_move() -> None:
    (game,) = read_text("1. 47x38x24x13x36 *")
    assert game.moves[0].text == "47x38x24x13x36"


def test_comments_attach_to_the_move_they_follow() -> None:
    (game,) = read_text("{before} 1. 32-28 {after white} 19-23 ; rest of line\n{one}{two} 2. 33-29 *")
    assert game.mainline.comments == ["before"]
    assert game.moves[0].comments == ["after white"]
    assert game.moves[1].comments == ["rest of line", "one", "two"]
    assert game.moves[2].comments == []


def test_multiline_comment_is_normalised() -> None:
    (game,) = read_text("1. 32-28 {a long\n   comment\tover lines} 19-23 *")
    assert game.moves[0].comments == ["a long comment over lines"]


def test_variations_are_a_tree() -> None:
    (game,) = read_text("32-28 19-23 (18-23 38-32 (37-32? 23-29! { Black wins }) 12-18) 28x19 14x23")
    main = game.mainline
    assert [m.text for m in main.moves] == ["32-28", "19-23", "28x19", "14x23"]
    (var,) = main.moves[1].variations
    assert [m.text for m in var.moves] == ["18-23", "38-32", "12-18"]
    (sub,) = var.moves[1].variations
    assert [m.text for m in sub.moves] == ["37-32", "23-29"]
    assert sub.moves[0].nags == [2] and sub.moves[1].nags == [1]
    assert sub.moves[1].comments == ["Black wins"]
    assert game.result == "*"


def test_nags_and_strength_glyphs() -> None:
    (game,) = read_text("1.32-28!? 19-23(!?!!!) 2.28x19 $14 $1 14x23?? 3. 33-28!! ?! *".replace(" ?!", "?!"))
    m = game.moves
    assert m[0].nags == [5]
    assert m[1].strength == "(!?!!!)" and m[1].nags == []
    assert m[2].nags == [14, 1]
    assert m[3].nags == [4]
    assert m[4].strength == "!!?!" and m[4].nags == []


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "2-0", "1-1", "0-2", "0-0", "*"])
def test_every_result_form(result: str) -> None:
    games = read_text(f"1. 32-28 19-23 {result}\n\n[Event \"next\"]\n1. 33-29 *")
    assert [g.result for g in games] == [result, "*"]
    assert games[1].tags == {"Event": "next"}


def test_result_is_not_confused_with_moves() -> None:
    (game,) = read_text("1. 1-7 1-10 2. 1-18 2-0")
    assert [m.text for m in game.moves] == ["1-7", "1-10", "1-18"]
    assert game.result == "2-0"


def test_several_games_and_numbering() -> None:
    text = "".join(f'[Event "g{i}"]\n1. 32-28 *\n\n' for i in range(1, 6))
    games = read_text(text)
    assert [g.number for g in games] == [1, 2, 3, 4, 5]
    assert [g.tags["Event"] for g in games] == [f"g{i}" for i in range(1, 6)]


def test_game_at_end_without_terminator() -> None:
    (game,) = read_text('[White "x"]\n1. 32-28 19-23')
    assert game.result == "*" and len(game.moves) == 2 and not game.errors


def test_header_only_games_and_escaped_strings() -> None:
    games = read_text('[White "An \\"escaped\\" quote \\\\ backslash"]\n1-0\n[Event "x"]\n*')
    assert games[0].tags["White"] == 'An "escaped" quote \\ backslash'
    assert games[0].moves == [] and games[0].result == "1-0"


def test_percent_escape_lines_are_skipped() -> None:
    (game,) = read_text('% Board game: International Draughts 10x10\n[Date "2012.02.01"]\n1. 32-28 19-23')
    assert game.tags == {"Date": "2012.02.01"} and len(game.moves) == 2


def test_clock_comment_is_read_into_the_move() -> None:
    (game,) = read_text("1. 32-28 {[%clock w0:05:12 b0:04:58] [%wall 2026-11-29T13:10:55]} "
                        "19-23 {good [%clock w0:05:00 b1:04:50]} *")
    assert game.moves[0].clock == ClockComment(312, 298, "2026-11-29T13:10:55")
    assert game.moves[0].comments == []
    assert game.moves[1].clock == ClockComment(300, 3890)
    assert game.moves[1].comments == ["good"]


def test_streaming_reads_one_game_at_a_time() -> None:
    consumed = []

    def lines():
        for i in range(1, 1000):
            consumed.append(i)
            yield f'[Event "g{i}"]\n'
            yield "1. 32-28 19-23 *\n"

    reader = PdnReader(lines())
    first = reader.read_game()
    assert first is not None and first.tags["Event"] == "g1"
    assert len(consumed) <= 2  # only the lines of game 1 (and the next tag line) were read


def test_headers_visitor_skips_movetext() -> None:
    text = ('[Event "a"]\n1. 32-28 {comment with\n[Fake "tag"] inside} 19-23 *\n'
            '[Event "b"]\n1. 33-29 (1. 34-29) *\n')
    assert list(scan(io.StringIO(text))) == [{"Event": "a"}, {"Event": "b"}]
    assert [g.tags for g in PdnReader(io.StringIO(text))] == [{"Event": "a"}, {"Event": "b"}]
    assert isinstance(HeadersVisitor().result(), dict)


def test_model_equality_ignores_positions() -> None:
    a = MoveNode("32-28", line=1, column=1)
    b = MoveNode("32-28", line=9, column=9)
    assert a == b and Line([a]) == Line([b])
    assert repr(GameBuilder()).startswith("<GameBuilder")
