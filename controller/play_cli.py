"""`dboard play`: the main job - a game on the board (the simulated board unless a profile says otherwise)."""

from __future__ import annotations

import argparse
import logging

from . import config as config_module

log = logging.getLogger(__name__)


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("play", help="play a game on the board (simulated by default)",
                            description="Play on the board: against the built-in engine or a person.")
    config_module.add_arguments(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    config = config_module.from_args(args)
    log.info("starting with %s", config)
    print(f"dboard play: variant {config.variant}, board profile {config.profile}, engine level {config.level}")
    return 0
