"""`dboard service install | uninstall` (issue 28 item 14): the unit is written for the user who installs it
(Raspberry Pi OS Bookworm has no `pi` user), checked by systemd-analyze; --root and --dry-run for tests."""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller import service_cli
from controller.cli import main

ROOT = Path(__file__).resolve().parents[2]
ME = pwd.getpwuid(os.getuid())


def _verify(unit: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    assert analyze is not None, "systemd-analyze is missing: ./dev test installs the systemd package"
    return subprocess.run([analyze, "verify", str(unit)], capture_output=True, text=True, timeout=60)


def test_install_writes_a_unit_for_the_installing_user_that_systemd_accepts(tmp_path: Path, capsys) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    unit = tmp_path / "etc" / "systemd" / "system" / "draughts-board.service"
    text = unit.read_text(encoding="utf-8")
    dboard = Path(sys.executable).with_name("dboard")
    assert f"\nUser={ME.pw_name}\n" in text and f"\nEnvironment=HOME={ME.pw_dir}\n" in text
    assert f"\nExecStart={dboard} play\n" in text and f"\nWorkingDirectory={ROOT}\n" in text
    assert "@" not in text.split("[Unit]")[1] and "pi" not in text.split() and "/home/pi" not in text
    assert "\nLimitNOFILE=8192\n" in text and "\nRestart=always\n" in text
    checked = _verify(unit)
    assert checked.returncode == 0 and checked.stderr == "", checked.stderr
    rules = tmp_path / "etc" / "udev" / "rules.d" / "99-draughts-board.rules"
    assert rules.read_bytes() == (ROOT / "hardware" / "udev" / "99-draughts-board.rules").read_bytes()
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"wrote {unit}: runs {dboard} play as {ME.pw_name} (group ")
    assert out[1] == f"wrote {rules}: a serial board appears as /dev/draughts-board"
    assert out[2:6] == ["not run (--root): systemctl daemon-reload",
                        "not run (--root): systemctl enable --now draughts-board",
                        "not run (--root): udevadm control --reload", "not run (--root): udevadm trigger"]


def test_a_unit_for_another_account_names_its_group_and_home(tmp_path: Path) -> None:
    """What sudo's SUDO_USER resolves to: here the system's `nobody` (its own group and home)."""
    other = pwd.getpwnam("nobody")
    assert main(["service", "install", "--root", str(tmp_path), "--user", "nobody"]) == 0
    unit = tmp_path / "etc" / "systemd" / "system" / "draughts-board.service"
    text = unit.read_text(encoding="utf-8")
    group = service_cli.grp.getgrgid(other.pw_gid).gr_name
    assert "\nUser=nobody\n" in text and f"\nGroup={group}\n" in text and f"HOME={other.pw_dir}\n" in text
    assert _verify(unit).returncode == 0


def test_the_install_is_for_the_user_who_typed_sudo() -> None:
    assert service_cli.installing_user({"SUDO_USER": "nobody"}, 0) == "nobody"
    assert service_cli.installing_user({"SUDO_USER": "root"}, 0) == "root"
    assert service_cli.installing_user({}, os.getuid()) == ME.pw_name
    daemon = pwd.getpwnam("daemon").pw_uid   # not root: a SUDO_USER left from an outer sudo changes nothing
    assert service_cli.installing_user({"SUDO_USER": "nobody"}, daemon) == "daemon"


def test_the_board_groups_are_only_those_that_exist(tmp_path: Path) -> None:
    user = service_cli.service_user(ME.pw_name)
    assert set(user.groups) <= set(service_cli.BOARD_GROUPS)
    text = service_cli.unit_text(user, Path("/x/dboard"))
    line = [x for x in text.splitlines() if x.startswith("SupplementaryGroups=")]
    assert line == ([f"SupplementaryGroups={' '.join(user.groups)}"] if user.groups else [])
    bare = service_cli.unit_text(service_cli.ServiceUser("u", "g", Path("/h"), ()), Path("/x/dboard"))
    assert "SupplementaryGroups" not in bare and "@" not in bare.split("[Unit]")[1]


def test_dry_run_changes_nothing_and_says_what_it_would_do(tmp_path: Path, capsys) -> None:
    assert main(["service", "install", "--dry-run", "--root", str(tmp_path)]) == 0
    assert list(tmp_path.iterdir()) == []
    out = capsys.readouterr().out
    assert out.startswith(f"would write {tmp_path}/etc/systemd/system/draughts-board.service:\n")
    assert f"\nUser={ME.pw_name}\n" in out and "would copy " in out


def test_uninstall_removes_what_install_wrote(tmp_path: Path, capsys) -> None:
    assert main(["service", "install", "--root", str(tmp_path)]) == 0
    capsys.readouterr()
    assert main(["service", "uninstall", "--root", str(tmp_path)]) == 0
    unit = tmp_path / "etc" / "systemd" / "system" / "draughts-board.service"
    rules = tmp_path / "etc" / "udev" / "rules.d" / "99-draughts-board.rules"
    assert not unit.exists() and not rules.exists()
    assert f"removed {unit}" in capsys.readouterr().out
    assert main(["service", "uninstall", "--root", str(tmp_path)]) == 0
    assert f"{unit}: not there" in capsys.readouterr().out


def test_an_unknown_user_is_one_line_naming_it(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["service", "install", "--root", str(tmp_path), "--user", "no-such-user-28"])
    assert str(exc.value) == "dboard service: error: no user 'no-such-user-28' on this system"
