"""The Hub line parser and formatter: any text gives a message or a HubSyntaxError, in linear time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from steps import growth

from engine.hub_protocol import HubSyntaxError, clean_value, format_message, parse_message, split_tokens


def test_apostrophes_and_backslashes_are_ordinary_characters() -> None:
    """Engines write `Ed's-engine` and `can't`; a shell-style parser rejected them (issue 22, item 2)."""
    assert parse_message("id name=Ed's-engine").args == {"name": "Ed's-engine"}
    assert parse_message("info message=can't-see-book").args == {"message": "can't-see-book"}
    assert parse_message(r'info pv="a\ b" path=C:\scan\x').args == {"pv": r"a\ b", "path": r"C:\scan\x"}


def test_quotes_group_spaces_anywhere_in_a_word() -> None:
    msg = parse_message('  info  pv="32-28 19-23"\tscore=0.1 "two words"=x  flag ')
    assert msg.command == "info" and msg.flags == ("flag",)
    assert msg.args == {"pv": "32-28 19-23", "score": "0.1", "two words": "x"}
    assert parse_message('done move=""').args == {"move": ""}


@pytest.mark.parametrize(("line", "where"), [('info pv="32-28', "column 9"), ('"', "column 1"),
                                             ("", "no command"), ('"" x=1', "no command"),
                                             ("   \t ", "no command")])
def test_unparsable_lines_say_where(line: str, where: str) -> None:
    with pytest.raises(HubSyntaxError, match=where):
        parse_message(line)


def test_values_it_cannot_carry_are_cleaned_so_its_own_parser_reads_them_back() -> None:
    """`dboard hub` answered `error message="... "x" ..."`, which no Hub parser reads (issue 22, item 9)."""
    line = format_message("error", message='unknown command \'"x"\'\nsecond line')
    assert "\n" not in line
    assert parse_message(line).args == {"message": "unknown command ''x'' second line"}


words = st.text(st.characters(blacklist_characters=' \t\r\n"=', blacklist_categories=("Cs", "Zs", "Zl",
                                                                                         "Zp", "Cc")),
                min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.text(alphabet=' ="\'\\\tabx-1', max_size=200))
def test_any_text_parses_or_raises_only_hub_syntax_error(line: str) -> None:
    try:
        msg = parse_message(line)
    except HubSyntaxError:
        assert line.count('"') % 2 == 1 or not split_tokens(line) or not split_tokens(line)[0]
        return
    assert msg.command


@settings(max_examples=200, deadline=None)
@given(words, st.lists(words, max_size=3), st.dictionaries(words, st.text(max_size=40), max_size=4))
def test_format_then_parse_is_the_identity_on_what_a_line_can_carry(command: str, flags: list[str],
                                                                   args: dict[str, str]) -> None:
    msg = parse_message(format_message(command, *flags, **{k: v for k, v in args.items()}))
    assert msg.command == command and list(msg.flags) == flags
    assert msg.args == {k.replace("_", "-"): clean_value(v) for k, v in args.items()}


SHAPES = {
    "one long word": lambda n: "info pv=" + "x" * n,
    "many words": lambda n: "info" + " a=b" * (n // 4),
    "one long quoted value": lambda n: 'info pv="' + "x " * (n // 2) + '"',
    "many quoted pieces": lambda n: 'info pv=' + '"a"b' * (n // 4),
    "apostrophes": lambda n: "info message=" + "can't " * (n // 6),
    "unclosed quote at the end": lambda n: "info " + "a=b " * (n // 4) + '"' + "x" * 10,
    "runs of spaces": lambda n: "info" + " " * n + "x",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_parsing_takes_steps_linear_in_the_line_length(shape: str) -> None:
    """16 times the text costs at most about 16 times the steps (shlex took quadratic time, item 8)."""
    assert growth(parse_message, SHAPES[shape], 2_000) < 17


def test_the_step_count_would_catch_a_quadratic_parser() -> None:
    """The measure itself: a parser that walks back over the line for every new word grows with its square."""

    def rescanning(line: str) -> int:
        words = 0
        for end, ch in enumerate(line):
            if ch == " ":
                words = sum(1 for c in line[:end] if c == " ")   # recount from the start each time
        return words

    assert growth(rescanning, SHAPES["many words"], 60, factor=8) > 30
