"""The ASGI app: the page, a websocket that mirrors the controller's events and takes commands, and a small
JSON/PDN API for control (POST) and the game library.

In front of every route: the Host must be this machine's (DNS rebinding), bodies are bounded before they are
read, and the security headers go out with every response. Control needs the same origin and, when one is
required, the token - checked before a byte of the body is read. See README "Security".
"""

from __future__ import annotations

import asyncio
import json
import logging

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from controller import states
from controller.config import Config
from controller.rating_history import RATINGS_FILE
from i18n import page_catalogue, requested, translated_as, translator
from rules import InvalidSquareError

from .access import AccessDenied, WebOptions, WrongTokens, same_origin
from .client import WebSocketClient
from .fanout import AddressRates, Fanout
from .guards import CLOSE, BodyError, BodyLimit, HostGuard, SecurityHeaders, read_body, refusal
from .library import GameLibrary, LibraryError, replay
from .limits import ThrottledLog, WebLimits
from .messages import ClientError, Dispatcher, redact
from .rules_page import rules_page
from .seam import BoardSession
from .serve import attachment, static_dir
from .speech import SpeechError, WavVoice
from .stats import StatsError, library_stats, page_json

log = logging.getLogger(__name__)

STATUS = {"done": 200, "refused": 409, "failed": 500}
"""The HTTP status of a command's reply by its outcome."""


def states_script() -> str:
    """``/states.js``: the controller's state names (``controller.states.NAMES``) as the ES module the page's
    scripts import, so the page compares with the names the controller uses and never spells one itself."""
    table = json.dumps(states.NAMES, indent=2)
    separator = json.dumps(states.TurnState.separator)
    return ("// The controller's state names, made by web/app.py from controller/states.py (NAMES): compare\n"
            "// with these, never with a name spelt out.\n"
            f"export const STATES = Object.freeze({table});\n\n"
            "/** The turn part of a state name (\"person\" of \"person.lifted\"): controller.states.top. */\n"
            f"export const top = (state) => String(state || \"\").split({separator})[0];\n")


