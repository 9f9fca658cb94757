"""Fifty boards play quick engine-vs-engine games (level 1, both sides, 5+3 clocks) through a real mosquitto:
the hall's live PDN of every board is the board's own record, move for move and clock for clock, and the
archive holds every finished game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from boards import EVENT, HallHarness, SimBoard, moves_of, wait_for
from broker import Mosquitto

from rules.pdn import read_games

BOARDS = 50
PLIES = 12


def test_fifty_boards_reach_the_hall_move_for_move(broker: Mosquitto, tmp_path: Path, ram_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            sims = [SimBoard(ram_path, broker.address, n) for n in range(1, BOARDS + 1)]
            await asyncio.gather(*(s.start() for s in sims))
            try:
                await asyncio.gather(*(s.play(PLIES) for s in sims))
                await wait_for(lambda: all(hall.has(s) for s in sims), "every board's whole game in the hall")
                for sim in sims:
                    mine, theirs = moves_of(sim.pdn()), moves_of(await hall.pdn(sim.number))
                    assert theirs == mine, f"board {sim.number}"
                    assert len(mine) >= 1 and any(clock is not None for _, clock in mine)
                    assert hall.game(sim.number).result == sim.session.controller.outcome
                assert hall.server.hall.registry.dropped == 0
                round_pdn = (await hall.http.get(f"/pdn/{EVENT}/1.pdn")).text
                games = read_games(round_pdn)
                assert [g.tags["Board"] for g in games] == [str(n) for n in range(1, BOARDS + 1)]
                assert all(not g.errors for g in games)
                archive = read_games((await hall.http.get(f"/archive/{EVENT}/1.pdn")).text)
                assert len(archive) == BOARDS and all(g.result != "*" for g in archive)
            finally:
                await asyncio.gather(*(s.stop() for s in sims))
    asyncio.run(scenario())
