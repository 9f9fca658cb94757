"""The broadcast place file (``broadcast-place.json`` in the data directory, written when the place is set
from the page) under generated hostile contents: whatever lies there, the board starts and broadcasts under a
place whose fields are printable topic levels and names, the file's or the config's (issue 30)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.broadcast.place import PLACE_FILE, BroadcastPlace, load_place
from controller.config import Config

CONFIG = Config(broadcast=True, broadcast_event="Club", broadcast_round="1", broadcast_board="7")
HOSTILE = ["\ud800", "a\x00b", "²", "७", "x/y", "+", "#", "\u2028", "\x7f", "\u202e", "9" * 70, "", " "]
TEXTS = st.one_of(st.text(max_size=90), st.sampled_from(HOSTILE))
JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | TEXTS,
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=5),
                       max_leaves=12)
FIELDS = st.fixed_dictionaries({}, optional={key: st.one_of(TEXTS, JSONISH)
                                             for key in ("event", "round", "board", "white", "black")})


def contents() -> st.SearchStrategy[bytes]:
    as_json = st.one_of(FIELDS, JSONISH).map(lambda v: json.dumps(v).encode())
    raw = st.binary(max_size=200)
    deep = st.integers(50, 5000).map(lambda n: b"[" * n + b"]" * n)
    cut = as_json.flatmap(lambda b: st.integers(0, len(b)).map(lambda n: b[:n]))
    return st.one_of(as_json, raw, deep, cut)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=contents())
def test_whatever_the_place_file_holds_the_board_broadcasts_under_a_sound_place(tmp_path_factory,
                                                                               data: bytes) -> None:
    folder = tmp_path_factory.mktemp("data")
    (folder / PLACE_FILE).write_bytes(data)
    place = load_place(folder, CONFIG)
    assert isinstance(place, BroadcastPlace)
    for value in (place.event, place.round, place.board, place.white, place.black):
        assert isinstance(value, str) and (value == "" or value.isprintable()), place
        value.encode("utf-8")
    assert BroadcastPlace(**place.to_json()) == place


def test_a_place_file_that_is_not_a_file_leaves_the_configs_place(tmp_path: Path) -> None:
    for make in (os.mkfifo, lambda p: p.mkdir(), lambda p: p.symlink_to("/dev/zero")):
        folder = tmp_path / str(id(make))
        folder.mkdir()
        make(folder / PLACE_FILE)
        assert load_place(folder, CONFIG) == BroadcastPlace.from_config(CONFIG)
