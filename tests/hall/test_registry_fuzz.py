"""Whatever a board publishes, the hall's registry (hall/registry.py) reads it as the wire contract says or
drops it with a reason: hypothesis feeds it hostile topics and payloads (wrong types in every field of every
entry kind, Unicode digits, surrogates, NUL, huge numbers, deep nesting, truncation) and no message may reach
the catch-all for messages nobody foresaw (issue 30)."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from boards import journal_entries
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hall.registry import Registry

ODD_TEXT = st.sampled_from(["", "²", "\ud800", "\x00", "9" * 40, "1-0", "x" * 70, "W:W1:B2", "11-15", "a/b"])
VALUE = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False) | ODD_TEXT
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5) | ODD_TEXT, inner,
                                                                max_size=3),
    max_leaves=10)


def _entries() -> list[dict[str, Any]]:
    return [*journal_entries(), {"type": "end", "result": "1-0", "reason": "resignation"}]


ENTRIES = _entries()
FIELDS = ["type", "settings", "started", "text", "fen", "by", "clocks", "wall", "plies", "result", "reason",
          "variant", "variant_options"]


@st.composite
def message(draw: st.DrawFn) -> tuple[str, bytes]:
    """A message a board (or anyone with its password) could publish: a sound one with one field spoiled."""
    kind = draw(st.sampled_from(["stream", "game", "status"]))
    level = draw(st.sampled_from(["1", "²", "12", "a b"]))
    topic = f"dboard/open/{level}/{draw(st.sampled_from(['1', '2', '³']))}/{kind}"
    seq = draw(st.integers(1, len(ENTRIES)))
    game = draw(st.sampled_from(["g", "h"]))   # a board's next game, or a late message of its last one
    if kind == "status":
        payload: dict[str, Any] = {"v": 1, "online": True, "game": game, "seq": seq, "heartbeat": 10}
    elif kind == "stream":
        payload = {"v": 1, "game": game, "seq": seq, "entry": json.loads(json.dumps(ENTRIES[seq - 1]))}
    else:
        payload = {"v": 1, "game": game, "seq": seq, "entries": json.loads(json.dumps(ENTRIES[:seq])),
                   "headers": {"white": "W", "black": "B"}}
    spoil = draw(st.sampled_from(["none", "top", "entry", "settings", "raw"]))
    value = draw(VALUE)
    key = draw(st.sampled_from([*FIELDS, "v", "game", "seq", "online", "headers", "entries", "entry"]))
    if spoil == "top":
        payload[key] = value
    elif spoil in ("entry", "settings") and kind != "status":
        entry = payload["entry"] if kind == "stream" else payload["entries"][-1]
        target = entry.setdefault("settings", {}) if spoil == "settings" else entry
        target[key] = value
    raw = json.dumps(payload).encode()   # ASCII: a lone surrogate travels as \\ud800, as a peer may send it
    if spoil == "raw":
        cut = draw(st.integers(0, len(raw)))
        raw = draw(st.sampled_from([raw[:cut], b"[" * 5000 + b"]" * 5000, raw.replace(b"1", b"\xff", 1)]))
    return topic, raw


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(message(), min_size=1, max_size=8))
def test_no_message_reaches_the_catch_all(caplog: pytest.LogCaptureFixture,
                                         messages: list[tuple[str, bytes]]) -> None:
    registry = Registry("dboard", clock=lambda: 100.0)
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="hall.registry"):
        for topic, raw in messages:
            registry.receive(topic, raw)
        for event, round_ in registry.rounds():   # the pages' queries: every name sorts
            registry.round(event, round_)
    unforeseen = [r for r in caplog.records if r.exc_info is not None]
    assert not unforeseen, unforeseen[0].exc_info
    for feed in registry.boards.values():
        assert feed.problem is None or "could not read" not in feed.problem
        if feed.game is not None and feed.game.variant is not None:
            assert [p.text for p in feed.game.plies] == ["11-15", "23-19"][:len(feed.game.plies)]
