"""The hall's HTTP side: the page of every board, live PDN for broadcast pollers (ETag and If-Modified-Since
answered with 304), the archive, the standings and the arbiter's controls (token-checked beyond localhost)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import time
from collections.abc import Awaitable, Callable
from email.utils import formatdate, parsedate_to_datetime

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from controller.broadcast.wire import check_level
from i18n import page_catalogue, requested
from web.access import AccessDenied, WebOptions, same_origin
from web.serve import attachment, static_dir

from .book import BookError
from .pdn import board_pdn
from .registry import BoardFeed
from .service import Hall
from .standings import standings
from .views import board_detail, board_summary

MAX_BODY = 256 * 1024
LONG_POLL_SECONDS = 20.0
VERSION = re.compile(r"[0-9]{1,18}", re.ASCII)
"""A round's version in a long poll's ``after``: ASCII digits (``int()`` reads ``²`` and 5,000 digits)."""
NAMED = ("event", "round", "board")
"""The path parameters that are topic levels: checked as the boards' topics are, before any handler runs."""


Handler = Callable[[Request], Awaitable[Response]]


def checked_names(handler: Handler) -> Handler:
    """``handler`` behind the topic-level check of its event, round and board: a name no board can publish
    under is a 404 naming what is wrong, never an error deep in a handler."""
    async def guarded(request: Request) -> Response:
        try:
            for name in NAMED:
                if name in request.path_params:
                    check_level(name, request.path_params[name])
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        return await handler(request)
    guarded.__doc__ = handler.__doc__
    return guarded


def conditional(request: Request, body: str, changed_at: float, media_type: str) -> Response:
    """``body`` with a strong ETag and (once its second is over) Last-Modified; 304 when the poller has it.

    Last-Modified has whole seconds, so it is sent only after the second of the last change has passed: a
    change later in that second would otherwise look unmodified to a poller that saw the earlier one."""
    etag = '"' + hashlib.sha1(body.encode()).hexdigest()[:20] + '"'
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    changed = math.floor(changed_at)
    if time.time() >= changed + 1:
        headers["Last-Modified"] = formatdate(changed, usegmt=True)
    match = request.headers.get("if-none-match")
    since = request.headers.get("if-modified-since")
    if match is not None:
        if etag in {m.strip().removeprefix("W/") for m in match.split(",")} or match.strip() == "*":
            return Response(status_code=304, headers=headers)
    elif since is not None:
        try:
            if changed <= parsedate_to_datetime(since).timestamp():
                return Response(status_code=304, headers=headers)
        except (TypeError, ValueError):
            pass
    return Response(body, media_type=media_type, headers=headers)


