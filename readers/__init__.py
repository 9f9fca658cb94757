"""Checked reading of the files and messages the board takes in: a regular file of bounded size, JSON of
bounded nesting and numbers, values of exact types, and on failure one `ReadError` line naming the file (or
peer), the line or field and what was expected. A leaf package: it imports nothing of ours, so every layer
(the rules core included) may read through it."""

from readers.files import ReadError, check_regular, read_bytes, read_text
from readers.values import (
    at,
    expect_bool,
    expect_dict,
    expect_int,
    expect_list,
    expect_number,
    expect_str,
    is_decimal,
    is_digits,
    loads,
    shown,
)

__all__ = ["ReadError", "at", "check_regular", "expect_bool", "expect_dict", "expect_int", "expect_list",
           "expect_number", "expect_str", "is_decimal", "is_digits", "loads", "read_bytes", "read_text",
           "shown"]
