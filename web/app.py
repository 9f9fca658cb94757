"""The ASGI app: the page, a websocket that mirrors the controller's events and takes commands, and a small
JSON/PDN API for control (POST) and the game library. Every control action is validated and token-checked."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from importlib.resources import files
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from .access import AccessDenied, WebOptions, same_origin
from .library import GameLibrary, LibraryError, replay
from .messages import ClientError, Dispatcher, event_message

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024


def static_dir() -> str:
    """The directory of the page's HTML, JS and CSS (package data of ``web``)."""
    return str(files("web") / "static")


def create_app(session: Any, config: Any = None, *, options: WebOptions | None = None) -> Starlette:
    """A Starlette app serving one controller Session: page, websocket ``/ws``, ``/api/...``.

    ``config`` is the controller's Config (listen, port, token, public_view, data_dir are read from it);
    ``options`` overrides it whole. The app keeps its options in ``app.state.options``.
    """
    options = options or WebOptions.from_config(config)
    library = GameLibrary(options.data_dir)
    dispatcher = Dispatcher(session, options)

    def view_allowed(request: Request | WebSocket) -> bool:
        return not options.view_needs_token or options.token_ok(request.query_params.get("token"))

    async def index(request: Request) -> Response:
        if not view_allowed(request):
            return PlainTextResponse("this board needs the access token: open the URL printed at start\n",
                                     status_code=403)
        return FileResponse(f"{static_dir()}/index.html", headers={"Cache-Control": "no-store"})

    async def api_state(request: Request) -> Response:
        if not view_allowed(request):
            return JSONResponse({"error": "access token required"}, status_code=403)
        return JSONResponse(dispatcher.hello() | {"state": session.state()})

    async def api_command(request: Request) -> Response:
        if not same_origin(request.headers):
            return JSONResponse({"error": "cross-site request refused"}, status_code=403)
        body = await request.body()
        if len(body) > MAX_BODY:
            return JSONResponse({"error": f"request larger than {MAX_BODY} bytes"}, status_code=413)
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
        if isinstance(message, dict) and "token" not in message:
            header = request.headers.get("x-dboard-token")
            if header is not None:
                message["token"] = header
        try:
            reply = await dispatcher.handle(message)
        except AccessDenied as exc:
            return JSONResponse({"error": str(exc)}, status_code=403)
        except ClientError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(reply)

    async def api_games(request: Request) -> Response:
        if not view_allowed(request):
            return JSONResponse({"error": "access token required"}, status_code=403)
        games = await asyncio.to_thread(library.games)
        return JSONResponse({"games": [g.summary() for g in games]})

    async def api_game(request: Request) -> Response:
        if not view_allowed(request):
            return JSONResponse({"error": "access token required"}, status_code=403)
        try:
            record = await asyncio.to_thread(library.get, request.path_params["game_id"])
        except LibraryError as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        try:
            return JSONResponse(await asyncio.to_thread(replay, record))
        except Exception as exc:  # a damaged file must not take the server down
            log.warning("cannot replay %r: %s", record, exc)
            return JSONResponse({"error": f"cannot replay {record.game_id}: {exc}",
                                 "summary": record.summary()}, status_code=422)

    async def api_game_pdn(request: Request) -> Response:
        if not view_allowed(request):
            return PlainTextResponse("access token required\n", status_code=403)
        try:
            record = await asyncio.to_thread(library.get, request.path_params["game_id"])
        except LibraryError as exc:
            return PlainTextResponse(f"{exc}\n", status_code=404)
        name = record.game_id.replace("~", "-").removesuffix(".pdn")
        return PlainTextResponse(record.pdn + "\n", media_type="application/x-pdn",
                                 headers={"Content-Disposition": f'attachment; filename="{name}.pdn"'})

    async def api_all_pdn(request: Request) -> Response:
        if not view_allowed(request):
            return PlainTextResponse("access token required\n", status_code=403)
        text = await asyncio.to_thread(library.all_pdn)
        return PlainTextResponse(text, media_type="application/x-pdn",
                                 headers={"Content-Disposition": 'attachment; filename="games.pdn"'})

    async def api_current_pdn(request: Request) -> Response:
        """The game in progress as PDN (the page's Copy PDN)."""
        if not view_allowed(request):
            return PlainTextResponse("access token required\n", status_code=403)
        return PlainTextResponse(session.pdn() + "\n", media_type="application/x-pdn")

    async def websocket(ws: WebSocket) -> None:
        if not same_origin(ws.headers) or not view_allowed(ws):
            await ws.close(code=4403)
            return
        await ws.accept()
        queue = session.subscribe()
        sender: asyncio.Task[None] | None = None
        try:
            await ws.send_json(dispatcher.hello() | {"state": session.state()})
            sender = asyncio.create_task(_forward(ws, queue), name="web-forward")
            while True:
                raw = await ws.receive_text()
                await ws.send_json(await dispatcher.handle_raw(raw))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if sender is not None:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender
            session.unsubscribe(queue)

    async def favicon(request: Request) -> Response:
        return FileResponse(f"{static_dir()}/favicon.svg", media_type="image/svg+xml")

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/api/state", api_state),
        Route("/api/command", api_command, methods=["POST"]),
        Route("/api/current.pdn", api_current_pdn),
        Route("/api/games", api_games),
        Route("/api/games.pdn", api_all_pdn),
        Route("/api/games/{game_id:str}.pdn", api_game_pdn),
        Route("/api/games/{game_id:str}", api_game),
        WebSocketRoute("/ws", websocket),
        Mount("/static", app=StaticFiles(directory=static_dir()), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.options = options
    app.state.session = session
    return app


async def _forward(ws: WebSocket, queue: asyncio.Queue[Any]) -> None:
    """Send every controller event to one browser as soon as it arrives (the Session sends a StateChanged
    after every visible change, so the page needs nothing else)."""
    while True:
        event = await queue.get()
        try:
            message = event_message(event)
        except Exception:
            log.exception("cannot serialise event %r", event)
            continue
        await ws.send_json(message)
