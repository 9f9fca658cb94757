"""A game table for the health tests: the 8x8-gpio profile's board on the electrical model (faults planted
in its SwitchMatrix), scanned by hand on the Session's manual clock; the WS2812 chain decoded from SPI."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rig import Rig

from controller import commands as cmd
from controller.config import Config
from controller.session import Session
from firmware_bridge.clock import ManualClock
from firmware_bridge.gpio_backend import GpioDevice
from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.profile import load_profile
from firmware_bridge.types import Cell
from firmware_bridge.ws2812 import SpiModel, chain_order

SCAN = 0.005           # seconds between two scans (200 scans/s, the profile's rate)
REAL_TIMEOUT = 20.0    # real seconds any wait may take before the test fails


class HandScannedGpio(GpioDevice):
    """The GPIO device with the test as its scan thread: ``start()`` opens it and publishes, nothing more."""

    def start(self) -> None:
        self.open()
        self._tracker.publish()


class GpioTable:
    """A Session on a GPIO board whose every scan the test makes (``wait``), so time is exact."""

    def __init__(self, tmp: Path, variant: str = "english", **config: Any) -> None:
        profile = load_profile("8x8-gpio")
        self.clock = ManualClock(1000.0)
        self.matrix = SwitchMatrix(8, 8)
        self.spi = SpiModel(64)
        self.spi.open(profile.leds.spi_bus, profile.leds.spi_device)
        gpio = GPIOModel(self.matrix, profile.gpio.row_pins, profile.gpio.col_pins)
        s, le = profile.sensors, profile.leds
        self.board = HandScannedGpio(8, 8, profile.gpio.row_pins, profile.gpio.col_pins, gpio=gpio,
                                     spi=self.spi, clock=self.clock, debounce=s.debounce_ms / 1000,
                                     chain=le.chain, brightness=le.brightness)
        self.chain = chain_order(8, 8, profile.leds.chain)
        self.names = Rig(variant)       # the controller's squares <-> cells
        config.setdefault("settle_ms", 100)
        self.config = Config(variant=variant, human_color="both", opponent="person", **config)
        self.session = Session(self.config, self.board, self.board, tmp, clock=self.clock)
        self.every_scan: Callable[[float], None] | None = None   # e.g. a chattering reed

    @property
    def ctl(self) -> Any:
        return self.session.controller

    def sq(self, name: str) -> Cell:
        return self.names.sq(name)

    async def wait(self, seconds: float) -> None:
        """Let ``seconds`` pass: a scan every SCAN seconds, each reading and every timer that falls due
        handled by the session before the next."""
        end = self.clock.now() + seconds
        while self.clock.now() < end - 1e-9:
            self.clock.advance(min(SCAN, end - self.clock.now()))
            if self.every_scan is not None:
                self.every_scan(self.clock.now())
            self.board.scan_once()
            await self.settled()

    async def settled(self) -> None:
        """Every queued input handled and every due timer fired (the session's ticker runs on real time)."""
        deadline = time.monotonic() + REAL_TIMEOUT
        while True:
            await self.session.idle()
            times = (self.ctl.next_deadline(), self.session.health.next_deadline())
            if all(t is None or t > self.clock.now() for t in times):
                return
            assert time.monotonic() < deadline, "the session's timers never fired"
            await asyncio.sleep(0.002)

    async def place(self, name: str) -> None:
        self.matrix.place(self.sq(name))
        await self.wait(0.1)

    async def lift(self, name: str) -> None:
        self.matrix.lift(self.sq(name))
        await self.wait(0.1)

    async def move(self, text: str, settle: float = 0.3) -> None:
        """Make a legal move by hand: lift the piece, take off the captured ones, put it down."""
        shape = self.ctl.exp.shape_of(self.ctl.game.board.parse_move(text))
        assert shape is not None, f"{text} is not legal here"
        self.matrix.lift(shape.origin)
        await self.wait(0.1)
        for cell in shape.captures:
            self.matrix.lift(cell)
            await self.wait(0.1)
        self.matrix.place(shape.target)
        await self.wait(settle)

    async def set_up(self) -> None:
        """Put every piece of the game's position on the board (faults or not)."""
        self.matrix.set_occupancy(self.ctl.exp.base)
        await self.wait(0.1)

    async def send(self, command: cmd.Command) -> None:
        await self.session.send(command)
        await self.settled()

    def messages(self) -> list[str]:
        return [m["text"] for m in self.session.view()["messages"]]

    def said(self, words: str) -> list[str]:
        return [text for text in self.messages() if words in text]

    def lit(self) -> dict[Cell, tuple[int, int, int]]:
        """The squares the WS2812 chain lights now (the colors as sent, blinking in their on phase)."""
        return {self.chain[n]: color for n, color in enumerate(self.spi.colors) if color != (0, 0, 0)}

    @property
    def texts(self) -> list[str]:
        return [r.text for r in self.ctl.records]