def create_app(hall: Hall, options: WebOptions) -> Starlette:
    """The Starlette app of ``hall``; control actions need ``options``' token when it is required."""
    registry = hall.registry
    static = static_dir("hall")

    def board_of(request: Request) -> BoardFeed | None:
        p = request.path_params
        return registry.boards.get((p["event"], p["round"], p["board"]))

    made: dict[tuple[str, str, str], tuple[tuple[int, int], str]] = {}

    def pdn_of(feed: BoardFeed, cache: bool = True) -> str:
        """The board's PDN, made again only when the board or the arbiter's book changed."""
        book = hall.book(feed.topic.event)
        t = feed.topic
        stamp = (feed.version, book.revision)
        known = made.get(feed.key) if cache else None
        if known is not None and known[0] == stamp:
            return known[1]
        text = board_pdn(feed, book.pairing(t.round, t.board), book.correction(t.round, t.board),
                         hall.config.site)
        if cache:
            made[feed.key] = (stamp, text)
        return text

    async def index(request: Request) -> Response:
        return FileResponse(f"{static}/index.html", headers={"Cache-Control": "no-store"})

    async def catalogue(request: Request) -> Response:
        """The page's words in the spectator's language (``?lang=``, else the browser's Accept-Language)."""
        language = requested(request.query_params.get("lang"), request.headers.get("accept-language"))
        return JSONResponse(page_catalogue(language), headers={"Cache-Control": "no-cache",
                                                              "Vary": "Accept-Language"})

    async def words_script(request: Request) -> Response:
        """The board page's script that reads the catalogue: one translation path for both pages."""
        return FileResponse(f"{static_dir('web')}/i18n.js", media_type="text/javascript")

    async def api_rounds(request: Request) -> Response:
        return JSONResponse({"rounds": [{"event": e, "round": r, "boards": len(registry.round(e, r))}
                                        for e, r in registry.rounds()],
                             "connected": hall.connected.is_set(), "refused": hall.refused,
                             "token_required": options.token_required})

    async def api_round(request: Request) -> Response:
        event, round_ = request.path_params["event"], request.path_params["round"]
        key = (event, round_)
        after = request.query_params.get("after")
        if after is not None:
            if not VERSION.fullmatch(after):
                return JSONResponse({"error": "after must be a version number (up to 18 digits)"},
                                    status_code=400)
            await registry.wait_change(key, int(after), LONG_POLL_SECONDS)
        book = hall.book(event)
        now = registry.now()
        return JSONResponse({"event": event, "round": round_, "version": registry.versions.get(key, 0),
                             "boards": [board_summary(f, book, now) for f in registry.round(event, round_)],
                             "pairings": [vars(p) for p in book.pairings.get(round_, {}).values()],
                             "system": book.system})

    async def api_board(request: Request) -> Response:
        feed = board_of(request)
        if feed is None:
            return JSONResponse({"error": "no such board"}, status_code=404)
        return JSONResponse(board_detail(feed, hall.book(feed.topic.event), registry.now()))

    async def api_standings(request: Request) -> Response:
        event = request.path_params["event"]
        book = hall.book(event)
        table = standings(book, hall.results(event))
        return JSONResponse({"event": event, "system": book.system, "win": book.win, "draw": book.draw,
                             "standings": [{"rank": s.rank, "name": s.name, "points": s.points,
                                            "games": s.games, "wins": s.wins, "draws": s.draws,
                                            "losses": s.losses, "tiebreak": s.tiebreak} for s in table]})

    async def api_status(request: Request) -> Response:
        return JSONResponse({"connected": hall.connected.is_set(), "refused": hall.refused,
                             "applied": registry.applied, "duplicates": registry.duplicates,
                             "dropped": registry.dropped, "boards": len(registry.boards),
                             "recoveries": hall.recoveries})

    async def round_pdn(request: Request) -> Response:
        event, round_ = request.path_params["event"], request.path_params["round"]
        texts = []
        for number, feed in enumerate(registry.round(event, round_)):
            texts.append(pdn_of(feed))
            if number % 8 == 7:
                await asyncio.sleep(0)   # a big round is made a few games at a time: moves keep arriving
        body = "\n".join(texts)
        changed = registry.changed_at.get((event, round_), 0.0)
        return conditional(request, body, changed, "application/x-chess-pdn")

    async def one_pdn(request: Request) -> Response:
        feed = board_of(request)
        if feed is None:
            return Response("no such board\n", status_code=404, media_type="text/plain")
        return conditional(request, pdn_of(feed), registry.board_changed_at.get(feed.key, 0.0),
                           "application/x-chess-pdn")

    async def archive_pdn(request: Request) -> Response:
        event, round_ = request.path_params["event"], request.path_params["round"]
        try:
            feeds = hall.archived(event, round_)
        except ValueError as exc:
            return Response(f"{exc}\n", status_code=400, media_type="text/plain")
        body = "\n".join(pdn_of(f, cache=False) for f in feeds)
        return Response(body, media_type="application/x-chess-pdn",
                        headers={"Content-Disposition": attachment(f"{event}-round-{round_}.pdn")})

    async def control(request: Request) -> Response:
        """POST /api/{action}: result, pairings or system, as JSON with the event (and round)."""
        if not same_origin(request.headers):
            return JSONResponse({"error": "cross-site request refused"}, status_code=403)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": f"request larger than {MAX_BODY} bytes"}, status_code=413)
        try:
            data = json.loads(body)
            if not isinstance(data, dict):
                raise ValueError
        except (ValueError, RecursionError):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
        try:
            options.check_control(data.get("token", request.headers.get("x-hall-token")))
        except AccessDenied as exc:
            return JSONResponse({"error": str(exc)}, status_code=403)
        action = request.path_params["action"]
        try:
            event = data.get("event")
            book = hall.book(event if isinstance(event, str) else "")
            if action == "result":
                book.correct(data.get("round"), data.get("board"), data.get("result"), data.get("note", ""))
            elif action == "pairings":
                book.set_pairings(data.get("round"), data.get("pairings"))
            elif action == "system":
                book.set_system(data.get("system"), data.get("win", 2), data.get("draw", 1))
            else:
                return JSONResponse({"error": f"unknown action {action!r}"}, status_code=404)
            book.save()
        except ValueError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except OSError as exc:
            return JSONResponse({"error": f"cannot save: {exc}"}, status_code=500)
        if isinstance(data.get("round"), str):
            registry.touch_round(data["event"], data["round"])
        return JSONResponse({"ok": True})

    routes = [
        Route("/", index),
        Route("/i18n.json", catalogue),
        Route("/i18n.js", words_script),
        Route("/api/rounds", api_rounds),
        Route("/api/status", api_status),
        Route("/api/round/{event}/{round}", checked_names(api_round)),
        Route("/api/board/{event}/{round}/{board}", checked_names(api_board)),
        Route("/api/standings/{event}", checked_names(api_standings)),
        Route("/api/{action}", control, methods=["POST"]),
        Route("/pdn/{event}/{round}.pdn", checked_names(round_pdn)),
        Route("/pdn/{event}/{round}/{board}.pdn", checked_names(one_pdn)),
        Route("/archive/{event}/{round}.pdn", checked_names(archive_pdn)),
        Mount("/static", app=StaticFiles(directory=static), name="static"),
    ]
    app = Starlette(routes=routes)
    app.router.redirect_slashes = False   # a redirect is built from the Host header, which a client may leave
    #                                       empty (an unreadable Location); a path with a stray "/" is a 404
    app.state.hall = hall
    return app


__all__ = ["BookError", "conditional", "create_app"]
