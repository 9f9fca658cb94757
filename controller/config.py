"""User configuration: one TOML file, every option also settable on the command line.

The file is ``~/.config/draughts-board/config.toml`` unless ``--config`` names another. Unknown keys and
wrong types are errors that name the key, so a typo never silently falls back to a default.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from i18n import LANGUAGES
from rules import VARIANT_IDS, Variant, get_variant
from rules.options import format_text, parse_text

from .broadcast.client import DEFAULT_BROKER, PROTOCOLS, BrokerSettings
from .broadcast.wire import DEFAULT_PREFIX, BoardTopic
from .errors import ControllerError
from .settings_file import SettingsFile, Where

DEFAULT_PATH = Path("~/.config/draughts-board/config.toml")
OPPONENTS = ("engine", "person", "external", "dxp")
CHOICES: dict[str, tuple[str, ...]] = {"opponent": OPPONENTS, "human_color": ("white", "black", "both"),
                                       "orientation": ("white-near", "white-far"),
                                       "broadcast_protocol": PROTOCOLS, "language": tuple(LANGUAGES)}
"""The settings that take one of a few words: checked at load, listed by --help."""
RANGES: dict[str, tuple[float, float]] = {
    "level": (1, 10), "brightness": (0.0, 1.0), "port": (1, 65535), "settle_ms": (0, 60_000),
    "king_settle_ms": (0, 60_000), "grace_ms": (0, 600_000), "sensor_check_ms": (100, 600_000),
    "broadcast_heartbeat": (0.1, 3600.0), "speech_rate": (80, 450), "speech_volume": (0, 200),
    "engine_threads": (1, 64)}
"""The numeric settings' bounds (inclusive): checked at load, listed by --help."""
SECONDS = ("engine_time", "external_handshake", "dxp_handshake", "external_margin")
"""Settings that are a positive number of seconds."""
MIN_TOKEN = 16
"""The shortest web token accepted: a short one can be guessed."""


MAX_CONFIG_BYTES = 1024 * 1024
"""A config of every setting with comments is a few kilobytes."""


