"""Board profiles: TOML files describing one physical board (size, orientation, backend, pins, LEDs).

``load_profile("8x8-gpio")`` finds ``hardware/profiles/8x8-gpio.toml`` (or ``$DBOARD_PROFILES``, or
``~/.config/draughts-board/profiles``); ``load_profile(path)`` reads a file. Errors name the file and the key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from readers import ReadError
from readers.toml import read_toml

from .errors import BridgeError

BACKENDS = ("simulated", "gpio", "serial")
WHITE_SIDES = ("south", "north", "west", "east")
SENSOR_SETS = ("all", "dark", "light")
POLARITIES = ("closed-occupied", "open-occupied")
CHAINS = ("row-major", "serpentine")
IDLE_MODES = ("input", "high")
SPI0_PINS = (7, 8, 9, 10, 11)      # CE1, CE0, MISO, MOSI, SCLK: claimed by the spidev driver


class ProfileError(BridgeError, ValueError):
    """A profile that cannot be used: names the file, the key and what was expected."""


@dataclass(frozen=True)
class SensorSettings:
    """Which squares carry sensors and how they read."""

    squares: str = "all"
    polarity: str = "closed-occupied"
    debounce_ms: float = 12.0
    """How long a square's new reading must hold, measured on the clock (not in scans): 12 ms never lets a
    10 ms flicker through, whatever the scan rhythm, and sees every 20 ms lift while the scans keep 5 ms
    apart (200 scans/s) and each takes under 3 ms; a scan held up inside the lift can lose it."""
    scan_hz: float = 200.0
    diodes: bool = True
    idle_rows: str = "input"
    stuck_changes: int = 400


@dataclass(frozen=True)
class GpioSettings:
    """BCM pin numbers of the matrix rows and columns."""

    row_pins: tuple[int, ...] = ()
    col_pins: tuple[int, ...] = ()


@dataclass(frozen=True)
class LedSettings:
    """The WS2812 chain: order along the board, brightness, SPI device."""

    chain: str = "serpentine"
    brightness: int = 64
    spi_bus: int = 0
    spi_device: int = 0
    enabled: bool = True


@dataclass(frozen=True)
class SerialSettings:
    """Port and timing of the serial (microcontroller) link."""

    port: str = "/dev/draughts-board"
    baud: int = 115200
    heartbeat: float = 0.5
    silence: float = 1.5
    retry: float = 0.2


@dataclass(frozen=True)
class SimulatedSettings:
    """Debounce of the simulated board (seconds)."""

    debounce: float = 0.03


@dataclass(frozen=True)
class Profile:
    """One physical board."""

    name: str
    rows: int
    cols: int
    backend: str = "simulated"
    white_side: str = "south"
    sensors: SensorSettings = field(default_factory=SensorSettings)
    gpio: GpioSettings = field(default_factory=GpioSettings)
    leds: LedSettings = field(default_factory=LedSettings)
    serial: SerialSettings = field(default_factory=SerialSettings)
    simulated: SimulatedSettings = field(default_factory=SimulatedSettings)
    source: str = "<built-in>"

    def sensor_squares(self) -> frozenset[tuple[int, int]]:
        """Logical squares (White's view) that carry a sensor."""
        parity = {"all": None, "dark": 0, "light": 1}[self.sensors.squares]
        return frozenset((r, c) for r in range(self.rows) for c in range(self.cols)
                         if parity is None or (r + c) % 2 == parity)


def profile_dirs() -> list[Path]:
    """Where profile names are looked up, first match wins."""
    dirs = []
    if env := os.environ.get("DBOARD_PROFILES"):
        dirs += [Path(p) for p in env.split(os.pathsep) if p]
    dirs.append(Path.home() / ".config" / "draughts-board" / "profiles")
    dirs.append(Path(__file__).resolve().parents[1] / "hardware" / "profiles")
    return dirs


def find_profile(name: str) -> Path:
    """Path of the profile called ``name`` (a file path, or a name looked up in ``profile_dirs()``)."""
    path = Path(name)
    if path.suffix == ".toml" or os.sep in name:
        if not path.exists():   # (a FIFO or a device is there: reading it says what it is)
            raise ProfileError(f"profile file {name} does not exist")
        return path
    for d in profile_dirs():
        candidate = d / f"{name}.toml"
        if candidate.is_file():
            return candidate
    known = sorted({p.stem for d in profile_dirs() if d.is_dir() for p in d.glob("*.toml")})
    raise ProfileError(f"no profile named {name!r} (known: {', '.join(known) or 'none'})")


def load_profile(name_or_path: str | Path) -> Profile:
    """Read and check a profile; ProfileError names the file and the offending key."""
    path = find_profile(str(name_or_path))
    try:   # a FIFO, a device, a huge or non-UTF-8 file, bad TOML, nesting or numbers past reason
        data = read_toml(path, what="board profile").data
    except ReadError as exc:
        raise ProfileError(str(exc)) from None
    return parse_profile(data, source=str(path), default_name=path.stem)


class _Reader:
    """Typed access to one TOML table, remembering which keys were used so unknown ones are reported."""

    def __init__(self, table: dict[str, Any], source: str, prefix: str) -> None:
        self.table, self.source, self.prefix = table, source, prefix
        self.used: set[str] = set()

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def get(self, name: str, kind: type | tuple[type, ...], default: Any) -> Any:
        self.used.add(name)
        if name not in self.table:
            return default
        value = self.table[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds:
            raise ProfileError(f"{self.source}: key {self.key(name)} must be {_names(kinds)}, got {value!r}")
        if float in kinds and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kinds):
            raise ProfileError(f"{self.source}: key {self.key(name)} must be {_names(kinds)}, got {value!r}")
        return value

    def choice(self, name: str, choices: tuple[str, ...], default: str) -> str:
        value = self.get(name, str, default)
        if value not in choices:
            raise ProfileError(f"{self.source}: key {self.key(name)} must be one of {', '.join(choices)}, "
                               f"got {value!r}")
        return value

    def number(self, name: str, kind: type, default: Any, lo: float, hi: float) -> Any:
        value = self.get(name, kind, default)
        if not lo <= value <= hi:
            raise ProfileError(f"{self.source}: key {self.key(name)} must be between {lo} and {hi}, "
                               f"got {value}")
        return value

    def pins(self, name: str) -> tuple[int, ...]:
        value = self.get(name, list, [])
        if not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 27 for p in value):
            raise ProfileError(f"{self.source}: key {self.key(name)} must be a list of BCM GPIO numbers "
                               f"0-27, got {value!r}")
        return tuple(value)

    def table_of(self, name: str) -> _Reader:
        self.used.add(name)
        sub = self.table.get(name, {})
        if not isinstance(sub, dict):
            raise ProfileError(f"{self.source}: [{self.key(name)}] must be a table")
        return _Reader(sub, self.source, f"{self.key(name)}.")

    def finish(self) -> None:
        unknown = sorted(set(self.table) - self.used)
        if unknown:
            raise ProfileError(f"{self.source}: unknown key {self.prefix}{unknown[0]}"
                               + (f" (and {', '.join(unknown[1:])})" if len(unknown) > 1 else ""))


