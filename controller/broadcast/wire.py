"""The hall's wire contract: topic names and the JSON payloads a board publishes, with the checks a reader
applies before believing one (a forged or oversized payload is a ``WireError``, never a crash).

A board publishes under ``<prefix>/<event>/<round>/<board>/``:

- ``stream`` (QoS 1): one message per journal line, ``{"v", "game", "seq", "entry"}``; ``seq`` is the line's
  number in the game's journal (1 = its start), so it is the same after a restart and readers drop what they
  have already seen;
- ``game`` (QoS 1, retained): the headers and every entry so far, ``{"v", "game", "seq", "headers",
  "entries"}``: a reader that joins late (or lost messages) catches up from it;
- ``status`` (QoS 1, retained): ``{"v", "online", ...}``, the board's liveness, refreshed every heartbeat; the
  broker publishes ``{"v": 1, "online": false}`` there (the will) when the board's connection dies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import ControllerError

VERSION = 1
KINDS = ("stream", "game", "status")
ENTRY_TYPES = ("start", "move", "forced", "takeback", "end")
RESULTS = ("1-0", "0-1", "1/2-1/2")
MAX_STREAM_BYTES = 16 * 1024
"""The largest ``stream`` or ``status`` message a reader accepts (a journal line is a few hundred bytes)."""
MAX_GAME_BYTES = 1024 * 1024
"""The largest ``game`` message (every entry of a long game with clocks is well under 100 kB)."""
MAX_ENTRIES = 4000
HEADER_KEYS = ("event", "round", "board", "white", "black", "site")


class WireError(ControllerError, ValueError):
    """A message that breaks the contract: names the topic and what is wrong."""


def check_level(name: str, value: str) -> str:
    """``value`` as one topic level: not empty, no ``/``, ``+``, ``#``, and printable (no control characters,
    no lone surrogate, which no MQTT topic can carry)."""
    if not value or any(c in value for c in "/+#") or not value.isprintable() or len(value) > 64:
        raise ValueError(f"{name}: {value!r} cannot be a topic level (1-64 printable characters, no / + # "
                         f"or control characters)")
    return value


DEFAULT_PREFIX = "dboard"
"""The first topic level the boards publish under and the hall listens to unless their configs say another."""


@dataclass(frozen=True)
class BoardTopic:
    """Where one board publishes: ``prefix/event/round/board``."""

    prefix: str
    event: str
    round: str
    board: str

    def __post_init__(self) -> None:
        for name in ("event", "round", "board"):
            check_level(name, getattr(self, name))
        for level in self.prefix.split("/"):
            check_level("prefix", level)

    @property
    def base(self) -> str:
        return f"{self.prefix}/{self.event}/{self.round}/{self.board}"

    def topic(self, kind: str) -> str:
        """The topic of ``kind`` (stream, game or status)."""
        assert kind in KINDS
        return f"{self.base}/{kind}"

    @classmethod
    def parse(cls, prefix: str, topic: str) -> tuple[BoardTopic, str]:
        """The board and kind of a topic under ``prefix`` (WireError for anything else)."""
        head = prefix + "/"
        if not topic.startswith(head):
            raise WireError(f"{topic!r}: not under {prefix!r}")
        levels = topic[len(head):].split("/")
        if len(levels) != 4 or levels[3] not in KINDS:
            raise WireError(f"{topic!r}: expected {prefix}/EVENT/ROUND/BOARD/(stream|game|status)")
        try:
            return cls(prefix, levels[0], levels[1], levels[2]), levels[3]
        except ValueError as exc:
            raise WireError(f"{topic!r}: {exc}") from None

    def __str__(self) -> str:
        return self.base


def encode(payload: dict[str, Any]) -> bytes:
    """A payload as compact UTF-8 JSON."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(topic: str, kind: str, raw: bytes) -> dict[str, Any]:
    """The checked payload of a message on ``topic``: size, JSON, version and the fields of its kind."""
    limit = MAX_GAME_BYTES if kind == "game" else MAX_STREAM_BYTES
    if len(raw) > limit:
        raise WireError(f"{topic}: {len(raw)} bytes, more than the {limit} a {kind} message may have")
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"{topic}: not UTF-8 JSON ({type(exc).__name__})") from None
    if not isinstance(data, dict) or data.get("v") != VERSION:
        raise WireError(f"{topic}: expected a JSON object with \"v\": {VERSION}")
    if kind == "status":
        _check_status(topic, data)
        return data
    _game_id(topic, data.get("game"))
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise WireError(f"{topic}: \"seq\" must be a positive integer, got {seq!r}")
    if kind == "stream":
        check_entry(topic, data.get("entry"))
        return data
    entries = data.get("entries")
    if not isinstance(entries, list) or len(entries) != seq or seq > MAX_ENTRIES:
        raise WireError(f"{topic}: \"entries\" must be a list of \"seq\" ({seq!r}) entries")
    for entry in entries:
        check_entry(topic, entry)
    headers = data.get("headers")
    if not isinstance(headers, dict) or not all(isinstance(headers.get(k, ""), str) for k in HEADER_KEYS):
        raise WireError(f"{topic}: \"headers\" must be an object of texts ({', '.join(HEADER_KEYS)})")
    return data


