"""The hall's settings: one TOML file (``--config``), every key also an option of ``dboard hall``."""

from __future__ import annotations

import argparse
import os
import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from controller.broadcast.client import PROTOCOLS, BrokerSettings
from controller.broadcast.wire import check_level
from controller.config import MIN_TOKEN
from controller.field_docs import setting_help
from readers import ReadError, read_text


class HallConfigError(ValueError):
    """A bad hall setting: names the file or option and the key."""


@dataclass(frozen=True)
class HallConfig:
    """Every setting of ``dboard hall``, with its default."""

    broker: str = "localhost:1883"
    """The broker the boards publish to: HOST, HOST:PORT or mqtts://HOST:PORT."""
    user: str = ""
    """The hall's user at the broker (hardware/hall/ gives it read access to every board)."""
    password: str = ""
    """The hall's password at the broker."""
    tls: bool = False
    """Connect to the broker over TLS (mqtts:// in ``broker`` says so too)."""
    ca: str = ""
    """CA certificate file of the broker's TLS certificate (empty: the system's CAs)."""
    protocol: str = "5"
    """MQTT protocol version."""
    prefix: str = "dboard"
    """The boards' first topic level(s) (their ``broadcast_prefix``)."""
    client_id: str = "dboard-hall"
    """The hall's MQTT client id: the broker keeps its session (and what arrives while it is away)."""
    listen: str = "127.0.0.1"
    """Address of the web pages and PDN; anything but loopback needs the arbiter token for control."""
    port: int = 8090
    """Port of the web pages and PDN (0: a free one, printed at start)."""
    token: str = ""
    """The arbiter's token (generated and printed when empty and one is needed)."""
    data_dir: str = "~/.local/share/draughts-board/hall"
    """The archive of finished games and the arbiter's pairings and results."""
    site: str = "draughts-board hall"
    """The PDN Site tag of games whose board gives none."""

    def __post_init__(self) -> None:
        try:
            self.broker_settings()
            for level in self.prefix.split("/"):
                check_level("prefix", level)
        except ValueError as exc:
            raise HallConfigError(str(exc)) from None
        if not 0 <= self.port <= 65535:
            raise HallConfigError(f"port: must be 0-65535, got {self.port}")
        if self.token and len(self.token) < MIN_TOKEN:
            raise HallConfigError(f"token: at least {MIN_TOKEN} characters (empty: one is generated and "
                                  f"printed)")

    def broker_settings(self) -> BrokerSettings:
        return BrokerSettings.parse(self.broker, user=self.user, password=self.password, tls=self.tls,
                                    ca=self.ca, protocol=self.protocol)

    @property
    def data_path(self) -> Path:
        return Path(os.path.expanduser(self.data_dir))


_TYPES = {f.name: {"str": str, "int": int, "bool": bool}[str(f.type)] for f in fields(HallConfig)}


def load(path: Path | None) -> HallConfig:
    """The file's settings (all defaults without a file)."""
    if path is None:
        return HallConfig()
    try:
        data = tomllib.loads(read_text(path, what="hall config", limit=1024 * 1024))
    except ReadError as exc:
        raise HallConfigError(str(exc)) from None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError) as exc:   # (int() past its digit limit too)
        raise HallConfigError(f"{path}: {exc}") from None
    values: dict[str, Any] = {}
    for key, value in data.items():
        kind = _TYPES.get(key)
        if kind is None:
            raise HallConfigError(f"{path}: unknown key {key!r} (known keys: {', '.join(_TYPES)})")
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise HallConfigError(f"{path}: key {key!r} expects {kind.__name__}, got {value!r}")
        values[key] = value
    try:
        return HallConfig(**values)
    except HallConfigError as exc:
        raise HallConfigError(f"{path}: {exc}") from None


_ALLOWED = {"protocol": ", ".join(PROTOCOLS), "port": "0 to 65535",
            "token": f"empty or at least {MIN_TOKEN} characters"}
"""The values a setting accepts, where its type does not say it all (checked in HallConfig)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and one ``--<key>`` option per setting, each with its help: the field's docstring in
    HallConfig, the values it accepts and its default."""
    parser.add_argument("--config", type=Path, help="the hall's TOML settings file")
    group = parser.add_argument_group("settings (override the file)")
    for name, kind in _TYPES.items():
        flag = "--" + name.replace("_", "-")
        text = setting_help(HallConfig, name, _ALLOWED.get(name, ""))
        if kind is bool:
            group.add_argument(flag, dest=name, action=argparse.BooleanOptionalAction, default=None,
                               help=text)
        else:
            group.add_argument(flag, dest=name, type=kind, default=None, metavar=name.upper(), help=text)


def from_args(args: argparse.Namespace) -> HallConfig:
    config = load(args.config)
    overrides = {name: getattr(args, name) for name in _TYPES if getattr(args, name, None) is not None}
    try:
        return replace(config, **overrides)
    except HallConfigError as exc:
        raise HallConfigError(f"command line: {exc}") from None
