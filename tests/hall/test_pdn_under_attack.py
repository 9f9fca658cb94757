"""The hall's live PDN of every board and its round PDN are, move for move and clock for clock, what the
boards committed, no more and no less (issue 30), while in the same run: another board's credentials forge
every kind of message into each board's topics and a wrong password tries to log in (the broker's
documented ACL refuses both), every message a board published is replayed under its own name, out of
order, its retained flag kept, malformed payloads and entries no game can take are injected under its
name (bad JSON, wrong types, illegal or forged-tag moves, a conflicting start, entries held far ahead,
topics of other shapes), and a board's journal arrives shuffled, every message twice. Run twice: with the
broker's default queue, and with a queue of five messages while the hall reads nothing for a while (the
broker drops most of the burst, and the hall recovers it from the retained games)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from boards import EVENT, HallHarness, SimBoard, moves_of, wait_for
from broker import Mosquitto
from test_security import Raw

from controller.broadcast.client import BrokerSettings, connect, make_client
from controller.broadcast.wire import encode
from rules import Board
from rules.pdn import read_games, validate_game

USERS = {"hall": "hall-secret", "1": "one-secret", "2": "two-secret", "3": "three-secret", "9": "nine-secret"}
SIMULATED = (1, 2)
SCRIPTED = 3
PLIES = ("11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14")
START = {"type": "start", "settings": {"variant": "english", "fen": None}, "started": "2026-12-01T10:00:00"}


def journal() -> list[dict[str, Any]]:
    """The scripted board's whole record: its start and every ply, with clocks."""
    board, entries = Board("english"), [START]
    for n, text in enumerate(PLIES):
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        entries.append({"type": "move", "text": text, "fen": board.fen(), "by": by,
                        "clocks": [300.0 - n, 300.0 - n / 2]})
    return entries


class Tap:
    """Everything the boards publish, as the hall's user reads it (to be replayed later)."""

    def __init__(self, broker: Mosquitto) -> None:
        settings = BrokerSettings.parse(broker.address, user="hall", password=USERS["hall"])
        self.client = make_client(settings, "tap")
        self.seen: list[tuple[str, bytes, bool]] = []
        self.client.on_connect = lambda c, u, flags, reason, props: c.subscribe("dboard/#", qos=1)
        self.client.on_message = lambda c, u, m: self.seen.append((m.topic, bytes(m.payload), bool(m.retain)))
        connect(self.client, settings)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


async def refused_login(broker: Mosquitto, user: str, password: str) -> bool:
    """Whether the broker refuses `user` with `password` (paho then retries: stop it)."""
    settings = BrokerSettings.parse(broker.address, user=user, password=password)
    client = make_client(settings, f"guess-{user}")
    answers: list[Any] = []
    client.on_connect = lambda c, u, flags, reason, props: answers.append(reason)
    connect(client, settings)
    try:
        await wait_for(lambda: bool(answers), "the broker's answer to a login")
    finally:
        client.disconnect()
        client.loop_stop()
    return bool(answers[0].is_failure)


def forged_payloads(game: str, seq: int) -> list[tuple[str, bytes, bool]]:
    """What a forger sends into a board's topics: each kind of message, each sound but for who sends it."""
    board = Board("english")
    board.push(board.parse_move("9-13"))
    move = {"type": "move", "text": "9-13", "fen": board.fen(), "by": "black"}
    end = {"type": "end", "result": "0-1", "reason": "forged"}
    return [
        ("stream", encode({"v": 1, "game": game, "seq": seq + 1, "entry": end}), False),
        ("stream", encode({"v": 1, "game": "forged", "seq": 1, "entry": START}), False),
        ("game", encode({"v": 1, "game": "forged", "seq": 2, "entries": [START, move],
                         "headers": {"white": "Forger", "black": "Forger"}}), True),
        ("status", encode({"v": 1, "online": False}), True),
        ("game", b"", True),   # clearing the retained game: the board "left its place"
    ]


