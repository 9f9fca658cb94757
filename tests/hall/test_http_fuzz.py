"""The hall's HTTP side under generated hostile requests (issue 30): paths whose event, round and board are
other scripts' digits, superscripts, lone surrogates, NUL, slashes, 5,000 digits or 65+ characters; queries
(``after`` of every shape); headers (tokens, origins, dates, ranges) of hostile bytes; every method. Each is
answered 2xx-4xx with a readable body, never 5xx, and the sound rounds stay served as they were."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from urllib.parse import quote

import httpx
from boards import journal_entries
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.broadcast.wire import encode
from hall.app import create_app
from hall.config import HallConfig
from hall.registry import Registry
from hall.service import Hall
from web.access import WebOptions

NAMES = st.one_of(st.sampled_from(["1", "²", "٣", "१", "\ud800", "a\x00b", "x/y", "%2F", "+", "#", "..", ".",
                                   "9" * 5000, "e" * 65, "Club night", "open", " ", "\u202e", "\x7f"]),
                  st.text(max_size=12))
PATHS = ["/api/round/{e}/{r}", "/api/board/{e}/{r}/{b}", "/api/standings/{e}", "/pdn/{e}/{r}.pdn",
         "/pdn/{e}/{r}/{b}.pdn", "/archive/{e}/{r}.pdn", "/api/{e}", "/api/rounds", "/api/status", "/",
         "/static/{e}", "/{e}"]
AFTER = st.one_of(st.sampled_from(["²", "\u0661", "-1", "1e3", "0x10", "9" * 19, "9" * 5000, "", " 1",
                                   "\ud800"]),
                  st.text(max_size=6).filter(lambda t: not t.isascii() or not t.isdigit()))
HEADER_VALUES = st.one_of(st.binary(max_size=40).map(lambda b: b.replace(b"\r", b"").replace(b"\n", b"")),
                          st.sampled_from([b"\xed\xa0\x80", b"x" * 5000, b"http://evil.example", b"null"]))
HEADERS = st.dictionaries(st.sampled_from(["X-Hall-Token", "Origin", "If-Modified-Since", "Range",
                                           "Accept-Encoding", "Host", "Content-Type", "Cookie"]),
                          HEADER_VALUES, max_size=4)


def segment(text: str) -> str:
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def sound_game(registry: Registry, event: str, round_: str, board: str) -> None:
    """One board's game of two moves, as a board publishes it."""
    entries = journal_entries()
    topic = f"dboard/{event}/{round_}/{board}"
    registry.receive(f"{topic}/game", encode({"v": 1, "game": "g", "seq": len(entries), "entries": entries,
                                             "headers": {"white": "W", "black": "B"}}))


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(requests=st.lists(st.tuples(st.sampled_from(PATHS), NAMES, NAMES, NAMES, st.one_of(st.none(), AFTER),
                                   HEADERS, st.sampled_from(["GET", "POST", "HEAD", "PUT"])),
                         min_size=1, max_size=6))
def test_no_request_gets_a_server_error(tmp_path: Path, requests: list[tuple]) -> None:
    async def scenario() -> None:
        hall = Hall(HallConfig(data_dir=str(tmp_path)))
        sound_game(hall.registry, "open", "1", "1")
        app = create_app(hall, WebOptions())
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://hall.test") as http:
            before = (await http.get("/api/round/open/1")).json()
            for template, e, r, b, after, headers, method in requests:
                url = template.format(e=segment(e), r=segment(r), b=segment(b))
                if after is not None:
                    url += "?after=" + segment(after)
                answer = await asyncio.wait_for(http.request(method, url, headers=headers), 10)
                assert answer.status_code < 500, (method, url, headers, answer.status_code, answer.text)
                if method != "HEAD" and answer.headers.get("content-type", "").startswith("application/json"):
                    json.loads(answer.content)
            after_all = (await http.get("/api/round/open/1")).json()
            assert [b["board"] for b in after_all["boards"]] == [b["board"] for b in before["boards"]]
            assert [b["board"] for b in before["boards"]] == ["1"]

    asyncio.run(scenario())
