"""DXP records: any text parses or raises DxpError, any stream splits in linear time, everything we encode is
well formed."""

from __future__ import annotations

import contextlib
import io

import pytest
from dxp_peer import WELL_FORMED
from hypothesis import given, settings
from hypothesis import strategies as st
from steps import growth

from engine.dxp_protocol import (
    MAX_MESSAGE,
    NUL,
    BackAcc,
    BackReq,
    Chat,
    DxpError,
    DxpRecordTooLong,
    GameAcc,
    GameEnd,
    GameReq,
    MoveMsg,
    RecordReader,
    decode,
    parse,
)

names = st.text(max_size=40)
numbers = st.integers(min_value=-10**6, max_value=10**6)
records = st.one_of(
    st.builds(Chat, st.text(max_size=300)),
    st.builds(GameReq, names, st.sampled_from("WZQ"), numbers, numbers),
    st.builds(GameReq, names, st.sampled_from("WZ"), numbers, numbers, st.sampled_from(["W", "Z", "x", None]),
              st.text(alphabet="ewzWZ", min_size=50, max_size=50)),
    st.builds(GameAcc, names, numbers),
    st.builds(MoveMsg, numbers, numbers, numbers, st.lists(numbers, max_size=30).map(tuple)),
    st.builds(GameEnd, numbers, numbers),
    st.builds(BackReq, numbers, st.text(max_size=2)),
    st.builds(BackAcc, numbers),
)


@settings(max_examples=300, deadline=None)
@given(records)
def test_every_record_we_encode_is_well_formed_and_reads_back_as_its_kind(message) -> None:
    """`E-57` answered a GAMEEND with reason 9; names and chat could carry NUL or non-ASCII (item 9)."""
    text = message.encode()
    assert WELL_FORMED.fullmatch(text), text
    assert type(parse(text)) is type(message)


def test_a_game_request_with_a_bad_position_is_not_encoded() -> None:
    with pytest.raises(DxpError, match="expected 50 letters"):
        GameReq("x", "W", 0, 0, "W", "e" * 49).encode()


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=120) | st.text(alphabet="RAMEBKCWZAB0123456789 e", max_size=120))
def test_any_record_parses_or_raises_dxp_error(record: str) -> None:
    with contextlib.suppress(DxpError):
        parse(record)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=60).filter(lambda b: NUL not in b), max_size=8),
       st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=8))
def test_a_stream_splits_into_its_records_however_it_is_cut(parts: list[bytes], cuts: list[int]) -> None:
    stream = b"".join(part + NUL for part in parts)
    reader = RecordReader()
    position = 0
    for size in cuts * (len(stream) // max(1, sum(cuts)) + 1):
        reader.feed(stream[position : position + size])
        position += size
    assert list(reader.records) == parts
    for raw in reader.records:
        with contextlib.suppress(DxpError):
            decode(raw)


def test_a_record_without_end_is_refused_after_the_limit_not_after_the_input() -> None:
    """32 MB without a NUL took 220 s of CPU and 29,953 log lines (item 6): the reader stops a few kB in."""
    stream = io.BytesIO(b"M" * 32_000_000)
    reader = RecordReader()
    with pytest.raises(DxpRecordTooLong, match=f"longer than {MAX_MESSAGE} bytes"):
        while chunk := stream.read(4096):
            reader.feed(chunk)
    assert stream.tell() <= MAX_MESSAGE + 4096


@pytest.mark.parametrize(("shape", "make"), [
    ("many short records", lambda n: b"K0\0" * (n // 3)),
    ("one record per chunk's end", lambda n: (b"C" + b"x" * 100 + b"\0") * (n // 102)),
])
def test_splitting_takes_steps_linear_in_the_stream(shape: str, make) -> None:
    def split(data: bytes) -> None:
        reader = RecordReader()
        for start in range(0, len(data), 4096):
            reader.feed(data[start : start + 4096])

    assert growth(split, make, 3_000) < 17, shape
