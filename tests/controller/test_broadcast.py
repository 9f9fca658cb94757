"""The board's side of the hall: the journal read line by line (both journal formats, a torn tail, a new
game), the wire contract's checks, and the broadcast config keys (off by default)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from controller.broadcast.client import BrokerSettings
from controller.broadcast.tail import JournalTail, game_id
from controller.broadcast.wire import BoardTopic, WireError, decode, encode
from controller.config import Config, ConfigError

START = {"type": "start", "settings": {"variant": "english", "fen": None}, "started": "2026-12-01T10:00:00"}
MOVE = {"type": "move", "text": "9-13", "fen": "W:W21:B13", "by": "white"}


def test_the_tail_follows_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "game.journal"
    tail = JournalTail(path)
    assert tail.read() == (False, []) and tail.game is None
    path.write_text(json.dumps(START) + "\n" + "0123abcd " + json.dumps(MOVE) + "\n" + '{"type": "mo')
    assert tail.read() == (True, [START, MOVE])          # the checksummed format too; the torn tail waits
    assert tail.game == game_id(START) and tail.game.startswith("20261201T100000-")
    with open(path, "a") as fh:
        fh.write('ve", "text": "22-18", "fen": "x", "by": "black"}\n')
    restarted, new = tail.read()
    assert not restarted and [e["text"] for e in new] == ["22-18"]
    replaced = tmp_path / "new"
    replaced.write_text(json.dumps(START | {"started": "2026-12-01T11:00:00"}) + "\n")
    os.replace(replaced, path)                             # a new game replaces the file
    restarted, new = tail.read()
    assert restarted and len(new) == 1 and tail.game != game_id(START)


def test_the_wire_checks_every_field() -> None:
    topic, kind = BoardTopic.parse("dboard", "dboard/open/3/12/stream")
    assert (topic.event, topic.round, topic.board, kind) == ("open", "3", "12", "stream")
    good = {"v": 1, "game": "g", "seq": 2, "entry": MOVE}
    assert decode("t", "stream", encode(good)) == good
    for bad, what in ((good | {"seq": 0}, "seq"), (good | {"entry": MOVE | {"clocks": [1]}}, "clocks"),
                      (good | {"game": ""}, "game"), ({"v": 1, "online": 1}, "online"),
                      ({"v": 1, "online": True, "heartbeat": "soon"}, "heartbeat"),
                      ({"v": 1, "online": True, "heartbeat": 0}, "heartbeat"),
                      ({"v": 1, "online": True, "seq": True}, "seq")):
        with pytest.raises(WireError, match=what):
            decode("t", "status" if "online" in bad else "stream", encode(bad))
    with pytest.raises(WireError, match="entries"):
        decode("t", "game", encode({"v": 1, "game": "g", "seq": 2, "entries": [START], "headers": {}}))
    with pytest.raises(ValueError, match="topic level"):
        BoardTopic("dboard", "open", "3", "1#")


def test_broadcast_is_off_by_default_and_its_keys_are_checked() -> None:
    assert Config().broadcast is False
    assert str(BrokerSettings.parse("mqtts://hall.local")) == "mqtts://hall.local:8883"
    assert BrokerSettings.parse("10.0.0.2:1884").port == 1884
    with pytest.raises(ConfigError, match="broadcast: board"):
        Config(broadcast=True, broadcast_board="3/4")
    with pytest.raises(ConfigError, match="protocol"):
        Config(broadcast=True, broadcast_protocol="4")
    with pytest.raises(ConfigError, match="port"):
        Config(broadcast=True, broadcast_broker="hall:http")