class ConfigError(ControllerError, ValueError):
    """A configuration file or option is invalid; the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    """Every setting of a running board, with its default."""

    variant: str = "international"
    """Rules to play by (a variant id such as international, spanish, english, russian)."""
    variant_options: str = ""
    """The variant's options as text (first=white allow_180=false); in the file, a [variant_options] table."""
    profile: str = "simulated"
    """Board profile: a name from hardware/profiles (e.g. 8x8-gpio) or a path to a TOML profile."""
    serial_port: str = ""
    """Serial device of a serial board profile (empty: the profile's own, e.g. /dev/draughts-board)."""
    level: int = 3
    """Built-in engine level, 1 (beginner) to 10 (strongest)."""
    brightness: float = 1.0
    """LED brightness, 0.0 to 1.0: a fraction of the board profile's own LED brightness."""
    port: int = 8080
    """Port of the web control panel."""
    listen: str = "127.0.0.1"
    """Address the web panel binds to; anything but loopback requires the token for control actions."""
    token: str = ""
    """Token for control actions, at least 16 characters; required on loopback too once set. Listening beyond
    localhost with none set, one is generated and printed."""
    public_view: bool = False
    """Let anyone watch without the token when listening beyond localhost."""
    allowed_hosts: str = ""
    """Host names the web panel answers to besides this machine's own (comma-separated; e.g. the name of a
    TLS proxy in front of it, or *.example.org); any other Host header gets 400."""
    human_color: str = "white"
    """Color the person plays: white, black or both (two people on one board)."""
    opponent: str = "engine"
    """Who plays the other side: engine (built-in), person, external (external_engine) or dxp (dxp_engine)."""
    settle_ms: int = 300
    """Time the board must stay still before a move that could still be extended is committed."""
    king_settle_ms: int = 1000
    """The same for a flying king resting on a square of its line: it may be sliding on."""
    grace_ms: int = 3000
    """Time the board may disagree with the game before the LEDs show what to fix."""
    teaching: bool = False
    """Teaching mode: show whole capture paths and explain refusals."""
    takeback: bool = True
    """Allow taking moves back by restoring an earlier position."""
    touch_move: bool = False
    """Strict touch-move: a move stands once made (no amending it before the opponent touches the board)."""
    engine_threads: int = 1
    """Search threads of the built-in engine (a Raspberry Pi 3, 4, 5 or Zero 2 W has 4 cores; 1 plays the
    same move every time for the same position)."""
    engine_time: float = 2.0
    """Seconds the engine may think per move at the top level."""
    data_dir: str = "~/.local/share/draughts-board"
    """Where the journal, finished games and ratings are kept."""
    orientation: str = "white-near"
    """Which side White sits: white-near (physical row 0) or white-far (the board profile may say)."""
    new_game_on_start: bool = True
    """Setting up the start position during or after a game starts a new game."""
    auto_computer: bool = True
    """On the simulated board the computer's moves play themselves, and the pieces the game moves (a set-up,
    a takeback) move themselves; off, they are moved by hand, as on a real board."""
    accept_alternative: bool = False
    """Accept a different legal move made for the computer instead of its own move."""
    external_engine: str = ""
    """Command line of a Hub-protocol engine (e.g. scan hub) played by opponent "external"."""
    dxp_engine: str = ""
    """HOST:PORT of a DXP engine (e.g. Scan or Moby Dam listening as follower) played by opponent "dxp"."""
    external_handshake: float = 10.0
    """Seconds a Hub engine may take for each step of its start (hub ... wait, init ... ready)."""
    dxp_handshake: float = 30.0
    """Seconds a DXP engine may take to connect and to accept the game."""
    external_margin: float = 5.0
    """Seconds an external engine may take beyond its move time before the built-in engine takes over."""
    player: str = "player"
    """The local player profile whose rating a game against the built-in engine updates."""
    broadcast: bool = False
    """Publish the game to a tournament hall's MQTT broker (``dboard hall`` shows it; off at home)."""
    broadcast_broker: str = DEFAULT_BROKER
    """The hall's broker: HOST, HOST:PORT, or mqtts://HOST:PORT for TLS."""
    broadcast_user: str = ""
    """This board's user name at the broker (the hall's ACL lets it publish only under its own board)."""
    broadcast_password: str = ""
    """This board's password at the broker."""
    broadcast_tls: bool = False
    """Connect to the broker over TLS."""
    broadcast_ca: str = ""
    """CA certificate file of the broker's TLS certificate (empty: the system's CAs)."""
    broadcast_protocol: str = "5"
    """MQTT protocol version: 5 or 3.1.1."""
    broadcast_prefix: str = DEFAULT_PREFIX
    """First topic level(s): the board publishes under PREFIX/EVENT/ROUND/BOARD/."""
    broadcast_event: str = "event"
    """The event's short name (a topic level: no / + #)."""
    broadcast_round: str = "1"
    """The round this board's game belongs to."""
    broadcast_board: str = "1"
    """The board's number in the hall."""
    broadcast_white: str = ""
    """White's name for the broadcast (the arbiter's pairings win in the hall)."""
    broadcast_black: str = ""
    """Black's name for the broadcast."""
    broadcast_site: str = ""
    """The PDN Site of the broadcast games (the hall's own site when empty)."""
    broadcast_heartbeat: float = 10.0
    """Seconds between the board's "I am here" messages (the hall flags a board silent after three)."""
    masked_squares: str = ""
    """Squares whose sensors are not believed (broken): names in the variant's notation or rROWcCOL."""
    sensor_check_ms: int = 5000
    """Time the board must stay still, disagreeing with the game, before its sensors are examined."""
    language: str = "en"
    """The language the board speaks and writes in (the terminal, the page's default, the voice)."""
    speech: bool = False
    """Say the computer's move, captures, crowning, refusals, the result and low time aloud (espeak-ng)."""
    speech_voice: str = ""
    """The espeak-ng voice (blank: the language's own, e.g. nl; ``espeak-ng --voices`` lists them)."""
    speech_rate: int = 160
    """How fast the board speaks, in words a minute."""
    speech_volume: int = 100
    """How loud the board speaks (espeak-ng's amplitude; 100 is its default)."""
    blind_mode: bool = False
    """For a blind or partially sighted player: every lift and place is said as it happens (needs speech)."""

    def __post_init__(self) -> None:
        for key, (low, high) in RANGES.items():
            _check_range(key, getattr(self, key), low, high)
        for key in SECONDS:
            value = getattr(self, key)
            if not 0 < value < float("inf"):
                raise ConfigError(f"{key}: must be a positive number of seconds, got {value}")
        for key, words in CHOICES.items():
            if getattr(self, key) not in words:
                raise ConfigError(f"{key}: expected one of {', '.join(words)}, got {getattr(self, key)!r}")
        if self.dxp_engine:
            host_port(self.dxp_engine, "dxp_engine")
        if not self.player.strip():
            raise ConfigError("player: the profile name must not be empty")
        if problem := token_problem(self.token):
            raise ConfigError(f"token: {problem}")
        _check_range("broadcast_heartbeat", self.broadcast_heartbeat, 0.1, 3600.0)
        if self.broadcast:
            try:
                self.broker_settings()
                BoardTopic(self.broadcast_prefix, self.broadcast_event, self.broadcast_round,
                           self.broadcast_board)
            except ValueError as exc:
                raise ConfigError(f"broadcast: {exc}") from None
        self.game_variant()

    def game_variant(self) -> Variant:
        """The variant with its options (docs/rules/README.md#options); ConfigError naming the bad one."""
        try:
            return get_variant(self.variant, **parse_text(self.variant_options))
        except ValueError as exc:
            key = "variant_options" if self.variant_options.strip() else "variant"
            raise ConfigError(f"{key}: {exc}") from None

    def broker_settings(self) -> BrokerSettings:
        """How to reach the hall's broker (the ``broadcast_*`` keys); a ValueError names a bad one."""
        return BrokerSettings.parse(self.broadcast_broker, user=self.broadcast_user,
                                    password=self.broadcast_password, tls=self.broadcast_tls,
                                    ca=self.broadcast_ca, protocol=self.broadcast_protocol)

    @property
    def data_path(self) -> Path:
        return Path(os.path.expanduser(self.data_dir))

    def replace(self, **changes: Any) -> Config:
        return dataclasses.replace(self, **changes)


