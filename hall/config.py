"""The hall's settings: one TOML file (``--config``), every key also an option of ``dboard hall``."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from pathlib import Path

from controller.broadcast.client import DEFAULT_BROKER, PROTOCOLS, BrokerSettings
from controller.broadcast.wire import DEFAULT_PREFIX, check_level
from controller.config import MIN_TOKEN, token_problem
from controller.settings_file import SettingsFile

from .errors import HallError


class HallConfigError(HallError, ValueError):
    """A bad hall setting: names the file or option and the key."""


@dataclass(frozen=True)
class HallConfig:
    """Every setting of ``dboard hall``, with its default."""

    broker: str = DEFAULT_BROKER
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
    prefix: str = DEFAULT_PREFIX
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
        if problem := token_problem(self.token):
            raise HallConfigError(f"token: {problem}")

    def broker_settings(self) -> BrokerSettings:
        """How to reach the broker; a ValueError names a bad setting."""
        return BrokerSettings.parse(self.broker, user=self.user, password=self.password, tls=self.tls,
                                    ca=self.ca, protocol=self.protocol)

    @property
    def data_path(self) -> Path:
        return Path(os.path.expanduser(self.data_dir))


_ALLOWED = {"protocol": ", ".join(PROTOCOLS), "port": "0 to 65535",
            "token": f"empty or at least {MIN_TOKEN} characters"}
"""The values a setting accepts, where its type does not say it all (checked in HallConfig)."""

SETTINGS = SettingsFile(HallConfig, HallConfigError, "hall config", file_help="the hall's TOML settings file",
                        group="settings (override the file)", allowed=lambda name: _ALLOWED.get(name, ""))
"""How the hall's settings are read from their file and set on the command line."""


def load(path: Path | None) -> HallConfig:
    """The file's settings (all defaults without a file); HallConfigError naming the file, the line and what
    was expected."""
    if path is None:
        return HallConfig()
    file = SETTINGS.read(path)
    return SETTINGS.from_table(file.data, file.where)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and one ``--<key>`` option per setting, each with its help: the field's docstring in
    HallConfig, the values it accepts and its default."""
    SETTINGS.add_arguments(parser)


def from_args(args: argparse.Namespace) -> HallConfig:
    """The file named by ``--config`` (or the defaults) with the command line's settings over it."""
    return SETTINGS.replaced(load(args.config), SETTINGS.overrides(args))
