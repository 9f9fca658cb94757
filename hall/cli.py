"""``dboard hall``: subscribe to the hall's broker and serve every board's game (pages, live PDN, archive,
standings, the arbiter's view) until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal

from controller.extras import HALL, require

from . import config as config_module


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard hall`` subcommand."""
    parser = sub.add_parser("hall", help="show every board of a tournament hall, live, from an MQTT broker",
                            description="Subscribe to the boards' broadcasts and serve the hall's pages, "
                                        "live PDN for broadcast pollers, the archive and the standings.")
    config_module.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = config_module.from_args(args)
    require(HALL, "The hall's server")   # imported only now: `dboard --help` works without the extra
    with contextlib.suppress(asyncio.CancelledError):
        asyncio.run(_serve(config))
    return 0


async def _serve(config: config_module.HallConfig) -> None:
    from .server import HallServer

    server = HallServer(config)
    main = asyncio.current_task()
    assert main is not None
    with contextlib.suppress(NotImplementedError):
        for stop in (signal.SIGTERM, signal.SIGINT):
            asyncio.get_running_loop().add_signal_handler(stop, main.cancel)
    url = await server.start()
    print(f"Hall: listening to {config.broker_settings()} under {config.prefix}/; open {url}", flush=True)
    print(f"  live PDN of a round: {url.split('?')[0]}pdn/EVENT/ROUND.pdn "
          f"(a board: pdn/EVENT/ROUND/BOARD.pdn)", flush=True)
    try:
        await server.wait()
    finally:
        await server.stop()
