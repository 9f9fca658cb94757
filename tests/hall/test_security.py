"""The hall's security: a wrong password is refused, a board cannot write into another board's topic (the
documented ACL), the arbiter's actions need the token beyond localhost, and forged or oversized payloads are
logged and dropped without harming the hall."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
from boards import EVENT, HallHarness, SimBoard, wait_for
from broker import Mosquitto

from controller.broadcast.client import BrokerSettings, connect, make_client
from controller.broadcast.wire import encode
from hall.config import HallConfig
from hall.server import HallServer

USERS = {"hall": "hall-secret", "7": "seven-secret", "8": "eight-secret"}


class Raw:
    """A bare MQTT client as some user, publishing what the test gives it."""

    def __init__(self, broker: Mosquitto, user: str = "", password: str = "") -> None:
        settings = BrokerSettings.parse(broker.address, user=user, password=password)
        self.client = make_client(settings, f"raw-{user or 'anonymous'}")
        self.reasons: dict[int, Any] = {}
        self.client.on_publish = lambda c, u, mid, reason, props: self.reasons.__setitem__(mid, reason)
        connect(self.client, settings)

    async def publish(self, topic: str, payload: bytes, retain: bool = False) -> Any:
        """Publish at QoS 1 and wait for the broker's answer: its reason code."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        await wait_for(lambda: info.mid in self.reasons, f"the broker's answer to {topic}")
        return self.reasons[info.mid]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def secured(tmp_path: Path) -> Any:
    mosquitto = Mosquitto(tmp_path / "secured", users=USERS)
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()


def test_a_wrong_password_is_refused(secured: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, secured.address, user="hall", password="hall-secret") as hall:
            wrong = SimBoard(tmp_path, secured.address, 7, broadcast_user="7", broadcast_password="guess")
            right = SimBoard(tmp_path, secured.address, 8, broadcast_user="8",
                             broadcast_password="eight-secret")
            await asyncio.gather(wrong.start(), right.start())
            try:
                assert wrong.publisher is not None
                await wait_for(lambda: wrong.publisher.refused is not None, "the broker to refuse board 7")
                assert not wrong.publisher.connected
                await right.play(2, resign=False)
                await wait_for(lambda: hall.has(right), "board 8 in the hall")
                assert (EVENT, "1", "7") not in hall.server.hall.registry.boards
            finally:
                await asyncio.gather(wrong.stop(), right.stop())
    asyncio.run(scenario())


def test_a_board_cannot_publish_as_another_board(secured: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, secured.address, user="hall", password="hall-secret") as hall:
            eight = SimBoard(tmp_path, secured.address, 8, broadcast_user="8",
                             broadcast_password="eight-secret")
            await eight.start()
            seven = Raw(secured, "7", "seven-secret")
            try:
                await eight.play(2, resign=False)
                await wait_for(lambda: hall.has(eight), "board 8 in the hall")
                before = list(hall.game(8).entries)
                forged = {"v": 1, "game": hall.game(8).game, "seq": len(before) + 1,
                          "entry": {"type": "end", "result": "0-1", "reason": "forged"}}
                reason = await seven.publish(f"dboard/{EVENT}/1/8/stream", encode(forged))
                assert reason.is_failure and reason.getName() == "Not authorized"
                # the same connection's next message, allowed, arrives after the forged one would have
                allowed = await seven.publish(f"dboard/{EVENT}/1/7/status", encode({"v": 1, "online": True}))
                assert not allowed.is_failure
                boards = hall.server.hall.registry.boards
                await wait_for(lambda: (EVENT, "1", "7") in boards, "board 7's status")
                assert hall.game(8).entries == before and hall.game(8).result is None
            finally:
                seven.close()
                await eight.stop()
    asyncio.run(scenario())


