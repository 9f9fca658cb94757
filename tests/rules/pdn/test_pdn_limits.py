"""Item 17 of issue 13: hostile PDN costs bounded memory and linear time, and each limit is one precise error.

Memory is measured with tracemalloc (the peak while a file is read the way `dboard pdn check` reads it);
time by counting the Python lines run (`steps`) for an input and for one twice as large: linear work
doubles, quadratic work quadruples. Nothing here depends on the speed or load of the machine.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from _pdnhelpers import peak_memory, read_file, read_text, steps

from rules.pdn import PdnReader, write_game
from rules.pdn.encoding import DecodedLines
from rules.pdn.limits import ReadLimits
from rules.pdn.reader import text_lines

MB = 1_000_000
KINGS = '[FEN "W:WK46:BK1"]'  # two kings that never meet: they can move to and fro for ever
KINGS_TO_AND_FRO = "46-41 1-6 41-46 6-1"


def read_bytes_of(path: Path, *, validate: bool = True) -> list:
    """[the memory peak, the games] of reading a file as `dboard pdn check` does."""
    games: list = []
    peak = peak_memory(lambda: games.extend(read_file(path, validate=validate)))
    return [peak, games]


def messages(games: list) -> list[str]:
    return [e.message for g in games for e in g.errors]


@pytest.mark.parametrize(("case", "make"), [
    ("tag value", lambda n: '[Event "' + "a" * n + '"]\n1. 32-28 *\n'),
    ("unterminated tag", lambda n: '[Event "' + "a" * n + "\n1. 32-28 *\n"),
    ("line of moves", lambda n: "1. 32-28 18-23 " * (n // 15) + "*\n"),
])
def test_item_17_a_10_mb_line_costs_a_few_mb_whatever_its_length(tmp_path: Path, case: str, make) -> None:
    peaks = []
    for size in (10 * MB, 20 * MB):
        path = tmp_path / f"{size}.pdn"
        path.write_text(make(size) + '[Event "next"]\n1. 33-29 *\n', encoding="utf-8")
        peak, games = read_bytes_of(path)
        assert [g.tags for g in games] == [{}, {"Event": "next"}]  # the next game is read as usual
        (message,) = messages(games)
        assert message.startswith("line longer than the 100,000 characters allowed (it starts ")
        assert message.endswith("); the rest of its game is skipped") and len(message) < 200
        peaks.append(peak)
    assert peaks[0] < 2 * MB, f"{case}: {peaks[0]:,} bytes at the peak for a 10 MB line"
    assert peaks[1] < peaks[0] * 1.1 + MB, f"{case}: the peak grows with the line ({peaks})"


def test_item_17_a_long_tag_value_is_refused_with_its_length(tmp_path: Path) -> None:
    path = tmp_path / "tag.pdn"
    path.write_text('[Event "' + "a" * 90_000 + '"]\n1. 32-28 *\n', encoding="utf-8")
    peak, games = read_bytes_of(path)
    assert messages(games) == ["value of tag [Event] of 90,000 characters is longer than the 10,000 allowed"]
    assert peak < 1 * MB  # the line, once as bytes and once as text; the old reader needed ~18 MB
    path.write_text('[Event "' + "a" * 90_000 + "\n1. 32-28 *\n", encoding="utf-8")
    peak, games = read_bytes_of(path)
    assert messages(games) == [f"malformed tag pair '[Event \"{'a' * 32}... (90,008 characters)': the value "
                               "of [Event] is never closed ('\"' expected before the end of the line)"]
    assert peak < 1 * MB


def test_item_17_a_game_holds_a_bounded_number_of_items() -> None:
    small = ReadLimits(game_items=50)
    moves = "\n".join(f"{n}. 46-41 1-6 {n + 1}. 41-46 6-1" for n in range(1, 200, 2))
    text = f"{KINGS}\n{moves} *\n[Event \"next\"]\n1. 32-28 *\n"
    games = list(PdnReader(text_lines(text), validate=True, limits=small))
    assert [len(g.moves) for g in games] == [49, 1]  # the FEN tag and 49 moves
    (error,) = games[0].errors
    assert text.splitlines()[error.line - 1][error.column - 1:].startswith("1-6")  # 50th move: line 14
    assert error.line == 14 and error.message == (
        "game holds more than the 50 tags, moves, variations, comments and NAGs allowed; the rest of it is "
        "skipped")
    assert not games[1].errors


def test_item_17_past_the_item_limit_a_game_costs_no_more_memory(tmp_path: Path) -> None:
    """A game four times longer than the limit takes the memory of the limit: the rest is skipped unread."""
    limits = ReadLimits(game_items=2_000)
    peaks = []
    for lines in (1_000, 4_000):
        path = tmp_path / f"{lines}.pdn"
        path.write_text(f"{KINGS}\n" + "1. 46-41 1-6 2. 41-46 6-1\n" * lines + "*\n", encoding="utf-8")

        def read(path: Path = path) -> None:
            with path.open("rb") as handle:
                (game,) = PdnReader(DecodedLines(handle), limits=limits)
            assert len(game.moves) == 1_999 and "more than the 2,000 tags" in game.errors[0].message
            # "1." and "2." on each line but the first are wrong: 998 warnings, 100 listed
            assert len(game.warnings) == 101
            assert game.warnings[-1].message == "and 898 more warnings in this game"

        peaks.append(peak_memory(read))
    assert peaks[1] < peaks[0] * 1.1 + 50_000, peaks
    assert peaks[0] < 2 * MB  # (about 500 bytes a move: 50 MB for the default limit of 100,000 items)


def test_item_17_comments_and_whole_games_have_length_limits() -> None:
    limits = ReadLimits(comment=100, game_chars=1000)
    text = "1. 32-28 {" + "word " * 30 + "\n" + "more " * 30 + "} 19-23 *\n"
    (game,) = PdnReader(text_lines(text), limits=limits)
    assert [str(e) for e in game.errors] == [
        "1:10: game 1: comment opened at line 1, column 10 is longer than the 100 characters allowed"]
    text = "1. 32-28 ;" + "x" * 200 + "\n19-23 *\n"
    (game,) = PdnReader(text_lines(text), limits=limits)
    assert game.errors[0].message == "comment of 201 characters is longer than the 100 allowed"
    lines = [f"{n}. 46-41 {{c}} 1-6 {n + 1}. 41-46 6-1" for n in range(1, 99, 2)]
    (game,) = PdnReader([*lines, "*"], limits=limits)
    over = next(number for number, read in enumerate(itertools.accumulate(map(len, lines)), 1) if read > 1000)
    assert [(e.line, e.message) for e in game.errors] == [
        (over, "game longer than the 1,000 characters allowed; the rest of it is skipped")]


def test_item_17_warnings_past_the_limit_are_counted_in_one() -> None:
    text = "".join(f"{n}. 32-28 28-32 " for n in range(5, 605, 2)) + "*"  # each number but the first is wrong
    (game,) = read_text(text)
    assert len(game.warnings) == 101
    assert game.warnings[-1].message == "and 199 more warnings in this game"




@pytest.mark.parametrize(("case", "make"), [
    ("games", lambda n: '[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n' * n),
    ("sibling variations", lambda n: "1. 32-28 " + "(1. 33-29 19-23) " * n + "19-23 *"),
    ("moves on one line", lambda n: KINGS + (KINGS_TO_AND_FRO + " ") * (n // 4) + "*"),
    ("nested variations", lambda n: "1. 32-28 " + "(1. 33-29 " * (n // 10) + ")" * (n // 10) + " *"),
    ("comment lines", lambda n: "1. 32-28 {" + "a few words\n" * n + "} *"),
    ("tags", lambda n: "".join(f'[Tag{i} "value {i}"]\n' for i in range(n)) + "*"),
])
def test_item_17_reading_takes_time_linear_in_the_input(case: str, make) -> None:
    def read(n: int) -> None:
        games = list(PdnReader(text_lines(make(n)), validate=True))
        assert games and not any(g.errors for g in games), case

    small, large = steps(lambda: read(300)), steps(lambda: read(600))
    assert large <= 2.2 * small, f"{case}: {small:,} steps for n=300, {large:,} for n=600"


def test_item_17_writing_takes_time_linear_in_the_game() -> None:
    def game(n: int):
        (parsed,) = read_text("1. 32-28 " + "(1. 33-29 {a} 19-23 $1) " * n + "19-23 *")
        return parsed

    small, large = game(300), game(600)
    assert steps(lambda: write_game(large)) <= 2.2 * steps(lambda: write_game(small))
