"""`dboard replay-sensors FILE`: replay a sensor log through the controller and say what it records now.

The log (``dboard play --sensor-log FILE``) is replayed on a simulated clock as fast as the CPU allows; the
moves recorded, the refusals, the messages and the final LED frame are printed. ``--expect "9-13 22-18"``
exits 1 when the moves differ, so a log that showed a misreading becomes a test.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

from .sensorlog import SensorLogError, describe_frame, play_back, read_log


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard replay-sensors`` subcommand."""
    parser = sub.add_parser("replay-sensors", help="replay a sensor log and print what the board records",
                            description="Playback a sensor log (dboard play --sensor-log) through the "
                                        "controller on a simulated clock: the moves recorded, refusals, the "
                                        "final LEDs.")
    parser.add_argument("log", type=Path, help="the sensor log (JSON lines)")
    parser.add_argument("--expect", metavar="MOVES",
                        help='the moves the replay must record, e.g. "9-13 22-18" (exit 1 when they differ)')
    parser.add_argument("--quiet-messages", action="store_true", help="do not print the messages said")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Playback the log, print what the controller made of it; 1 when ``--expect`` differs."""
    logging.getLogger("transitions").setLevel(logging.WARNING)  # its per-transition INFO lines are noise here
    try:
        log = read_log(args.log)

        def said(at: float, level: str, text: str) -> None:
            if not args.quiet_messages:
                print(f"  {at:8.3f} s  [{level}] {text}")

        result = play_back(log, said)
    except SensorLogError as exc:
        raise SystemExit(f"dboard replay-sensors: error: {exc}") from None
    span = log.entries[-1].t - log.start if log.entries else 0.0
    print(f"{result.variant}: {result.changes} board changes over {span:.1f} s replayed in "
          f"{result.seconds:.3f} s")
    print(f"moves: {' '.join(result.moves) or '(none)'}")
    if result.logged:
        print(f"recorded when logged: {' '.join(result.logged)}")
    print(f"refusals: {'; '.join(result.refusals) or 'none'}")
    if result.alert:
        print(f"alert: {result.alert}")
    print(f"state: {result.state}")
    print(f"LEDs: {describe_frame(result.frame, result.map)}")
    if args.expect is not None:
        expected = args.expect.split()
        if expected != result.moves:
            print(f"MISMATCH: expected {' '.join(expected) or '(none)'}, "
                  f"the replay recorded {' '.join(result.moves) or '(none)'}")
            return 1
        print("as expected")
    return 0
