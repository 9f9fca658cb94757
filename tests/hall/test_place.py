"""A board given another place in the hall from its page (event, round, board number, players; issue 17):
the hall empties the old place and shows the whole game at the new one, and a board switched off comes back
at the place it was given last."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from boards import EVENT, HallHarness, SimBoard, moves_of, wait_for
from broker import Mosquitto

from controller import commands as cmd
from controller.broadcast.place import PLACE_FILE, BroadcastPlace, load_place
from controller.config import Config
from controller.session import Session
from firmware_bridge.simulated import SimulatedDevice


def test_a_board_moved_from_its_page_is_followed_by_the_hall(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            registry = hall.server.hall.registry
            sim = SimBoard(tmp_path, broker.address, 1)
            await sim.start()
            try:
                await sim.play(4, resign=False)
                await wait_for(lambda: hall.has(sim), "the first moves at round 1, board 1")
                assert registry.boards[(EVENT, "1", "1")].headers["white"] == "White 1"
                assert sim.session is not None
                move = cmd.SetBroadcast(EVENT, "2", "7", "Ann Smit", "Bob de Vries")
                outcome = await sim.session.send(move)
                assert (await outcome).status == "done"
                assert sim.session.view()["broadcast"] == {"event": EVENT, "round": "2", "board": "7",
                                                            "white": "Ann Smit", "black": "Bob de Vries"}
                moved = (EVENT, "2", "7")
                await wait_for(lambda: moved in registry.boards and (EVENT, "1", "1") not in registry.boards,
                               "the board at its new place only")
                await sim.play(2, resign=False)
                feed = registry.boards[moved]
                await wait_for(lambda: feed.game is not None and len(feed.game.entries) == 7,
                               "the start and six moves at the new place")
                assert feed.headers["white"] == "Ann Smit" and feed.headers["black"] == "Bob de Vries"
                assert moves_of(await hall.pdn(7, "2")) == moves_of(sim.pdn())
            finally:
                await sim.stop()
            # switched off and on again: the place set from the page holds, not the config's
            again = SimBoard(tmp_path, broker.address, 1)
            await again.start(time_control=None)
            try:
                assert again.session is not None and again.publisher is not None
                assert again.publisher.settings.topic.base == f"dboard/{EVENT}/2/7"
                await again.play(1, resign=False)
                await wait_for(lambda: len(registry.boards[moved].game.entries) == 8, "the next move at 2/7")
                assert (EVENT, "1", "1") not in registry.boards
            finally:
                await again.stop()
    asyncio.run(scenario())


def test_a_bad_place_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(cmd.CommandError, match="Broadcast: board: '3/4' cannot be a topic level"):
        cmd.Command.from_json({"kind": "set_broadcast", "event": "open", "round": "1", "board": "3/4"})
    with pytest.raises(cmd.CommandError, match="Broadcast: white: at most 80 characters, got 81"):
        cmd.SetBroadcast("open", "1", "2", "x" * 81)
    with pytest.raises(cmd.CommandError, match="Broadcast: the Black's name must be text"):
        cmd.Command.from_json({"kind": "set_broadcast", "event": "open", "round": "1", "board": "2",
                               "black": 5})

    async def not_broadcasting() -> None:
        board = SimulatedDevice(8, 8)
        async with Session(Config(variant="english"), board, board, None) as session:
            assert session.view()["broadcast"] is None
            outcome = await (await session.send(cmd.SetBroadcast("open", "1", "2")))
            assert outcome.status == "refused" and "does not broadcast" in (outcome.reason or "")
    asyncio.run(not_broadcasting())


def test_a_torn_place_file_falls_back_to_the_config(tmp_path: Path) -> None:
    config = Config(broadcast=True, broadcast_event="open", broadcast_round="3", broadcast_board="9")
    assert load_place(tmp_path, config) == BroadcastPlace("open", "3", "9")
    (tmp_path / PLACE_FILE).write_text('{"event": "open", "round": "4", "boa')
    assert load_place(tmp_path, config) == BroadcastPlace("open", "3", "9")
    (tmp_path / PLACE_FILE).write_text('{"event": "open", "round": "4", "board": "1", "white": "", '
                                       '"black": ""}')
    assert load_place(tmp_path, config) == BroadcastPlace("open", "4", "1")
