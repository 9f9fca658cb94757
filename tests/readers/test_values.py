"""JSON of bounded nesting and numbers, values of exact types (readers/values.py): whatever the input, one
ReadError line naming where, or the value."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from readers import ReadError, expect_bool, expect_dict, expect_int, expect_list, expect_number, expect_str
from readers.values import MAX_DEPTH, loads

HOSTILE_TEXTS = st.one_of(
    st.text(max_size=200),
    st.integers(1, 50_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 5_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(1, 6_000).map(lambda n: "9" * n),
    st.sampled_from(["NaN", "Infinity", "-Infinity", '"\\ud800"', "1e999", "\x00", '{"a": 1', "[1,]",
                     '"²"', "-0", "1" * 19, '{"a": "\\u0000"}']),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                             max_size=4),
                 max_leaves=30).map(json.dumps),
)


@settings(deadline=None)
@given(HOSTILE_TEXTS)
def test_any_text_is_a_value_or_one_read_error(text: str) -> None:
    try:
        value = loads(text, "f.json:3")
    except ReadError as exc:
        assert str(exc).startswith("f.json:3: ") and "\n" not in str(exc)
        return
    assert json.loads(text) == value or value != value   # the same value json reads (NaN never gets here)
    if isinstance(value, float):
        assert math.isfinite(value) or text.strip().lower().startswith(("1e", "-1e"))


def test_the_bounds_are_named() -> None:
    with pytest.raises(ReadError, match=f"nested deeper than {MAX_DEPTH} levels"):
        loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "x")
    assert loads("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x") is not None
    assert loads(json.dumps(["[" * 40]), "x") == ["[" * 40]   # brackets in a text are not nesting
    with pytest.raises(ReadError, match="a number of 19 digits"):
        loads("1" * 19, "x")
    with pytest.raises(ReadError, match="NaN is not a JSON number"):
        loads('{"a": NaN}', "x")
    with pytest.raises(ReadError, match=r"x: not JSON \(Expecting value at line 1 column 1\)"):
        loads("", "x")


def test_exact_types() -> None:
    assert expect_int(3, "n", 0, 5) == 3
    for wrong, message in ((True, "expected a whole number, got true/false True"),
                           (3.0, "expected a whole number, got a number 3.0"),
                           ("3", "expected a whole number, got a text '3'"),
                           (9, "9 is outside 0..5")):
        with pytest.raises(ReadError, match=f"^tries.e1: {message}$"):
            expect_int(wrong, "tries.e1", 0, 5)
    assert expect_number(2, "clock", 0, 10) == 2.0
    with pytest.raises(ReadError, match="expected a number, got true/false"):
        expect_number(False, "clock", 0, 10)
    with pytest.raises(ReadError, match="expected a list, got an object"):
        expect_list({}, "plies")
    with pytest.raises(ReadError, match="a list of 3 items, more than the 2"):
        expect_list([1, 2, 3], "plies", max_items=2)
    with pytest.raises(ReadError, match="expected an object, got a list"):
        expect_dict([], "x")
    with pytest.raises(ReadError, match="a text of 5 characters, more than the 4"):
        expect_str("abcde", "id", 4)
    with pytest.raises(ReadError, match="expected true or false, got null None"):
        expect_bool(None, "flag")
    with pytest.raises(ReadError, match=r"^n: expected a whole number, got a text '" + "x" * 39 + r"\.\.\.$"):
        expect_int("x" * 100, "n")   # a long value is shown by its start


def test_protocol_numbers_are_ascii_digits_and_shown_text_is_one_printable_line() -> None:
    from readers import is_decimal, is_digits, shown

    assert is_digits("0042") and not any(map(is_digits, ["", "३", "²", "1_0", " 7", "+7", "1" * 19]))
    assert is_decimal("0.5") and is_decimal(".5") and is_decimal("60")
    assert not any(map(is_decimal, ["nan", "1e400", "-5", "1_0", "१.५", "inf", "", "."]))
    assert shown("caf\x00\ud800\n\u2028é", 80) == "caf????é"
    assert shown("x" * 100, 10) == "xxxxxxx..." and shown("abc", 3) == "abc"
