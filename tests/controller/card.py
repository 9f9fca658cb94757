"""A card (the data directory's filesystem) that fills up or turns read-only on demand.

``TmpfsCard`` is a real, small tmpfs (mounting needs root, as in this project's test containers): the kernel
itself answers "No space left on device" and "Read-only file system". Where mounting is not allowed,
``FaultCard`` wraps the ``os`` calls of the write path (open for writing, write, pwrite, ftruncate, rename,
link, unlink, mkdir, statvfs) and answers the same errors for paths on the card, writing a short last chunk
when it fills up, as a real card does. ``open_card`` gives the tmpfs when it can be mounted, else the wrapper,
so the tests run everywhere. The wrapper can also be driven from another process through a control file
(``command`` runs ``dboard`` through ``card_driver.py``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pytest

FULL, READ_ONLY = "full", "read-only"
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_TRUNC | os.O_APPEND


class TmpfsCard:
    """A 4 MiB tmpfs mounted under ``base``; the data directory is ``path``."""

    kind = "tmpfs"

    def __init__(self, base: Path) -> None:
        self.mount = base / "card"
        self.mount.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(self.mount)], check=True,
                       capture_output=True)
        self.path = self.mount / "data"
        self._filler = self.mount / "filler"

    def fill(self, leave: int = 0) -> None:
        """Fill the card, then free ``leave`` bytes."""
        chunk = b"\0" * 65536
        fd = os.open(self._filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            with contextlib.suppress(OSError):
                while True:
                    os.write(fd, chunk)
            with contextlib.suppress(OSError):   # the last page of the card
                while True:
                    os.write(fd, b"\0" * 512)
            if leave:
                os.ftruncate(fd, max(0, os.fstat(fd).st_size - leave))
        finally:
            os.close(fd)

    def free(self) -> None:
        self._filler.unlink(missing_ok=True)

    def read_only(self) -> None:
        self._remount("ro")

    def writable(self) -> None:
        self._remount("rw")

    def _remount(self, how: str) -> None:
        subprocess.run(["mount", "-o", f"remount,{how}", str(self.mount)], check=True, capture_output=True)

    def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.mount)], check=False, capture_output=True)

    def __repr__(self) -> str:
        return f"TmpfsCard({str(self.mount)!r})"


class FaultCard:
    """A plain directory whose writes fail on demand: ``mode`` is "", FULL or READ_ONLY (or read from the
    ``control`` file when one is given, for another process). ``budget`` bytes may still be written when
    full."""

    kind = "wrapper"

    def __init__(self, base: Path, control: Path | None = None) -> None:
        self.path = base / "data"
        self.root = os.path.realpath(base)
        self.control = control
        self._mode = ""
        self.budget = 0
        self._real: dict[str, Any] = {}

    # --- the switches ---------------------------------------------------------------------------------
    @property
    def mode(self) -> str:
        if self.control is not None:
            try:
                text = self.control.read_text().split()
            except OSError:
                text = []
            if text and text[0] == FULL and self._mode != FULL:   # newly full: the budget starts
                self.budget = int(text[1]) if len(text) > 1 else 0
            self._mode = text[0] if text else ""
        return self._mode

    def _set(self, mode: str, budget: int = 0) -> None:
        if self.control is not None:   # for the process that installed the wrapper
            self.control.write_text(f"{mode} {budget}")
        self._mode, self.budget = mode, budget

    def fill(self, leave: int = 0) -> None:
        self._set(FULL, leave)

    def free(self) -> None:
        self._set("")

    def read_only(self) -> None:
        self._set(READ_ONLY)

    def writable(self) -> None:
        self._set("")

    def close(self) -> None:
        for name, function in self._real.items():
            setattr(os, name, function)
        self._real.clear()

    # --- the wrapper -----------------------------------------------------------------------------------
    def install(self, monkeypatch: pytest.MonkeyPatch | None = None) -> FaultCard:
        """Wrap the ``os`` write calls (through ``monkeypatch`` when given, else until ``close``)."""
        real = {name: getattr(os, name) for name in ("open", "write", "pwrite", "ftruncate", "replace",
                                                      "rename", "link", "unlink", "mkdir", "statvfs")}
        wrapped = {
            "open": lambda path, flags, *a, **k: (self._check(path, _writes(path, flags), False)
                                                  or real["open"](path, flags, *a, **k)),
            "write": lambda fd, data: self._write(real["write"], fd, data),
            "pwrite": lambda fd, data, offset: self._write(real["pwrite"], fd, data, offset),
            "ftruncate": lambda fd, length: self._check(self._fd_path(fd), True, False)
            or real["ftruncate"](fd, length),
            "replace": lambda a, b, **k: self._check(b, True, False) or real["replace"](a, b, **k),
            "rename": lambda a, b, **k: self._check(b, True, False) or real["rename"](a, b, **k),
            "link": lambda a, b, **k: self._check(b, True, False) or real["link"](a, b, **k),
            "unlink": lambda path, **k: self._check(path, True, False) or real["unlink"](path, **k),
            "mkdir": lambda path, *a, **k: self._check(path, True, False) or real["mkdir"](path, *a, **k),
            "statvfs": lambda path: self._statvfs(real["statvfs"], path),
        }
        for name, function in wrapped.items():
            if monkeypatch is not None:
                monkeypatch.setattr(os, name, function)
            else:
                self._real[name] = real[name]
                setattr(os, name, function)
        return self

    def _on_card(self, path: Any) -> bool:
        if path is None or isinstance(path, int):
            return False
        return os.path.realpath(os.fspath(path)).startswith(self.root)

    def _fd_path(self, fd: int) -> str | None:
        try:
            return os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return None

    def _check(self, path: Any, writes: bool, data: bool) -> None:
        """Raise what the card answers to a write at ``path`` (None: go ahead)."""
        if not writes or not self._on_card(path):
            return None
        mode = self.mode
        if mode == READ_ONLY:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))
        if mode == FULL and data and self.budget <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.fspath(path))
        return None

    def _write(self, real: Any, fd: int, data: Any, *offset: int) -> int:
        path = self._fd_path(fd)
        self._check(path, True, True)
        if self._on_card(path) and self.mode == FULL:
            data = bytes(data)[:self.budget]   # the last blocks of the card
            self.budget -= len(data)
        return real(fd, data, *offset)

    def _statvfs(self, real: Any, path: Any) -> os.statvfs_result:
        result = real(path)
        if not self._on_card(path) or not self.mode:
            return result
        values = list(result)
        if self.mode == FULL:
            values[4] = self.budget // max(1, result.f_frsize)   # f_bavail
        else:
            values[8] |= os.ST_RDONLY
        return os.statvfs_result(values)

    def __repr__(self) -> str:
        return f"FaultCard({str(self.path)!r}, mode={self.mode!r})"


def _writes(path: Any, flags: int) -> bool:
    """Whether opening ``path`` with ``flags`` writes (creating a file that is not there yet writes)."""
    return bool(flags & _WRITE_FLAGS) or bool(flags & os.O_CREAT and not os.path.exists(path))


def can_mount() -> bool:
    """Whether this process may mount a tmpfs (root with the capability to mount); DBOARD_TEST_NO_MOUNT=1
    says no, to run here what a CI machine without mounts runs."""
    if os.geteuid() != 0 or os.environ.get("DBOARD_TEST_NO_MOUNT") == "1":
        return False
    probe = Path("/proc/self/status").read_text()
    caps = next((line.split()[1] for line in probe.splitlines() if line.startswith("CapEff:")), "0")
    return bool(int(caps, 16) & (1 << 21))   # CAP_SYS_ADMIN


def command(card: FaultCard, *args: str) -> list[str]:
    """The command line running ``dboard ARGS`` through card_driver.py: the wrapper installed in that process
    and switched by ``card``'s control file."""
    assert card.control is not None
    driver = Path(__file__).with_name("card_driver.py")
    return [sys.executable, str(driver), str(card.path.parent), str(card.control), *args]


def _tmpfs(base: Path) -> TmpfsCard | None:
    if can_mount():
        try:
            return TmpfsCard(base)
        except subprocess.CalledProcessError:
            pass
    return None


def open_card(base: Path, monkeypatch: pytest.MonkeyPatch, kind: str = "card") -> TmpfsCard | FaultCard:
    """``kind`` "card": a real tmpfs when it can be mounted here, else the wrapper; "wrapper": the wrapper,
    installed in this process."""
    return (_tmpfs(base) if kind == "card" else None) or FaultCard(base).install(monkeypatch)


def open_card_for_a_process(base: Path) -> FaultCard:
    """The wrapper for a ``dboard`` run by ``command`` (a card that turns read-only under a running program:
    see test_session_storage.py for why not a tmpfs), switched through a control file."""
    return FaultCard(base / "wrapped", control=base / "control")