def token_problem(token: str) -> str | None:
    """Why a configured access token is refused (one that short could be guessed), or None."""
    if token and len(token) < MIN_TOKEN:
        return (f"must be at least {MIN_TOKEN} characters long, got {len(token)} (leave it empty to have one "
                "generated)")
    return None


def host_port(text: str, key: str = "address") -> tuple[str, int]:
    """("host", port) from "HOST:PORT" (an IPv6 host in brackets); ConfigError naming `key` otherwise."""
    host, colon, port = text.strip().rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not host or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ConfigError(f"{key}: expected HOST:PORT (e.g. 127.0.0.1:27531), got {text!r}")
    return host, int(port)


def _check_range(key: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ConfigError(f"{key}: must be between {low} and {high}, got {value}")


def from_mapping(data: dict[str, Any], where: str | Where = "config") -> Config:
    """Build a Config from a parsed TOML table, naming any unknown key or wrong type (``where``: the file,
    or where each key is written in it)."""
    located = where if callable(where) else lambda key: where
    table = dict(data)
    if isinstance(table.get("variant_options"), dict):
        variant, options = str(table.get("variant", Config.variant)), table["variant_options"]
        table["variant_options"] = _options_table(variant, options, located("variant_options"))
    return SETTINGS.from_table(table, located)


def _options_table(variant: str, table: dict[str, Any], where: str) -> str:
    """A [variant_options] table (TOML values) as the options' text; ConfigError naming the bad option."""
    try:
        return format_text(get_variant(variant, **table).option_values())
    except ValueError as exc:
        raise ConfigError(f"{where}: [variant_options]: {exc}") from None


def load(path: Path | None = None) -> Config:
    """Load the config file; a missing default file means all defaults, a missing named file is an error."""
    explicit = path is not None
    path = Path(os.path.expanduser(path or DEFAULT_PATH))
    if not path.exists():
        if explicit:
            raise ConfigError(f"{path}: config file not found")
        return Config()
    file = SETTINGS.read(path)
    return from_mapping(file.data, file.where)


def allowed_values(name: str) -> str:
    """The values setting `name` accepts, in words, for --help (its docstring says what it means)."""
    kind = SETTINGS.types[name]
    if name in CHOICES:
        return ", ".join(CHOICES[name])
    if name in RANGES:
        low, high = RANGES[name]
        return f"{low:g} to {high:g}" + (" (whole numbers)" if kind is int else "")
    if name in SECONDS:
        return "a positive number of seconds"
    if name == "variant":
        return ", ".join(VARIANT_IDS) + " (or an alias)"
    if kind is bool:
        return ""                                   # --NAME / --no-NAME says it
    return "a whole number" if kind is int else "a number" if kind is float else ""


SETTINGS = SettingsFile(Config, ConfigError, "config file", file_help=f"config file (default {DEFAULT_PATH})",
                        group="settings (override the config file)", allowed=allowed_values,
                        limit=MAX_CONFIG_BYTES)
"""How the config is read from its file and set on the command line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and one ``--<key>`` option per setting (overriding the config file), each with its
    help: the field's docstring in Config, the values it accepts and its default."""
    SETTINGS.add_arguments(parser)


def from_args(args: argparse.Namespace) -> Config:
    """The config file named by ``--config`` (or the default) with command-line overrides applied."""
    config = load(args.config)
    overrides = SETTINGS.overrides(args)
    if overrides.get("variant", config.variant) != config.variant and "variant_options" not in overrides:
        overrides["variant_options"] = ""   # the file's options are another variant's
    return SETTINGS.replaced(config, overrides)
