"""The hall recovers what a broker dropped (issue 30 item 6): with a queue of five messages and a hall that
reads nothing during a burst of many boards, the broker drops most of the burst; the boards' heartbeats show
the hall it is behind, it asks the broker again for each board's retained game, and every board's live PDN
then has every move the board committed, in order."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from boards import EVENT, HallHarness, wait_for
from broker import Mosquitto
from test_security import Raw

from controller.broadcast.wire import encode
from rules import Board
from rules.pdn import read_games

BOARDS = 12
PLIES = ("11-15", "23-19", "8-11", "22-17", "9-13", "17-14", "10x17", "21x14")
START = {"type": "start", "settings": {"variant": "english", "fen": None}, "started": "2026-12-01T10:00:00"}


def journal() -> list[dict[str, Any]]:
    """A board's journal: its start and every ply."""
    board, entries = Board("english"), [START]
    for text in PLIES:
        by = "white" if board.turn.name == "WHITE" else "black"
        board.push(board.parse_move(text))
        entries.append({"type": "move", "text": text, "fen": board.fen(), "by": by})
    return entries


async def heartbeat(raw: Raw, seq: int) -> None:
    """Every board's status, again and again, as its heartbeat publishes it (here every two seconds)."""
    while True:
        for number in range(1, BOARDS + 1):
            await raw.publish(f"dboard/{EVENT}/1/{number}/status", encode({
                "v": 1, "online": True, "game": f"g{number}", "seq": seq, "heartbeat": 2}), retain=True)
        await asyncio.sleep(2)


def test_a_burst_the_broker_dropped_is_recovered_from_the_retained_games(tmp_path: Path) -> None:
    broker = Mosquitto(tmp_path / "broker", extra=("max_queued_messages 5",))
    broker.start()

    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            raw = Raw(broker)
            service = hall.server.hall
            entries = journal()
            try:
                service.client.loop_stop()   # the hall busy: nothing read, nothing acknowledged
                for seq in range(1, len(entries) + 1):
                    for number in range(1, BOARDS + 1):
                        base = f"dboard/{EVENT}/1/{number}"
                        game = f"g{number}"
                        await raw.publish(f"{base}/stream", encode({"v": 1, "game": game, "seq": seq,
                                                                    "entry": entries[seq - 1]}))
                        await raw.publish(f"{base}/game", encode({
                            "v": 1, "game": game, "seq": seq, "entries": entries[:seq],
                            "headers": {"white": "W", "black": "B"}}), retain=True)
                service.client.loop_start()
                heartbeats = asyncio.create_task(heartbeat(raw, len(entries)))
                registry = service.registry
                try:
                    await wait_for(lambda: all(hall.game(n) is not None and hall.game(n).seq == len(entries)
                                               for n in range(1, BOARDS + 1)), "every board's whole game", 60)
                finally:
                    heartbeats.cancel()
                assert service.recoveries > 0, "the broker dropped nothing: the test proves nothing"
                for number in range(1, BOARDS + 1):
                    (game,) = read_games(await hall.pdn(number))
                    assert [m.text for m in game.moves] == list(PLIES)
                assert all(f.behind_since is None for f in registry.boards.values())
            finally:
                raw.close()
    try:
        asyncio.run(scenario())
    finally:
        broker.stop()
