"""``dboard doctor``: a live view of the sensor matrix and LED test patterns, on any backend."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator
from typing import Any

from .device import open_device, serial_link
from .faults import SensorHistory
from .gpio_backend import GpioDevice
from .gpio_model import GPIOModel, SwitchMatrix
from .interfaces import BoardDevice
from .profile import Profile, ProfileError, load_profile
from .serial_backend import SerialDevice
from .simulated import SimulatedDevice
from .types import BLUE, GREEN, RED, WHITE, LedFrame, Light, Occupancy, Pattern, Rgb
from .ws2812 import SpiModel

TEST_COLORS: tuple[tuple[str, Rgb], ...] = (
    ("red", RED), ("green", GREEN), ("blue", BLUE), ("white", WHITE))


def board_arguments(p: argparse.ArgumentParser) -> None:
    """``--profile`` and ``--port``: which board a board command opens."""
    p.add_argument("--profile", default="8x8", help="profile name or TOML path (default: 8x8, simulated)")
    p.add_argument("--port", help="serial port, overriding the profile")


def profile_of(args: argparse.Namespace) -> Profile:
    """The profile ``--profile`` names, or a one-line error exit naming the file and key."""
    try:
        return load_profile(args.profile)
    except ProfileError as exc:
        raise SystemExit(f"error: {exc}") from None


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``doctor`` subcommand."""
    p = sub.add_parser("doctor", help="live view of the board's sensors; LED test patterns",
                       description="Show which squares read occupied, the scan rate and bounce counts; "
                                   "with --leds, light every square in turn and then each color.")
    board_arguments(p)
    p.add_argument("--leds", action="store_true", help="run the LED test patterns")
    p.add_argument("--step", type=float, default=0.15, help="seconds per LED test step (default 0.15)")
    p.add_argument("--stand-in", action="store_true",
                   help="gpio profiles: scan the built-in electrical model, not real pins (no Pi needed)")
    p.add_argument("--once", action="store_true", help="print one view and exit")
    p.add_argument("--duration", type=float, help="run this many seconds, then exit (default: until Ctrl-C)")
    p.set_defaults(func=doctor)


def led_patterns(rows: int, cols: int) -> Iterator[tuple[str, LedFrame]]:
    """The LED test: every square in turn (white), then the whole board in each test color."""
    for row in range(rows):
        for col in range(cols):
            yield f"square {(row, col)}", LedFrame.of(rows, cols, {(row, col): Light(WHITE, Pattern.ON)})
    everything = [(r, c) for r in range(rows) for c in range(cols)]
    for name, color in TEST_COLORS:
        yield f"all {name}", LedFrame.of(rows, cols, dict.fromkeys(everything, Light(color, Pattern.ON)))
    yield "off", LedFrame(rows, cols)


def status_line(board: BoardDevice) -> str:
    """Backend-specific health: scan rate and bounces (GPIO), link counters (serial), bounces (simulated)."""
    inner = getattr(board, "inner", board)
    if isinstance(inner, GpioDevice):
        d = inner.diagnostics
        worst = sorted(d.bounce_by_square.items(), key=lambda kv: -kv[1])[:3]
        return (f"gpio: {inner.scans_per_second:.0f} scans/s, {d.scans} scans, bounces {d.bounces} "
                f"{worst or ''}, ghosts {d.ghosts}, stuck {sorted(d.stuck_squares) or 0}")
    if isinstance(inner, SerialDevice):
        s = inner.stats
        hz = inner.hello.scan_hz if inner.hello else 0
        state = "connected" if inner.connected else f"{inner.status.state} ({inner.status.reason})"
        return (f"serial {inner.port}: {state}, MCU {hz} scans/s, boot 0x{inner.boot_id or 0:04X}, "
                f"frames in {s.frames_in}, bad {sum(s.bad_frames.values())}, resyncs {s.resyncs}, "
                f"resets {s.resets}, reconnects {max(0, s.connects - 1)}")
    if isinstance(inner, SimulatedDevice):
        return f"simulated: {len(inner.raw_log)} raw edges, bounces {inner.bounces}"
    return type(inner).__name__


def render_view(board: BoardDevice, title: str = "", health: SensorHistory | None = None) -> str:
    """The matrix as text, row 0 (White's side) at the bottom, labelled 1 as the board's notation counts
    ranks (a1 is row 0, column a): ``#`` occupied, ``.`` empty; ``*`` marks a lit LED on an empty square;
    ``health`` adds the squares seen chattering (any board type)."""
    snap = board.snapshot()
    lights = board.frame.as_dict()
    lines = [f"{title}  seq {snap.seq}, {len(snap.squares)} occupied"]
    for row in reversed(range(board.rows)):
        cells = []
        for col in range(board.cols):
            if (row, col) in snap.squares:
                cells.append("#")
            else:
                cells.append("*" if (row, col) in lights else ".")
        lines.append(f"{row + 1:2d} " + " ".join(cells))
    lines.append("   " + " ".join(chr(ord("a") + c) for c in range(board.cols)))
    lines.append(status_line(board))
    if health is not None:
        lines.append(f"sensors: {health.chatter_count} chattering {sorted(health.chattering) or ''}".rstrip())
    return "\n".join(lines)


def doctor(args: argparse.Namespace) -> int:
    """Run the doctor view (and LED test) until Ctrl-C, ``--duration`` or ``--once``."""
    profile = profile_of(args)
    overrides: dict[str, Any] = {}
    if args.stand_in and profile.backend == "gpio":
        matrix = SwitchMatrix(profile.rows, profile.cols, diodes=profile.sensors.diodes)
        spi = SpiModel(profile.rows * profile.cols)
        spi.open(profile.leds.spi_bus, profile.leds.spi_device)
        overrides.update(gpio=GPIOModel(matrix, profile.gpio.row_pins, profile.gpio.col_pins), spi=spi)
    live = sys.stdout.isatty() and not args.once
    board = open_device(profile, port=args.port, **overrides)
    health = SensorHistory()             # fed from the device's thread; only read here

    def note(snap: Occupancy) -> None:
        health.note(snap.squares, snap.time)

    board.on_snapshot(note)
    with board:
        link = serial_link(board)
        if link is not None:
            link.wait_synced(min(3.0, args.duration or 3.0))
        patterns = led_patterns(board.rows, board.cols) if args.leds else iter(())
        pattern_name = ""
        end = time.monotonic() + args.duration if args.duration is not None else None
        last_view = ""
        next_step = time.monotonic()
        while True:
            now = time.monotonic()
            if args.leds and now >= next_step:
                step = next(patterns, None)
                if step is not None:
                    pattern_name, frame = step
                    board.show(frame)
                    next_step = now + args.step
                    if args.once:                 # no time to watch: show every step, count them
                        shown = 1
                        for _, later in patterns:
                            board.show(later)
                            shown += 1
                        pattern_name = f"{shown} steps shown"
            title = f"dboard doctor: {profile.name} ({profile.backend})"
            if pattern_name:
                title += f"  LED test: {pattern_name}"
            view = render_view(board, title, health)
            if args.once:
                print(view)
                return 0
            if live:
                print("\x1b[H\x1b[2J" + view, flush=True)
            elif view != last_view:
                print(view + "\n", flush=True)
            last_view = view
            if end is not None and now >= end:
                return 0
            time.sleep(0.1)
