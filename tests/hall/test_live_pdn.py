"""The live PDN fetched as a broadcast poller (lidraughts) fetches it: repeated GETs with If-None-Match or
If-Modified-Since, 304 while nothing changed, the new move as soon as it is made, read by rules.pdn."""

from __future__ import annotations

import asyncio
from email.utils import parsedate_to_datetime
from pathlib import Path

import httpx
from boards import EVENT, HallHarness, SimBoard, wait_for
from broker import Mosquitto

from rules.pdn import read_games, validate_game


async def poll_until_changed(http: httpx.AsyncClient, url: str, headers: dict[str, str]) -> httpx.Response:
    """GET ``url`` with the validators again and again (as a poller does) until it is not 304."""
    for _ in range(2000):
        reply = await http.get(url, headers=headers)
        if reply.status_code != 304:
            return reply
        await asyncio.sleep(0.01)
    raise AssertionError(f"{url} never changed")


def test_a_poller_reads_the_live_pdn(broker: Mosquitto, tmp_path: Path) -> None:
    async def scenario() -> None:
        async with HallHarness(tmp_path, broker.address) as hall:
            sims = [SimBoard(tmp_path, broker.address, n) for n in (1, 2)]
            await asyncio.gather(*(s.start() for s in sims))
            http = hall.http
            assert http is not None
            try:
                await asyncio.gather(*(s.play(3, resign=False) for s in sims))
                await wait_for(lambda: all(hall.has(s) for s in sims), "both boards in the hall")
                for url in (f"/pdn/{EVENT}/1.pdn", f"/pdn/{EVENT}/1/1.pdn"):
                    first = await http.get(url)
                    assert first.status_code == 200 and first.headers["content-type"].startswith(
                        "application/x-chess-pdn")
                    etag = first.headers["etag"]
                    assert (await http.get(url, headers={"If-None-Match": etag})).status_code == 304
                    for game in read_games(first.text):
                        assert not game.errors and not validate_game(game)
                        assert game.tags["Event"] == EVENT and game.tags["Round"] == "1"
                        assert all(m.clock is not None for m in game.moves)   # [%clock] after every move
                    text = await sims[0].move()
                    changed = await poll_until_changed(http, url, {"If-None-Match": etag})
                    assert changed.status_code == 200 and changed.headers["etag"] != etag
                    board_one = next(g for g in read_games(changed.text) if g.tags["Board"] == "1")
                    assert board_one.moves[-1].text == text and not validate_game(board_one)
                # If-Modified-Since: Last-Modified comes once the second of the last change is over
                url = f"/pdn/{EVENT}/1/2.pdn"
                reply = None
                for _ in range(2000):
                    reply = await http.get(url)
                    if "last-modified" in reply.headers:
                        break
                    await asyncio.sleep(0.01)
                assert reply is not None and "last-modified" in reply.headers
                since = reply.headers["last-modified"]
                assert parsedate_to_datetime(since).year >= 2024
                assert (await http.get(url, headers={"If-Modified-Since": since})).status_code == 304
                text = await sims[1].move()
                changed = await poll_until_changed(http, url, {"If-Modified-Since": since})
                assert read_games(changed.text)[0].moves[-1].text == text
            finally:
                await asyncio.gather(*(s.stop() for s in sims))
    asyncio.run(scenario())
