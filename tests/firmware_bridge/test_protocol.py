"""Protocol v1 codec: CRC vector, COBS round trips, every message, the examples in hardware/protocol.md."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_bridge import protocol as p

DOC = Path(__file__).resolve().parents[2] / "hardware" / "protocol.md"


def test_crc_check_value() -> None:
    assert p.crc16_ccitt_false(b"123456789") == 0x29B1
    assert p.crc16_ccitt_false(b"") == 0xFFFF


@given(st.binary(max_size=700))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    encoded = p.cobs_encode(data)
    assert 0 not in encoded
    assert p.cobs_decode(encoded) == data


@pytest.mark.parametrize("bad", [b"\x00\x01", b"\x05\x01\x02", b"\x03\x01\x00"])
def test_cobs_rejects_malformed(bad: bytes) -> None:
    with pytest.raises(p.ProtocolError) as info:
        p.cobs_decode(bad)
    assert info.value.code is p.ErrorCode.BAD_COBS


MESSAGES = [
    p.Hello(), p.SnapshotRequest(), p.Heartbeat(),
    p.HelloReply(1, 2, 10, 10, 0xBEEF, 500),
    p.Snapshot(77, 10, 10, frozenset({(0, 0), (9, 9), (4, 5)})),
    p.Snapshot(0, 8, 8, frozenset()),
    p.Change(2**32 - 1, 7, 0, False, 123456),
    p.LedFrameMsg(8, 8, 200, tuple(p.LedCell(i, 255 - i, i % 7, i % 4) for i in range(64))),
    p.HeartbeatReply(99, 5), p.Ack(4, 65535), p.Error(1, 0x83),
]


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(msg: p.Message) -> None:
    reader = p.FrameReader()
    assert reader.feed(p.encode(msg, 0x1234)) == [(0x1234, msg)]


def test_reader_resyncs_after_garbage_bad_crc_and_truncation() -> None:
    good = p.encode(p.Change(3, 1, 2, True, 5), 9)
    payload = p.payload(p.Change(4, 1, 2, False, 6), 10)
    bad_crc = p.cobs_encode(payload[:-1] + bytes([payload[-1] ^ 0x80])) + b"\x00"
    truncated = good[:6] + b"\x00"
    wrong_version = p.cobs_encode(b"\x02" + payload[1:-2] + p.crc16_ccitt_false(b"\x02" + payload[1:-2])
                                  .to_bytes(2, "little")) + b"\x00"
    rng = random.Random(1)
    garbage = bytes(rng.randrange(256) for _ in range(100)) + b"\x00"
    reader = p.FrameReader()
    out = reader.feed(garbage + bad_crc + truncated + wrong_version + good)
    assert out == [(9, p.Change(3, 1, 2, True, 5))]
    assert reader.errors[p.ErrorCode.BAD_CRC] >= 1
    assert reader.errors[p.ErrorCode.BAD_VERSION] == 1
    assert reader.dropped >= 4


def test_bad_lengths_are_named() -> None:
    with pytest.raises(p.ProtocolError, match="CHANGE body is 3 bytes, expected 11"):
        p.parse_body(p.MsgType.CHANGE, b"abc")
    with pytest.raises(p.ProtocolError, match="unknown message type 0x7F"):
        p.parse_body(0x7F, b"")


def test_examples_in_protocol_md_match_the_codec() -> None:
    text = DOC.read_text()
    assert "0x29B1" in text
    examples = {
        "04 01 83 07 02 01 01 01 06 02 03 01 e8 03 01 03 88 74 00":
            p.encode(p.Change(1, 2, 3, True, 1000), 7),
        "03 01 01 01 03 44 c5 00": p.encode(p.Hello(), 0),
        "04 01 82 02 02 05 01 01 04 08 08 01 02 08 01 01 01 04 80 56 1a 00":
            p.encode(p.Snapshot(5, 8, 8, frozenset({(0, 0), (2, 3), (7, 7)})), 2),
        "03 01 81 01 02 01 09 08 08 ef be f4 01 0d e4 00": p.encode(p.HelloReply(1, 0, 8, 8, 0xBEEF, 500), 0),
        "04 01 86 04 03 04 11 03 ea 75 00": p.encode(p.Ack(4, 17), 4),
    }
    for hex_text, wire in examples.items():
        assert hex_text in text
        assert bytes.fromhex(hex_text) == wire
    wires = re.findall(r"wire:?\s+`?([0-9a-f ]+ 00)", text)
    assert len(wires) >= 5
    for hex_text in wires:
        assert p.FrameReader().feed(bytes.fromhex(hex_text)), hex_text