STATUS_TYPES: dict[str, Any] = {"state": str, "board_connected": bool, "out_of_sync": bool, "game": str,
                                "seq": int, "heartbeat": int | float, "clocks": dict, "time": str}


def _check_status(topic: str, data: dict[str, Any]) -> None:
    """A status: ``online``, and the optional fields each of its type (a heartbeat of 0.1 s to an hour)."""
    if not isinstance(data.get("online"), bool):
        raise WireError(f"{topic}: status without a true/false \"online\"")
    for key, kind in STATUS_TYPES.items():
        value = data.get(key)
        wrong = not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool)
        if value is not None and wrong:
            raise WireError(f"{topic}: status field {key!r} has the wrong type")
    if "heartbeat" in data and data["heartbeat"] is not None and not 0.1 <= data["heartbeat"] <= 3600:
        raise WireError(f"{topic}: status heartbeat must be 0.1-3600 seconds")


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _game_id(topic: str, value: Any) -> None:
    if not isinstance(value, str) or not 1 <= len(value) <= 64:
        raise WireError(f"{topic}: \"game\" must be a text of 1-64 characters")


def check_entry(topic: str, entry: Any) -> None:
    """The shape of one journal entry (the rules check the moves themselves when the game is replayed)."""
    if not isinstance(entry, dict) or entry.get("type") not in ENTRY_TYPES:
        raise WireError(f"{topic}: an entry must be an object whose type is one of {', '.join(ENTRY_TYPES)}")
    kind = entry["type"]
    if kind == "start":
        settings = entry.get("settings")
        if not isinstance(settings, dict) or not isinstance(settings.get("variant"), str):
            raise WireError(f"{topic}: a start entry needs settings with a variant")
        if not isinstance(settings.get("fen"), str | None):
            raise WireError(f"{topic}: a start entry's settings.fen must be a text or null")
    elif kind in ("move", "forced"):
        for key in ("text", "fen", "by"):
            if not isinstance(entry.get(key), str):
                raise WireError(f"{topic}: a {kind} entry needs a text {key!r}")
        clocks = entry.get("clocks")
        if clocks is not None and not (isinstance(clocks, list) and len(clocks) == 2 and all(
                isinstance(c, int | float) and not isinstance(c, bool) and 0 <= c < 1e7 for c in clocks)):
            raise WireError(f"{topic}: a {kind} entry's clocks must be two numbers of seconds")
        if not isinstance(entry.get("wall"), str | None):
            raise WireError(f"{topic}: a {kind} entry's wall time must be a text")
    elif kind == "takeback":
        if not _count(entry.get("plies")) or entry["plies"] < 1:
            raise WireError(f"{topic}: a takeback entry needs a positive number of plies")
    elif entry.get("result") not in RESULTS or not isinstance(entry.get("reason"), str):
        raise WireError(f"{topic}: an end entry needs a result ({', '.join(RESULTS)}) and a reason")
