"""The web front end: a live board, controls, a virtual board and the game library, served over HTTP and a
websocket from the same asyncio loop as the controller.

Entry points: :func:`web.app.create_app` (a Starlette app for one Session), :class:`web.server.WebServer`,
:func:`web.server.start_server` (start in the background, print "Open URL") and :func:`web.server.serve`
(serve until cancelled), all running uvicorn on the configured address inside the caller's loop.
"""
