"""`dboard service install | uninstall`: run `dboard play` at boot as a systemd service.

The unit is written for the user who runs the install (under sudo, the one who typed sudo: SUDO_USER), with
that user's home and group and this project's own `dboard` (its venv), from the template
hardware/systemd/draughts-board.service; the udev rule hardware/udev/99-draughts-board.rules gives a serial
board the name /dev/draughts-board. Raspberry Pi OS Bookworm has no `pi` user, so nothing is hard-coded.
`--root DIR` writes under DIR (and runs no systemctl or udevadm), `--dry-run` only says what it would do.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
UNIT_NAME = "draughts-board.service"
RULES_NAME = "99-draughts-board.rules"
TEMPLATE = PROJECT / "hardware" / "systemd" / UNIT_NAME
RULES = PROJECT / "hardware" / "udev" / RULES_NAME
BOARD_GROUPS = ("gpio", "spi", "dialout")
"""The groups that open the Pi's GPIO pins, its SPI bus (the LEDs) and serial ports, where they exist."""


@dataclass(frozen=True)
class ServiceUser:
    """Who the service runs as: the account, its primary group, its home, and the board groups it gets."""

    name: str
    group: str
    home: Path
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Places:
    """Where the unit and the rule go: under / for real, under --root DIR for a test."""

    root: Path

    @property
    def unit(self) -> Path:
        return self.root / "etc" / "systemd" / "system" / UNIT_NAME

    @property
    def rules(self) -> Path:
        return self.root / "etc" / "udev" / "rules.d" / RULES_NAME


def installing_user(env: Mapping[str, str], uid: int) -> str:
    """The user the install is for: SUDO_USER when run as root through sudo, else the user running it."""
    sudo = env.get("SUDO_USER", "")
    if uid == 0 and sudo and sudo != "root":
        return sudo
    return pwd.getpwuid(uid).pw_name


def _group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def service_user(name: str) -> ServiceUser:
    """The account `name` as the service needs it; SystemExit naming it when there is no such user."""
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        raise SystemExit(f"dboard service: error: no user {name!r} on this system") from None
    group = grp.getgrgid(entry.pw_gid).gr_name
    return ServiceUser(name, group, Path(entry.pw_dir), tuple(g for g in BOARD_GROUPS if _group_exists(g)))


def project_dboard() -> Path:
    """This project's `dboard`: the console script beside the Python running it (the project's venv)."""
    dboard = Path(sys.executable).with_name("dboard")
    if not os.access(dboard, os.X_OK):
        raise SystemExit(f"dboard service: error: {dboard} is not there: run the install with the venv's "
                         "dboard (sudo .venv/bin/dboard service install)")
    return dboard


def unit_text(user: ServiceUser, dboard: Path, project: Path = PROJECT) -> str:
    """The unit for `user`: the template with its @NAME@ fields filled in."""
    groups = f"SupplementaryGroups={' '.join(user.groups)}\n" if user.groups else ""
    fields = {"@USER@": user.name, "@GROUP@": user.group, "@HOME@": str(user.home), "@DBOARD@": str(dboard),
              "@PROJECT@": str(project)}
    text = TEMPLATE.read_text(encoding="utf-8").replace("@SUPPLEMENTARY_GROUPS@\n", groups)
    for key, value in fields.items():
        text = text.replace(key, value)
    return text


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``dboard service install|uninstall``."""
    p = sub.add_parser("service", help="install or remove the systemd service that runs dboard play at boot",
                       description="Write (or remove) the systemd unit that runs `dboard play` at boot for "
                                   "the user who runs the install (SUDO_USER under sudo), and the udev rule "
                                   "that names a serial board /dev/draughts-board; then reload systemd and "
                                   "udev. Run it with sudo.")
    actions = p.add_subparsers(dest="service_action", metavar="ACTION", required=True)
    for name, text, func in (
            ("install", "write the unit and the udev rule, reload, enable and start the service", install),
            ("uninstall", "stop and disable the service, remove the unit and the rule, reload", uninstall)):
        a = actions.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        a.add_argument("--user", help="the account to run as (default: SUDO_USER under sudo, else you)")
        a.add_argument("--root", type=Path, metavar="DIR",
                       help="write under DIR instead of / and run no systemctl or udevadm (for tests)")
        a.add_argument("--dry-run", action="store_true", help="say what would be done, change nothing")
        a.set_defaults(func=func)


def _places(args: argparse.Namespace) -> Places:
    return Places(args.root if args.root is not None else Path("/"))


def install(args: argparse.Namespace) -> int:
    """Write the unit and the rule; on the real system reload systemd and udev and start the service."""
    user = service_user(args.user or installing_user(os.environ, os.getuid()))
    text, places = unit_text(user, project_dboard()), _places(args)
    commands = [["systemctl", "daemon-reload"], ["systemctl", "enable", "--now", "draughts-board"],
                ["udevadm", "control", "--reload"], ["udevadm", "trigger"]]
    if args.dry_run:
        print(f"would write {places.unit}:\n{text}")
        print(f"would copy {RULES} to {places.rules}")
        _commands(commands, args, dry=True)
        return 0
    _write(places.unit, text)
    print(f"wrote {places.unit}: runs {project_dboard()} play as {user.name} (group {user.group}"
          f"{', also ' + ' '.join(user.groups) if user.groups else ''}), home {user.home}")
    _write(places.rules, RULES.read_text(encoding="utf-8"))
    print(f"wrote {places.rules}: a serial board appears as /dev/draughts-board")
    status = _commands(commands, args)
    print(f"settings: {user.home}/.config/draughts-board/config.toml (e.g. profile = \"8x8-gpio\"); "
          "log: journalctl -u draughts-board -f")
    return status


def uninstall(args: argparse.Namespace) -> int:
    """Stop and disable the service, remove the unit and the rule, reload systemd and udev."""
    places = _places(args)
    status = _commands([["systemctl", "disable", "--now", "draughts-board"]], args, dry=args.dry_run)
    for path in (places.unit, places.rules):
        if not path.exists():
            print(f"{path}: not there")
        elif args.dry_run:
            print(f"would remove {path}")
        else:
            try:
                path.unlink()
            except PermissionError:
                raise SystemExit(f"dboard service: error: cannot remove {path}: permission denied (run it "
                                 "with sudo)") from None
            print(f"removed {path}")
    reload = [["systemctl", "daemon-reload"], ["udevadm", "control", "--reload"]]
    return _commands(reload, args, dry=args.dry_run) or status


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except PermissionError:
        raise SystemExit(f"dboard service: error: cannot write {path}: permission denied (run it with sudo: "
                         f"sudo {project_dboard()} service install)") from None


def _commands(commands: Sequence[list[str]], args: argparse.Namespace, dry: bool = False) -> int:
    """Run each command (none under --root), saying what was run, skipped or failed; 1 if one failed."""
    status = 0
    for command in commands:
        line = " ".join(command)
        if args.root is not None:
            print(f"not run (--root): {line}")
        elif dry:
            print(f"would run: {line}")
        elif shutil.which(command[0]) is None:
            print(f"skipped: {line} ({command[0]} is not installed here)")
        else:
            done = subprocess.run(command, capture_output=True, text=True, check=False)
            if done.returncode == 0:
                print(f"ran: {line}")
            else:
                print(f"failed: {line} (exit {done.returncode}): {done.stderr.strip()}")
                status = 1
    return status
