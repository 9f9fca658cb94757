"""The arbiter's book of an event read whatever is on disk (hall/book.py): a sound book, or the damaged file
moved aside under a free name and an empty book, never an exception that takes the event's pages down."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.durable import DAMAGED_INFIX
from hall.book import EventBook

VALUE = st.recursive(st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False)
                     | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                 max_size=3),
                     max_leaves=12)
PAIR = st.fixed_dictionaries({"board": st.sampled_from(["1", "2", 3]) | VALUE,
                              "white": st.text(max_size=8) | VALUE, "black": st.text(max_size=8)})
RESULT = st.fixed_dictionaries({"result": st.sampled_from(["1-0", "0-1", "1/2-1/2"]) | VALUE})
BOOK = st.fixed_dictionaries({}, optional={
    "system": st.sampled_from(["swiss", "round-robin"]) | VALUE, "win": st.integers(0, 3) | VALUE,
    "draw": st.floats(0, 2) | VALUE, "pairings": st.dictionaries(st.sampled_from(["1", "2"]),
                                                                  st.lists(PAIR, max_size=3) | VALUE) | VALUE,
    "corrections": st.dictionaries(st.sampled_from(["1"]), st.dictionaries(st.sampled_from(["1", "2"]),
                                                                   RESULT | VALUE)) | VALUE})
HOSTILE = st.one_of(BOOK.map(json.dumps).map(str.encode), VALUE.map(json.dumps).map(str.encode),
                    st.binary(max_size=30), st.integers(6, 3000).map(lambda n: b"[" * n + b"]" * n))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(HOSTILE)
def test_any_book_file_is_read_or_moved_aside(tmp_path: Path, raw: bytes) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "open.json"
    path.write_bytes(raw)
    book = EventBook.load(path)
    aside = sorted(folder.glob(f"open.json{DAMAGED_INFIX}*"))
    if aside:
        assert aside[0].read_bytes() == raw and not path.exists() and book.revision == 0
        assert not book.pairings and not book.corrections
    else:
        assert path.read_bytes() == raw
        book.save()
        again = EventBook.load(path)   # what was read is what it writes back
        assert (again.system, again.win, again.draw, again.pairings, again.corrections) == (
            book.system, book.win, book.draw, book.pairings, book.corrections)


def test_a_fifo_in_its_place_is_moved_aside_without_hanging(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "open.json")
    book = EventBook.load(tmp_path / "open.json")
    assert not book.pairings and len(list(tmp_path.glob(f"open.json{DAMAGED_INFIX}*"))) == 1