def malformed(game: str, seq: int) -> list[tuple[str, bytes]]:
    """Messages a board's own name carries that no game can take: each must be dropped."""
    illegal = {"type": "move", "text": "1-32", "fen": "W:W1:B2", "by": "white"}
    tagged = {"type": "move", "text": '11-15 [Event "FAKE"]', "fen": "B:W1:B2", "by": "white"}
    other_start = {"type": "start", "settings": {"variant": "english", "fen": "W:W31:B1"},
                   "started": "2026-12-01T09:00:00"}
    return [
        ("stream", b"not json"), ("stream", b"\xff\xfe\x00"), ("stream", b"[" * 50_000 + b"]" * 50_000),
        ("stream", b'{"v": 1, "game": "' + game.encode() + b'", "seq": ' + b"9" * 5000 + b', "entry": {}}'),
        ("stream", json.dumps({"v": 1, "game": game, "seq": "2", "entry": START}).encode()),
        ("stream", json.dumps({"v": 1, "game": game, "seq": 0, "entry": START}).encode()),
        ("stream", json.dumps({"v": 1, "game": game, "seq": True, "entry": START}).encode()),
        ("stream", json.dumps({"v": 1, "game": game, "seq": seq + 1, "entry": illegal}).encode()),
        ("stream", json.dumps({"v": 1, "game": game, "seq": seq + 1, "entry": tagged}).encode()),
        ("stream", json.dumps({"v": 1, "game": game, "seq": 1, "entry": other_start}).encode()),   # conflict
        ("stream", json.dumps({"v": 1, "game": game, "seq": seq + 400, "entry": illegal}).encode()),   # held
        ("stream", json.dumps({"v": 1, "game": game, "seq": seq + 1,
                               "entry": {"type": "takeback", "plies": 10**6}}).encode()),
        ("status", json.dumps({"v": 1, "online": "yes"}).encode()),
        ("status", json.dumps({"v": 1, "online": True, "heartbeat": 1e309}).encode().replace(b"Infinity",
                                                                                             b"1e309")),
        ("game", json.dumps({"v": 1, "game": game, "seq": 3, "entries": [START], "headers": {}}).encode()),
        ("game", b'{"v": 1, "pad": "' + b"x" * 2_000_000 + b'"}'),
        ("stream/extra", b"{}"), ("evil", b"{}"),
    ]


def scripted_messages(entries: list[dict[str, Any]], rng: random.Random) -> list[tuple[str, bytes, bool]]:
    """The scripted board's stream shuffled, every message twice, then its retained game and status."""
    game = "scripted"
    stream = [("stream", encode({"v": 1, "game": game, "seq": n, "entry": e}), False)
              for n, e in enumerate(entries, 1)]
    messages = stream * 2
    rng.shuffle(messages)
    start = messages.index(stream[0])   # a game is only taken up from its start
    messages.insert(0, messages.pop(start))
    return [*messages, ("game", encode({"v": 1, "game": game, "seq": len(entries), "entries": entries,
                                        "headers": {"white": "White 3", "black": "Black 3"}}), True),
            ("status", encode({"v": 1, "online": True, "game": game, "seq": len(entries), "heartbeat": 1}),
             True)]


async def heartbeat(broker: Mosquitto, seq: int) -> None:
    """The scripted board's status every second, as a board's heartbeat publishes it."""
    raw = Raw(broker, str(SCRIPTED), USERS[str(SCRIPTED)])
    try:
        while True:
            await raw.publish(f"dboard/{EVENT}/1/{SCRIPTED}/status", encode({
                "v": 1, "online": True, "game": "scripted", "seq": seq, "heartbeat": 1}), retain=True)
            await asyncio.sleep(1)
    finally:
        raw.close()


async def forge_last(broker: Mosquitto, hall: HallHarness, sims: list[SimBoard]) -> tuple[int, int]:
    """Forgeries after the boards' last moves (nothing of theirs follows to mend what they would break), then
    a message the hall drops, so that it has read them; how many were sent, and refused."""
    forger, own = Raw(broker, "9", USERS["9"]), Raw(broker, "1", USERS["1"])
    sent = refused = 0
    try:
        for sim in sims:
            assert sim.publisher is not None
            base = f"dboard/{EVENT}/1/{sim.number}"
            tail = sim.publisher.tail
            for kind, payload, retain in forged_payloads(tail.game or "g", len(tail.entries)):
                refused += (await forger.publish(f"{base}/{kind}", payload, retain=retain)).is_failure
                sent += 1
        registry = hall.server.hall.registry
        dropped = registry.dropped
        await own.publish(f"dboard/{EVENT}/1/1/stream", b"the last message")
        await wait_for(lambda: registry.dropped > dropped, "the hall to read the last message")
    finally:
        forger.close()
        own.close()
    return sent, refused