def test_the_arbiter_token_guards_control_beyond_localhost(broker: Mosquitto, tmp_path: Path) -> None:
    correction = {"event": EVENT, "round": "1", "board": "3", "result": "1-0", "note": "flag fell"}

    async def scenario() -> None:
        public = HallServer(HallConfig(broker=broker.address, listen="0.0.0.0", port=0,
                                       token="arbiter-secret-token", data_dir=str(tmp_path / "public")))
        local = HallServer(HallConfig(broker=broker.address, port=0, data_dir=str(tmp_path / "local")))
        await public.start()
        await local.start()
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{public.port}") as http:
                assert (await http.post("/api/result", json=correction)).status_code == 403
                assert (await http.post("/api/result", json=correction,
                                        headers={"X-Hall-Token": "a-guess-1234567890"})).status_code == 403
                assert (await http.post("/api/result", json=correction,
                                        headers={"X-Hall-Token": "arbiter-secret-token",
                                                 "Origin": "http://evil.example"})).status_code == 403
                assert public.hall.book(EVENT).correction("1", "3") is None
                ok = await http.post("/api/result", json=correction,
                                     headers={"X-Hall-Token": "arbiter-secret-token"})
                assert ok.status_code == 200 and public.hall.book(EVENT).correction("1", "3") is not None
                assert (await http.get("/api/status")).status_code == 200   # watching needs no token
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{local.port}") as http:
                assert (await http.post("/api/result", json=correction)).status_code == 200
                bad = await http.post("/api/result", json=correction | {"result": "3-0"})
                assert bad.status_code == 400 and "result" in bad.json()["error"]
        finally:
            await public.stop()
            await local.stop()
    asyncio.run(scenario())


START = {"type": "start", "settings": {"variant": "english", "fen": None}, "started": "2026-12-01T10:00:00"}
BAD = [
    ("dboard/open/1/1/stream", b"not json"),
    ("dboard/open/1/1/stream", b"\xff\xfe\x00"),
    ("dboard/open/1/1/stream", b"[1, 2]"),
    ("dboard/open/1/1/status", json.dumps({"v": 1, "online": "yes"}).encode()),
    ("dboard/open/1/1/stream", json.dumps({"v": 2, "game": "g", "seq": 1, "entry": START}).encode()),
    ("dboard/open/1/1/stream", json.dumps({"v": 1, "game": "g", "seq": "2", "entry": START}).encode()),
    ("dboard/open/1/1/stream", json.dumps({"v": 1, "game": "g", "seq": 2,
                                           "entry": {"type": "nuke"}}).encode()),
    ("dboard/open/1/1/stream", b"[" * 8000 + b"]" * 8000),          # deep enough to break a recursive parser
    ("dboard/open/1/1/stream", b"[" * 200_000 + b"]" * 200_000),
    ("dboard/open/1/1/game", b'{"v": 1, "pad": "' + b"x" * 2_000_000 + b'"}'),
    ("dboard/open/1/1/game", json.dumps({"v": 1, "game": "g", "seq": 1, "entries": "all",
                                          "headers": {}}).encode()),
    ("dboard/open/1/1/stream", json.dumps({"v": 1, "game": "g", "seq": 2, "entry": {
        "type": "move", "text": "9-14", "fen": "W:W1:B2", "by": "white"}}).encode()),   # not the position
    ("dboard/open/1/1/stream", json.dumps({"v": 1, "game": "g", "seq": 2, "entry": {
        "type": "move", "text": "1-32", "fen": "W:W1:B2", "by": "white"}}).encode()),   # not a legal move
    ("dboard/open/1/1/evil", b"{}"),
]


def test_forged_and_oversized_payloads_are_dropped(broker: Mosquitto, tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            raw = Raw(broker)
            registry = hall.server.hall.registry
            try:
                await raw.publish("dboard/open/1/1/stream", encode({"v": 1, "game": "g", "seq": 1,
                                                                    "entry": START}))
                for topic, payload in BAD:
                    await raw.publish(topic, payload)
                await raw.publish("dboard/open/1/2/status", encode({"v": 1, "online": True}))
                await wait_for(lambda: (EVENT, "1", "2") in registry.boards, "the message after the bad ones")
                assert registry.dropped == len(BAD)
                assert hall.game(1).seq == 1 and registry.boards[(EVENT, "1", "1")].problem is not None
                assert (await hall.http.get("/api/round/open/1")).status_code == 200
                assert (await hall.http.get("/pdn/open/1.pdn")).status_code == 200
            finally:
                raw.close()
        dropped = [r for r in caplog.records if "dropped a message" in r.getMessage()]
        assert len(dropped) == len(BAD) and all(r.levelno == logging.WARNING for r in dropped)
    with caplog.at_level(logging.WARNING, logger="hall"):
        asyncio.run(scenario())
