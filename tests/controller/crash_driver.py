"""Subprocess for the crash test: plays random legal moves through the controller, journaling to argv[1],
printing ``CONFIRMED <ply>`` each time the LEDs confirm a committed move (then killed by SIGKILL)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from controller import events as ev
from controller.config import Config
from controller.journal import Journal
from controller.machine import Controller
from controller.settings import GameSettings
from firmware_bridge.clock import ManualClock


def main() -> None:
    directory, variant, seed = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    rng = random.Random(seed)
    clock = ManualClock(1.0)
    committed: list[int] = []

    def emit(event: ev.Event) -> None:
        if isinstance(event, ev.MoveCommitted):
            committed.append(event.ply)

    def show(frame: object) -> None:
        if committed:
            print(f"CONFIRMED {committed.pop()}", flush=True)

    journal = Journal(directory)
    ctl = Controller(Config(variant=variant, human_color="both", opponent="person"), clock=clock,
                     journal=journal, emit=emit, show=show,
                     settings=GameSettings(variant, "both", "person", 3, None, False))
    ctl.new_game()
    occ = set(ctl.exp.base)
    ctl.snapshot(frozenset(occ))
    while True:
        if ctl.state == "game_over":
            print("GAMEOVER", flush=True)
            sys.stdin.read()  # wait to be killed
        shape = rng.choice(ctl.exp.shapes)
        for sq in (shape.origin, *shape.captures):
            occ.discard(sq)
            clock.advance(0.01)
            ctl.snapshot(frozenset(occ))
        occ.add(shape.target)
        clock.advance(0.01)
        ctl.snapshot(frozenset(occ))
        clock.advance(ctl.config.king_settle_ms / 1000 + 0.1)   # committed, a flying king's move too
        ctl.tick()


if __name__ == "__main__":
    main()