def websocket_room(limits: WebLimits) -> int | None:
    """How many websocket clients may be connected: the connection cap less room for plain requests."""
    cap = limits.max_connections
    return None if cap is None else max(1, cap - max(8, cap // 16))


def create_app(session: BoardSession, config: Config | None = None, *, options: WebOptions | None = None,
               limits: WebLimits | None = None) -> Starlette:
    """A Starlette app serving one controller Session: page, websocket ``/ws``, ``/api/...``.

    ``config`` is the controller's Config (listen, port, token, public_view, data_dir, allowed_hosts are read
    from it); ``options`` overrides it whole. The app keeps its options, fan-out and library in ``app.state``.
    """
    options = options or WebOptions.from_config(config)
    limits = limits or WebLimits()
    library = GameLibrary(options.data_dir)
    dispatcher = Dispatcher(session, options, limits.command_timeout)
    fanout = Fanout(session, limits.outbox_events)
    tokens = WrongTokens(limits.wrong_tokens)
    rates = AddressRates(limits.command_rate, limits.command_burst)   # HTTP commands, per client address
    throttled = ThrottledLog(log)
    max_clients = websocket_room(limits)
    static = static_dir("web")
    states_js = states_script()
    voice = WavVoice()

    def view_refused(request: Request | WebSocket) -> str | None:
        """Why ``request`` may not watch (None: it may); a wrong token is counted against its connection."""
        if not options.view_needs_token:
            return None
        given = request.query_params.get("token")
        if options.token_ok(given):
            return None
        if given and tokens.wrong(request.client):
            return "close"
        return "refused"

    def forbidden(why: str, body: str, *, as_json: bool = True) -> Response:
        headers = CLOSE if why == "close" else None
        if as_json:
            return JSONResponse({"error": body}, status_code=403, headers=headers)
        return PlainTextResponse(body + "\n", status_code=403, headers=headers)

    async def index(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "this board needs the access token: open the URL printed at start",
                             as_json=False)
        return FileResponse(f"{static}/index.html", headers={"Cache-Control": "no-store"})

    async def api_state(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "access token required")
        return JSONResponse(dispatcher.hello() | {"state": session.view()})

    async def api_command(request: Request) -> Response:
        if not same_origin(request.headers):
            return JSONResponse({"error": "cross-site request refused"}, status_code=403)
        given = request.headers.get("x-dboard-token")
        if not options.token_ok(given):   # before a byte of the body is read
            why = "close" if given and tokens.wrong(request.client) else "refused"
            message = "wrong access token" if given else "this action needs the token (header X-Dboard-Token)"
            return forbidden(why, message)
        if wait := rates.wait_for(request.client.host if request.client else "unknown"):
            return JSONResponse({"error": f"too many commands: {limits.command_rate:g} a second at most"},
                                status_code=429, headers={"Retry-After": str(max(1, round(wait)))})
        try:
            body = await read_body(request, limits.max_body, limits.body_timeout)
        except BodyError as exc:
            return refusal(exc)
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return JSONResponse({"error": "the body must be a JSON object"}, status_code=400)
        if isinstance(message, dict) and given is not None:
            message["token"] = given
        try:
            reply = await dispatcher.handle(message)
        except AccessDenied as exc:
            return JSONResponse({"error": str(exc)}, status_code=403)
        except ClientError as exc:
            return JSONResponse({"error": redact(str(exc))}, status_code=400)
        return JSONResponse(reply, status_code=STATUS.get(reply.get("outcome", "done"), 200))

    async def api_games(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "access token required")
        return Response(await asyncio.to_thread(library.listing_json), media_type="application/json")

    async def api_game(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "access token required")
        try:
            record = await asyncio.to_thread(library.get, request.path_params["game_id"])
        except LibraryError as exc:
            return JSONResponse({"error": redact(str(exc))}, status_code=404)
        try:
            return JSONResponse(await asyncio.to_thread(replay, record))
        except Exception as exc:  # a damaged file must not take the server down
            log.warning("cannot replay %r: %s", record, exc)
            return JSONResponse({"error": redact(f"cannot replay {record.game_id}: {exc}"),
                                 "summary": record.summary()}, status_code=422)

    async def api_game_pdn(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "access token required", as_json=False)
        try:
            record = await asyncio.to_thread(library.get, request.path_params["game_id"])
        except LibraryError as exc:
            return PlainTextResponse(redact(f"{exc}\n"), status_code=404)
        return PlainTextResponse(record.pdn + "\n", media_type="application/x-pdn", headers={
            "Content-Disposition": attachment(record.download_name)})

    async def api_all_pdn(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "access token required", as_json=False)
        text = await asyncio.to_thread(library.all_pdn)
        return PlainTextResponse(text, media_type="application/x-pdn",
                                 headers={"Content-Disposition": 'attachment; filename="games.pdn"'})

    async def api_current_pdn(request: Request) -> Response:
        """The game in progress as PDN (the page's Copy PDN)."""
        if why := view_refused(request):
            return forbidden(why, "access token required", as_json=False)
        return PlainTextResponse(session.pdn() + "\n", media_type="application/x-pdn")

    async def api_position(request: Request) -> Response:
        """``/api/position?lang=...``: the position in words, for the page's "Read the position";
        ``&square=32``: what is on that square and where it may go (a square typed on the page)."""
        if why := view_refused(request):
            return forbidden(why, "access token required", as_json=False)
        try:
            words = session.position(request.query_params.get("square"))
        except InvalidSquareError as exc:
            words, status = translated_as(str(exc), "{text}: not a square of this board",
                                          text=request.query_params["square"]), 400
        else:
            status = 200
        return PlainTextResponse(translator(page_language(request)).render(words), status_code=status)

    async def api_speech(request: Request) -> Response:
        """``/api/speech.wav?text=...&lang=...``: what the page asks the board to say, as a WAV it plays."""
        if why := view_refused(request):
            return forbidden(why, "access token required", as_json=False)
        try:
            wav = await voice.wav(request.query_params.get("text", ""), page_language(request))
        except SpeechError as exc:
            return PlainTextResponse(f"{exc}\n", status_code=400)
        return Response(wav, media_type="audio/wav", headers={"Cache-Control": "no-store"})

    async def api_rules(request: Request) -> Response:
        """A variant's rules page as HTML with its section anchors and start position (the Rules tab)."""
        if why := view_refused(request):
            return forbidden(why, "access token required")
        try:
            language = page_language(request)
            return JSONResponse(await asyncio.to_thread(rules_page, request.path_params["variant"], language))
        except ValueError as exc:
            return JSONResponse({"error": redact(str(exc))}, status_code=404)

    async def api_stats(request: Request) -> Response:
        """The game library's statistics (the Statistics tab)."""
        if why := view_refused(request):
            return forbidden(why, "access token required")
        ratings = session.ratings_path or options.data_dir / RATINGS_FILE
        return JSONResponse(await asyncio.to_thread(page_json, library, ratings))

    async def api_stats_csv(request: Request) -> Response:
        if why := view_refused(request):
            return forbidden(why, "access token required", as_json=False)
        table = request.path_params["table"]
        try:
            text = (await asyncio.to_thread(library_stats, library)).csv(table)
        except StatsError as exc:
            return PlainTextResponse(f"{exc}\n", status_code=404)
        return PlainTextResponse(text, media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="dboard-{table}.csv"'})

    async def websocket(ws: WebSocket) -> None:
        if not same_origin(ws.headers):
            await ws.close(code=4403)
            return
        if view_refused(ws):
            await ws.close(code=4403)
            return
        if max_clients is not None and len(fanout.outboxes) >= max_clients:
            await ws.send_denial_response(PlainTextResponse("too many clients: try again later\n",
                                                            status_code=503))
            return
        await ws.accept()
        client = WebSocketClient(ws, fanout, dispatcher, tokens, limits, throttled)
        await client.serve(dispatcher.hello() | {"state": session.view()}, page_language(ws))

    def page_language(request: Request | WebSocket) -> str:
        """The language a request asks for: ``?lang=`` when it is one of ours, else its Accept-Language,
        else the board's."""
        return requested(request.query_params.get("lang"), request.headers.get("accept-language"),
                         options.language)

    async def catalogue(request: Request) -> Response:
        """``/i18n.json``: the page's words in the language asked for (``?lang=``, else Accept-Language,
        else the board's): one source of every string, the gettext catalogue the terminal reads too."""
        return JSONResponse(page_catalogue(page_language(request)),
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    async def states_module(request: Request) -> Response:
        return Response(states_js, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    async def favicon(request: Request) -> Response:
        return FileResponse(f"{static}/favicon.svg", media_type="image/svg+xml")

    routes = [
        Route("/", index),
        Route("/favicon.ico", favicon),
        Route("/states.js", states_module),
        Route("/i18n.json", catalogue),
        Route("/api/state", api_state),
        Route("/api/command", api_command, methods=["POST"]),
        Route("/api/current.pdn", api_current_pdn),
        Route("/api/games", api_games),
        Route("/api/games.pdn", api_all_pdn),
        Route("/api/games/{game_id:str}.pdn", api_game_pdn),
        Route("/api/games/{game_id:str}", api_game),
        Route("/api/rules/{variant:str}", api_rules),
        Route("/api/stats", api_stats),
        Route("/api/speech.wav", api_speech),
        Route("/api/position", api_position),
        Route("/api/stats/{table:str}.csv", api_stats_csv),
        WebSocketRoute("/ws", websocket),
        Mount("/static", app=StaticFiles(directory=static), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders), Middleware(HostGuard, names=options.host_names()),
                  Middleware(BodyLimit, max_body=limits.max_body)]
    app = Starlette(routes=routes, middleware=middleware)
    app.state.options = options
    app.state.session = session
    app.state.fanout = fanout
    app.state.library = library
    app.state.limits = limits
    return app
