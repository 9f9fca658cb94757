"""A game on the GPIO-wired profile (8x8-gpio) through the Session: the shipped RPi.GPIO stand-in drives the
electrical model of the reed-switch matrix, and the WS2812 chain is decoded from the SPI bytes."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from rig import Rig, next_event, until

from controller import events as ev
from controller.config import Config
from controller.session import Session
from firmware_bridge.device import open_device
from firmware_bridge.gpio_model import GPIOModel, SwitchMatrix
from firmware_bridge.profile import load_profile
from firmware_bridge.ws2812 import SpiModel, chain_order


def test_a_move_on_the_gpio_board_is_committed_and_lit(tmp_path: Path) -> None:
    profile = load_profile("8x8-gpio")
    matrix = SwitchMatrix(8, 8, diodes=profile.sensors.diodes)
    spi = SpiModel(64)
    spi.open(profile.leds.spi_bus, profile.leds.spi_device)
    gpio = GPIOModel(matrix, profile.gpio.row_pins, profile.gpio.col_pins)
    board = open_device(profile, gpio=gpio, spi=spi)
    english = Rig("english")   # the controller's own square <-> (row, col) mapping and start position
    chain = chain_order(8, 8, profile.leds.chain)
    config = Config(variant="english", human_color="both", opponent="person", settle_ms=50, brightness=0.5)

    def lit() -> dict[tuple[int, int], tuple[int, int, int]]:
        return {chain[n]: color for n, color in enumerate(spi.colors) if color != (0, 0, 0)}

    async def lit_over(seconds: float = 1.2) -> dict[tuple[int, int], tuple[int, int, int]]:
        """Every LED seen on while blinking runs through its on and off phases, in its on color."""
        seen: dict[tuple[int, int], tuple[int, int, int]] = {}
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            seen.update(lit())
            await asyncio.sleep(0.01)
        return seen

    async def shows_the_controller_frame() -> None:
        """The chain shows the controller's frame at 0.5 of the profile's 64/255, color by color."""
        wanted = session.controller.frame.dimmed(config.brightness)
        await until("the device holds the frame", lambda: board.frame == wanted)
        scans = board.diagnostics.scans
        await until("the scan thread's next LED refresh", lambda: board.diagnostics.scans > scans + 1)
        frame, shown = session.controller.frame, await lit_over()
        assert set(shown) == {sq for sq, _ in frame.lights}
        for sq, light in frame.lights:
            expected = [round(c * 0.5) * profile.leds.brightness / 255
                        for c in (light.rgb.r, light.rgb.g, light.rgb.b)]
            assert all(abs(a - b) <= 1 for a, b in zip(shown[sq], expected, strict=True)), sq

    async def main() -> None:
        async with session:
            events = session.subscribe()
            await shows_the_controller_frame()
            assert {sq for sq, _ in session.controller.frame.lights} == set(english.ctl.exp.base)
            matrix.set_occupancy(english.ctl.exp.base)          # the pieces go on by hand
            await until("the start position", lambda: session.controller.state == "person.idle")
            matrix.lift(english.sq("9"))
            await until("the lift, debounced", lambda: session.controller.state == "person.lifted")
            await shows_the_controller_frame()                  # where the lifted man may go
            assert {english.sq("13"), english.sq("14")} <= {sq for sq, _ in session.controller.frame.lights}
            matrix.place(english.sq("13"))
            moved = await next_event(events, ev.MoveCommitted)
            assert moved.text == "9-13" and moved.by == "black"
            await session.idle()
            await shows_the_controller_frame()                  # and the hint is gone again

    session = Session(config, board, board, tmp_path)
    try:
        asyncio.run(main())
    finally:
        board.close()
    assert lit() == {} and spi.opened is None                  # closed: LEDs dark, SPI released