def _names(kinds: tuple[type, ...]) -> str:
    words = {int: "an integer", float: "a number", str: "a string", bool: "true or false", list: "a list"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)


def parse_profile(data: dict[str, Any], *, source: str = "<profile>", default_name: str = "board") -> Profile:
    """Build a Profile from parsed TOML ``data``."""
    top = _Reader(data, source, "")
    name = top.get("name", str, default_name)
    for required in ("rows", "cols"):
        if required not in data:
            raise ProfileError(f"{source}: missing key {required}")
    rows = top.number("rows", int, 8, 1, 16)
    cols = top.number("cols", int, 8, 1, 16)
    backend = top.choice("backend", BACKENDS, "simulated")
    orient = top.table_of("orientation")
    white_side = orient.choice("white_side", WHITE_SIDES, "south")
    if white_side in ("west", "east") and rows != cols:
        raise ProfileError(f"{source}: key orientation.white_side = {white_side!r} needs a square board, "
                           f"got {rows}x{cols}")
    orient.finish()

    s = top.table_of("sensors")
    scan_hz = s.number("scan_hz", float, 200.0, 1.0, 5000.0)
    sensors = SensorSettings(
        squares=s.choice("squares", SENSOR_SETS, "all"),
        polarity=s.choice("polarity", POLARITIES, "closed-occupied"),
        debounce_ms=_debounce_ms(s, scan_hz),
        scan_hz=scan_hz,
        diodes=s.get("diodes", bool, True),
        idle_rows=s.choice("idle_rows", IDLE_MODES, "input"),
        stuck_changes=s.number("stuck_changes", int, 400, 1, 1_000_000),
    )
    s.finish()
    if not sensors.diodes:
        raise ProfileError(f"{source}: key sensors.diodes = false cannot work: without a diode per switch, "
                           f"a piece lifted from the start position still reads as there (the pieces around "
                           f"it close a sneak path through its square), so no move could be seen; fit one "
                           f"diode per switch (hardware/wiring.md) and remove the key")

    g = top.table_of("gpio")
    gpio = GpioSettings(row_pins=g.pins("row_pins"), col_pins=g.pins("col_pins"))
    g.finish()

    le = top.table_of("leds")
    leds = LedSettings(
        chain=le.choice("chain", CHAINS, "serpentine"),
        brightness=le.number("brightness", int, 64, 0, 255),
        spi_bus=le.number("spi_bus", int, 0, 0, 6),
        spi_device=le.number("spi_device", int, 0, 0, 2),
        enabled=le.get("enabled", bool, True),
    )
    le.finish()

    se = top.table_of("serial")
    serial = SerialSettings(
        port=se.get("port", str, "/dev/draughts-board"),
        baud=se.number("baud", int, 115200, 300, 4_000_000),
        heartbeat=se.number("heartbeat", float, 0.5, 0.01, 60.0),
        silence=se.number("silence", float, 1.5, 0.05, 600.0),
        retry=se.number("retry", float, 0.2, 0.01, 60.0),
    )
    se.finish()
    if serial.silence <= serial.heartbeat:
        raise ProfileError(f"{source}: key serial.silence ({serial.silence}) must exceed serial.heartbeat "
                           f"({serial.heartbeat})")

    si = top.table_of("simulated")
    simulated = SimulatedSettings(debounce=si.number("debounce", float, 0.03, 0.0, 10.0))
    si.finish()
    top.finish()

    if backend == "gpio":
        _check_pins(source, rows, cols, gpio, leds)
    return Profile(name, rows, cols, backend, white_side, sensors, gpio, leds, serial, simulated, source)


