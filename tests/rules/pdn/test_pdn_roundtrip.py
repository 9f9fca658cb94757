"""Item 16 of issue 13: writer and reader agree on every game - read(write(game)) == game, for every variant.

Games are generated from legal play (so the text read back must also validate): with and without moves,
from the start or a set-up position, with comments (braces, `}` and `{` inside, clock-like text), nested
variations, clocks, NAGs, non-standard strength marks and odd tag values.
"""

from __future__ import annotations

import io

import pytest
from _pdnhelpers import read_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules.pdn import (
    ClockComment,
    Line,
    MoveNode,
    PdnGame,
    PdnReader,
    game_from_board,
    write_game,
    write_games,
)
from rules.pdn.encoding import DecodedLines
from rules.pdn.model import RESULTS
from rules.pdn.validate import INTERNATIONAL_SCORING

CLOCK_TEXT = "[%clock w0:01:02 b0:03:04]"
# Text the writer must not mangle: brackets, braces, escapes, a lone '%', words that look like PDN.
SPECIAL = ["(", ")", "( a )", "}", "{", "a } b { c", "%", "[Event \"x\"]", ";", "1-0", "*", "$1", "\\", '"',
           "32-28", "1.", "[%wall 2026-12-01T10:00:00]", "é ß Ж 中"]
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n"), max_size=30)
COMMENT = st.one_of(TEXT, st.sampled_from(SPECIAL)).map(lambda text: " ".join(text.split()))
WALL = st.one_of(st.none(), st.from_regex(r"[0-9T:{}a-z-]{1,20}", fullmatch=True))
CLOCK = st.builds(ClockComment, st.integers(0, 99 * 3600), st.integers(0, 99 * 3600), WALL)
STRENGTH = st.sampled_from(["", "", "", "!!!", "?!?", "(!)", "(?!?)"])
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def legal_line(draw: st.DrawFn, board: rules.Board, plies: int, depth: int) -> Line:
    """A line of up to `plies` legal moves from `board` (restored afterwards), annotated, with variations;
    moves as files write them (captures joined by `x`, test_pdn_writer.py: Russian's `:` becomes `x`)."""
    line = Line(comments=draw(st.lists(COMMENT, max_size=1)))
    pushed = 0
    try:
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = moves[draw(st.integers(0, len(moves) - 1))]
            clock = draw(st.one_of(st.none(), CLOCK))
            comments = draw(st.lists(COMMENT, max_size=2))
            if clock is not None and draw(st.booleans()):
                comments.append(CLOCK_TEXT)  # a second clock is kept as a comment
            nags = draw(st.lists(st.integers(0, 99_999), max_size=2))
            node = MoveNode(board.pdn_move_text(move), nags=nags,
                            strength=draw(STRENGTH), comments=comments, clock=clock)
            if depth > 0:
                node.variations = [legal_line(draw, board, draw(st.integers(1, 3)), depth - 1)
                                   for _ in range(draw(st.integers(0, 2)))]
            line.moves.append(node)
            board.push(move)
            pushed += 1
    finally:
        for _ in range(pushed):
            board.pop()
    return line


@st.composite
def games(draw: st.DrawFn, variant: str) -> PdnGame:
    """A game of `variant`: maybe from a position reached by legal play, with or without moves."""
    board = rules.Board(variant)
    for _ in range(draw(st.sampled_from([0, 0, 3, 12]))):  # a set-up position (FEN tag) or the start
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    start = rules.Board(variant, board.fen())
    tags = draw(st.dictionaries(st.from_regex(r"X[A-Za-z0-9_]{0,8}", fullmatch=True), TEXT, max_size=3))
    results = [r for r in RESULTS if variant in INTERNATIONAL_SCORING or r not in ("2-0", "1-1", "0-2")]
    game = game_from_board(start, tags={"Event": draw(TEXT), **tags}, result=draw(st.sampled_from(results)))
    game.mainline = legal_line(draw, start, draw(st.sampled_from([0, 1, 6])), depth=2)
    return game


@pytest.mark.parametrize("variant", rules.VARIANT_IDS)
@SETTINGS
@given(data=st.data())
def test_item_16_read_write_read_is_the_same_game_in_every_variant(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(variant))
    text = write_game(game)
    (again,) = read_text(text, validate=True)
    assert again == game
    assert not again.errors, [str(e) for e in again.errors]
    assert not again.warnings, [str(w) for w in again.warnings]


@SETTINGS
@given(st.lists(st.sampled_from(rules.VARIANT_IDS).flatmap(games), min_size=1, max_size=3),
       st.sampled_from(["utf-8", "utf-16", "utf-32"]))
def test_item_16_a_file_of_games_reads_back_whole_in_any_encoding(originals: list[PdnGame],
                                                                  encoding: str) -> None:
    buffer = io.StringIO()
    assert write_games(originals, buffer) == len(originals)
    raw = buffer.getvalue().encode(encoding)  # (Python's utf-16 and utf-32 start with a byte-order mark)
    assert list(PdnReader(DecodedLines(io.BytesIO(raw)))) == originals


def test_item_16_set_up_position_without_moves_is_one_game() -> None:
    """The problem-collection record that came back as two games: set-up, no moves, a result."""
    tags = {"Event": "Gem Problems #1", "Result": "1-0", "SetUp": "1", "FEN": "B:W21,K5:BK17,K14"}
    game = PdnGame(tags=tags, result="1-0")
    text = write_game(game)
    assert text == ('[Event "Gem Problems #1"]\n[Result "1-0"]\n[FEN "B:W21,K5:BK17,K14"]\n[SetUp "1"]\n\n'
                    "1-0\n")
    assert read_text(text) == [game]
    odd = PdnGame(tags={"Event": "a\x1cb\x85c\u2028d\x0be\x0cf"}, result="1-0")  # not line breaks in PDN
    assert read_text(write_game(odd)) == [odd]


def test_item_16_lines_end_at_lf_crlf_or_cr_for_every_reader() -> None:
    """An old Mac file (lone CRs) reads as lines: a `;` comment ends with its line, not with the file."""
    text = '[Event "a"]\r[Round "1"]\r1. 32-28 ; note\r19-23 *\r'
    (game,) = read_text(text)
    assert game.tags == {"Event": "a", "Round": "1"} and [n.text for n in game.moves] == ["32-28", "19-23"]
    assert game.moves[0].comments == ["note"]
    assert list(PdnReader(DecodedLines(io.BytesIO(text.encode())))) == [game]


def test_item_16_equality_compares_the_model_not_the_text() -> None:
    one = read_text('[White "A"]\n[Black "B"]\n1. 32-28 {x} 19-23 *')[0]
    two = read_text('[Black "B"]   [White "A"]\n{ x }\n1. 32-28 19-23 *')[0]
    assert one != two  # the comment belongs to 32-28 in one and to the start in the other
    three = read_text('[Black "B"] [White "A"]\n\n32-28 {  x\n  } 1... 19-23 *')[0]
    assert one == three  # tag order, white space in comments and optional move numbers are text, not model
    assert PdnGame(start_ply=3) == PdnGame(start_ply=0)  # no moves: no first move number to differ
    assert read_text("1. 32-28 *")[0] != read_text("2. 32-28 *")[0]
