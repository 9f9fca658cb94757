"""WS2812 LEDs driven through SPI: each data bit becomes three SPI bits at 2.4 MHz (1 -> 110, 0 -> 100).

Also the chain order (row-major or serpentine) and the blinking renderer shared by the GPIO backend.
"""

from __future__ import annotations

from collections.abc import Sequence

from .types import Cell, LedFrame, Pattern

SPI_HZ = 2_400_000
RESET_BYTES = 90          # 90 * 8 / 2.4 MHz = 300 us low: latches WS2812 and WS2812B-V5 (> 280 us)
CHAIN_ORDERS = ("row-major", "serpentine")
RGB = tuple[int, int, int]


def _bit_table() -> tuple[bytes, ...]:
    table = []
    for value in range(256):
        bits = 0
        for i in range(7, -1, -1):
            bits = (bits << 3) | (0b110 if value >> i & 1 else 0b100)
        table.append(bits.to_bytes(3, "big"))
    return tuple(table)


_BITS = _bit_table()


def encode_spi(colors: Sequence[RGB]) -> bytes:
    """SPI bytes for a chain showing ``colors`` (first = nearest the Pi), GRB order, then the reset gap."""
    out = bytearray(b"\x00")              # MOSI may idle high on some Pis: start from a clean low
    for r, g, b in colors:
        out += _BITS[g] + _BITS[r] + _BITS[b]
    out += bytes(RESET_BYTES)
    return bytes(out)


def chain_order(rows: int, cols: int, order: str = "serpentine") -> tuple[Cell, ...]:
    """The square under each LED along the chain: row 0 left to right, then row 1 (right to left if
    serpentine), and so on (wiring coordinates)."""
    if order not in CHAIN_ORDERS:
        raise ValueError(f"LED chain order must be one of {', '.join(CHAIN_ORDERS)}, got {order!r}")
    squares: list[Cell] = []
    for row in range(rows):
        cols_here = range(cols) if order == "row-major" or row % 2 == 0 else range(cols - 1, -1, -1)
        squares.extend((row, col) for col in cols_here)
    return tuple(squares)


def blink_on(pattern: Pattern, t: float) -> bool:
    """Whether a light with ``pattern`` is lit at time ``t`` (on in the first half of each period)."""
    if pattern is Pattern.ON:
        return True
    if pattern is Pattern.SLOW_BLINK:
        return (t % 1.0) < 0.5
    if pattern is Pattern.FAST_BLINK:
        return (t % 0.25) < 0.125
    return False


def render(frame: LedFrame, chain: Sequence[Cell], t: float, brightness: int) -> list[RGB]:
    """Colors along the chain at time ``t``, scaled by ``brightness`` (0-255)."""
    lights = frame.as_dict()
    out: list[RGB] = []
    for sq in chain:
        light = lights.get(sq)
        if light is None or not blink_on(light.pattern, t):
            out.append((0, 0, 0))
        else:
            c = light.rgb
            out.append((c.r * brightness // 255, c.g * brightness // 255, c.b * brightness // 255))
    return out


class SpiModel:
    """A stand-in ``spidev.SpiDev`` wired to a model WS2812 chain: decodes the waveform back into colors."""

    def __init__(self, leds: int) -> None:
        self.leds = leds
        self.max_speed_hz = 500_000
        self.mode = 0
        self.bits_per_word = 8
        self.opened: tuple[int, int] | None = None
        self.transfers = 0
        self.colors: list[RGB] = [(0, 0, 0)] * leds

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def close(self) -> None:
        self.opened = None

    def writebytes2(self, data: bytes | Sequence[int]) -> None:
        if self.opened is None:
            raise OSError(9, "Bad file descriptor (SPI device not open)")
        self.transfers += 1
        self._decode(bytes(data))

    def xfer2(self, data: Sequence[int]) -> list[int]:
        self.writebytes2(bytes(data))
        return [0] * len(data)

    def _decode(self, data: bytes) -> None:
        if not 2_000_000 <= self.max_speed_hz <= 3_000_000:
            return                      # wrong timing: real LEDs would show garbage; the model ignores it
        bits = "".join(f"{byte:08b}" for byte in data).lstrip("0")   # first symbol starts with a 1
        values: list[int] = []
        acc = count = 0
        for i in range(0, len(bits) - 2, 3):
            symbol = bits[i:i + 3]
            if symbol not in ("110", "100"):
                break                   # the reset gap (or noise) ends the data
            acc = acc << 1 | (symbol == "110")
            count += 1
            if count == 8:
                values.append(acc)
                acc = count = 0
                if len(values) == 3 * self.leds:
                    break
        for n in range(len(values) // 3):
            g, r, b = values[3 * n:3 * n + 3]
            self.colors[n] = (r, g, b)

    def __repr__(self) -> str:
        return f"SpiModel(leds={self.leds}, transfers={self.transfers}, speed={self.max_speed_hz})"