def _debounce_ms(table: _Reader, scan_hz: float) -> float:
    """``sensors.debounce_ms``, or the older ``sensors.debounce_scans`` turned into the time it meant at
    ``scan_hz``: n equal readings span n - 1 scan periods (a count of scans is no measure of time when the
    scans come late)."""
    if "debounce_scans" in table.table:
        if "debounce_ms" in table.table:
            raise ProfileError(f"{table.source}: keys sensors.debounce_ms and sensors.debounce_scans both "
                               f"set; keep debounce_ms")
        return round((table.number("debounce_scans", int, 3, 1, 50) - 1) * 1000 / scan_hz, 3)
    return table.number("debounce_ms", float, 12.0, 0.0, 1000.0)


def _check_pins(source: str, rows: int, cols: int, gpio: GpioSettings, leds: LedSettings) -> None:
    if len(gpio.row_pins) != rows:
        raise ProfileError(f"{source}: key gpio.row_pins lists {len(gpio.row_pins)} pins, "
                           f"the board has {rows} rows")
    if len(gpio.col_pins) != cols:
        raise ProfileError(f"{source}: key gpio.col_pins lists {len(gpio.col_pins)} pins, "
                           f"the board has {cols} columns")
    pins = gpio.row_pins + gpio.col_pins
    dupes = sorted({p for p in pins if pins.count(p) > 1})
    if dupes:
        raise ProfileError(f"{source}: keys gpio.row_pins/gpio.col_pins use GPIO {dupes[0]} twice")
    if leds.enabled and leds.spi_bus == 0:
        clash = sorted(set(pins) & set(SPI0_PINS[1:]))
        if clash:
            raise ProfileError(f"{source}: GPIO {clash[0]} in gpio pins is claimed by SPI0 for the LEDs "
                               f"(GPIO 8-11)")