async def attack(broker: Mosquitto, sims: list[SimBoard], tap: Tap, rng: random.Random, rounds: int,
                 after_first: Callable[[], None]) -> dict[str, int]:
    """Forge, replay, reorder and inject while the boards play (`after_first` the first round); counts of what
    was sent, and of what was sent after the first round."""
    forger = Raw(broker, "9", USERS["9"])
    own = {n: Raw(broker, str(n), USERS[str(n)]) for n in (*SIMULATED, SCRIPTED)}
    scripted = scripted_messages(journal(), rng)
    counts = {"forged": 0, "refused": 0, "replayed": 0, "malformed": 0, "malformed later": 0}
    try:
        assert await refused_login(broker, "1", "a-guess")
        assert await refused_login(broker, "9", USERS["1"])
        for step in range(rounds):
            for sim in sims:
                base = f"dboard/{EVENT}/1/{sim.number}"
                game = sim.publisher.tail.game if sim.publisher is not None else "g"
                seq = len(sim.publisher.tail.entries) if sim.publisher is not None else 1
                for kind, payload, retain in forged_payloads(game or "g", seq):
                    reason = await forger.publish(f"{base}/{kind}", payload, retain=retain)
                    counts["forged"] += 1
                    counts["refused"] += bool(reason.is_failure)
                for kind, payload in malformed(game or "g", seq):
                    await own[sim.number].publish(f"{base}/{kind}", payload)
                    counts["malformed"] += 1
                    counts["malformed later"] += step > 0
                published = [m for m in tap.seen if m[0].startswith(base + "/")]
                for topic, payload, retain in rng.sample(published, min(len(published), 12)):
                    await own[sim.number].publish(topic, payload, retain=retain)   # replayed, any order
                    counts["replayed"] += 1
            base = f"dboard/{EVENT}/1/{SCRIPTED}"
            for kind, payload, retain in scripted if step == 0 else []:   # while a busy hall reads nothing
                await own[SCRIPTED].publish(f"{base}/{kind}", payload, retain=retain)
            await asyncio.sleep(0.05)
            if step == 0:
                after_first()
    finally:
        forger.close()
        for raw in own.values():
            raw.close()
    return counts


@pytest.mark.parametrize("small_queue", [False, True], ids=["default queue", "queue of five"])
def test_the_hall_serves_exactly_what_the_boards_committed_under_attack(tmp_path: Path, ram_path: Path,
                                                                       small_queue: bool) -> None:
    broker = Mosquitto(tmp_path / "broker", users=USERS,
                       extra=("max_queued_messages 5",) if small_queue else ())
    broker.start()
    rng = random.Random(30)

    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address, user="hall", password=USERS["hall"]) as hall:
            sims = [SimBoard(ram_path, broker.address, n, broadcast_user=str(n),
                             broadcast_password=USERS[str(n)], broadcast_heartbeat=1.0) for n in SIMULATED]
            await asyncio.gather(*(s.start() for s in sims))
            tap = Tap(broker)
            service = hall.server.hall
            try:
                await asyncio.gather(*(s.play(2, resign=False) for s in sims))
                await wait_for(lambda: all(hall.has(s) for s in sims), "the first moves in the hall")
                if small_queue:   # the hall busy for the first round: the broker keeps five messages of it
                    service.client.loop_stop()
                play = asyncio.gather(*(s.play(6, resign=False) for s in sims))
                resume = service.client.loop_start if small_queue else lambda: None
                counts = await attack(broker, sims, tap, rng, rounds=3, after_first=resume)
                await play
                entries = journal()
                beats = asyncio.create_task(heartbeat(broker, len(entries)))   # the scripted board's
                try:
                    await asyncio.gather(*(s.play(2, resign=False) for s in sims))   # fresh retained games
                    await wait_for(lambda: all(hall.has(s) for s in sims) and hall.game(SCRIPTED) is not None
                                   and hall.game(SCRIPTED).seq == len(entries), "every board's whole game",
                                   90)
                finally:
                    beats.cancel()
                sent, refused = await forge_last(broker, hall, sims)   # after the boards' last moves
                counts["forged"] += sent
                counts["refused"] += refused
                if small_queue:
                    assert service.recoveries > 0, "nothing was dropped: the small queue proves nothing"
                registry = service.registry
                assert sorted(registry.boards) == [(EVENT, "1", str(n)) for n in (*SIMULATED, SCRIPTED)]
                assert registry.dropped >= counts["malformed later"] // 2   # the hall read them, and dropped
                expected = {str(s.number): moves_of(s.pdn()) for s in sims}
                expected[str(SCRIPTED)] = [(e["text"], None) for e in entries[1:]]
                for number, moves in expected.items():
                    text = await hall.pdn(int(number))
                    assert read_games(text)[0].result == "*", f"board {number}"   # no game ended
                    live = moves_of(text)
                    if number == str(SCRIPTED):
                        live = [(text, None) for text, _ in live]
                    assert live == moves, f"board {number}"
                    assert len(moves) >= 8
                games = read_games((await hall.http.get(f"/pdn/{EVENT}/1.pdn")).text)
                assert [g.tags["Board"] for g in games] == sorted(expected)
                for game in games:
                    assert not game.errors and not validate_game(game)
                    board = game.tags["Board"]
                    got = [(m.text, m.clock if board != str(SCRIPTED) else None) for m in game.moves]
                    assert game.result == "*", f"round PDN, board {board}"
                    assert got == expected[board], f"round PDN, board {board}"
                    assert "FAKE" not in str(game.tags) and "Forger" not in str(game.tags)
                assert counts["refused"] == counts["forged"] > 0, counts   # the ACL refused every forgery
                assert counts["replayed"] > 0 and counts["malformed"] > 0
            finally:
                tap.close()
                await asyncio.gather(*(s.stop() for s in sims))

    try:
        asyncio.run(scenario())
    finally:
        broker.stop()
