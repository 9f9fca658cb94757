"""The data directory (journal, ``games/``, ratings): one writer at a time, and its health at start.

``DataDirLock`` is an exclusive ``flock`` on ``DATA_DIR/lock`` taken by every command that writes the
directory (``dboard play``, ``dboard ratings --add``); the holder writes its PID, command and web port into
the file, so a second one can say who holds it. ``prepare`` runs when a board starts: it creates the
directories (fsynced into their parents), says when the directory cannot be written or is almost full, and
settles PDN files a crash left half-renamed in ``games/`` (a complete ``.pdn.tmp`` joins the library, a torn
one is set aside as ``.pdn.tmp.damaged-<UTC time>``).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from .durable import TMP_SUFFIX, fsync_dir, make_dir, plain_reason, set_aside
from .errors import ControllerError

log = logging.getLogger(__name__)

LOCK_NAME = "lock"
GAMES_DIR = "games"
MIN_FREE_BYTES = 1 << 20
"""Less free space than this on the data directory's card is reported at start."""


class DataDirBusy(ControllerError, ValueError):
    """Another program writes the data directory (names it: PID, command, web port)."""

    def __init__(self, directory: Path, who: str) -> None:
        super().__init__(f"the data directory {directory} is in use by {who}: stop it first, or give this "
                         f"one another --data-dir")


@dataclass(frozen=True)
class Notice:
    """Something found at start for the player to know: ``level`` (info, warning, error) and the text."""

    level: str
    text: str


def holder(directory: Path) -> str | None:
    """Who holds the lock of ``directory`` ("dboard play (PID 4242, web port 8080)"), None when nobody does.
    Reads only: nothing is created or changed."""
    try:
        fd = os.open(Path(directory) / LOCK_NAME, os.O_RDONLY)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _describe(os.pread(fd, 4096, 0))
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _describe(raw: bytes) -> str:
    try:
        info = json.loads(raw.decode("utf-8"))
        command, pid, port = info["command"], int(info["pid"]), info.get("port")
    except (ValueError, KeyError, TypeError, AttributeError):
        return "another program (its PID is not recorded yet)"
    where = f", web port {port}" if port else ""
    return f"{command} (PID {pid}{where})"


class DataDirLock:
    """The exclusive lock of one data directory, held from ``acquire`` to ``release`` (or ``with``)."""

    def __init__(self, directory: Path, command: str, port: int | None = None) -> None:
        self.directory = Path(directory)
        self.command = command
        self.port = port
        self._fd: int | None = None

    def acquire(self) -> DataDirLock:
        """Take the lock, or raise DataDirBusy naming the holder. It is held on a read-only descriptor, so a
        read-only card can be locked too when the file is there; when it is not, nobody can write there
        anyway and the board goes on without it (the start-up checks say the card is read-only)."""
        path = self.directory / LOCK_NAME
        try:
            make_dir(self.directory)
            fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError as exc:
            if exc.errno != errno.EROFS:
                raise
            try:
                fd = os.open(path, os.O_RDONLY)
            except FileNotFoundError:
                log.warning("%s is read-only: nobody can write there, no lock is needed", self.directory)
                return self
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            who = _describe(os.pread(fd, 4096, 0))
            os.close(fd)
            raise DataDirBusy(self.directory, who) from None
        self._fd = fd
        info = {"pid": os.getpid(), "command": self.command, "port": self.port}
        self._note(json.dumps(info).encode("utf-8") + b"\n")
        return self

    def _note(self, text: bytes) -> None:
        """Say who holds the lock in its file (a courtesy for the next one: the lock itself is the flock)."""
        with contextlib.suppress(OSError):
            fd = os.open(self.directory / LOCK_NAME, os.O_WRONLY | os.O_TRUNC)
            try:
                os.write(fd, text)
            finally:
                os.close(fd)

    def release(self) -> None:
        """Let the next writer in."""
        if self._fd is not None:
            self._note(b"")
            os.close(self._fd)   # closing drops the flock
            self._fd = None

    def __enter__(self) -> DataDirLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()

    def __repr__(self) -> str:
        return f"DataDirLock({str(self.directory)!r}, {self.command!r}, held={self._fd is not None})"


def prepare(directory: Path) -> list[Notice]:
    """Make the data directory and ``games/`` (fsynced into their parents), check it can be written and has
    room, and settle leftover ``games/*.pdn.tmp`` files. Never raises: what goes wrong is a Notice."""
    directory = Path(directory)
    try:
        make_dir(directory)
    except OSError as exc:
        return [Notice("error", f"The data directory {directory} cannot be created ({plain_reason(exc)}): "
                                f"moves are refused until it can.")]
    problem = _unwritable(directory)
    if problem is None:
        try:
            make_dir(directory / GAMES_DIR)
        except OSError as exc:
            problem = plain_reason(exc)
    if problem is not None:
        return [Notice("error", f"The data directory {directory} cannot be written ({problem}): moves are "
                                f"refused until it can.")]
    notices = []
    free = _free_bytes(directory)
    if free is not None and free < MIN_FREE_BYTES:
        notices.append(Notice("warning", f"The data directory {directory} has only {free // 1024} KiB free: "
                                         f"moves are refused once the card is full; free some space."))
    return notices + _settle_leftovers(directory / GAMES_DIR)


def _unwritable(directory: Path) -> str | None:
    """Why nothing can be written in ``directory`` (a probe file is written, synced and removed), or None."""
    probe = directory / ".write-test"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, b"x")
            os.fsync(fd)
        finally:
            os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        return plain_reason(exc)
    return None


def _free_bytes(directory: Path) -> int | None:
    try:
        stat = os.statvfs(directory)
    except OSError:
        return None
    return stat.f_bavail * stat.f_frsize


def complete_pdn(text: str) -> bool:
    """Whether ``text`` is one whole PDN game as the library writes it: it reads as exactly one game whose
    result token ends the text and matches its Result tag."""
    from rules.pdn import PdnError, read_games

    if "\0" in text:
        return False
    try:
        games = read_games(text)
    except (PdnError, ValueError):
        return False
    if len(games) != 1 or games[0].errors:
        return False
    result = games[0].tags.get("Result")
    return result is not None and games[0].result == result and text.rstrip().endswith(result)


def _settle_leftovers(games: Path) -> list[Notice]:
    """A ``NAME.pdn.tmp`` left by a crash between writing and renaming: a complete one is the newest version
    of NAME.pdn and replaces it; a torn one is set aside."""
    notices = []
    for tmp in sorted(games.glob(f"*.pdn{TMP_SUFFIX}")):
        target = tmp.with_name(tmp.name.removesuffix(TMP_SUFFIX))
        try:
            text = tmp.read_bytes().decode("utf-8", errors="replace")
            if complete_pdn(text):
                os.replace(tmp, target)
                fsync_dir(games)
                notices.append(Notice("info", f"The game {target.name}, left unfinished on disk by a crash, "
                                              f"is in the library now."))
            else:
                aside = set_aside(tmp)
                notices.append(Notice("warning", f"A torn copy of the game {target.name} (a crash while it "
                                                 f"was saved) is kept aside as {aside}."))
        except OSError as exc:
            notices.append(Notice("warning", f"The leftover {tmp} could not be settled "
                                             f"({plain_reason(exc)})."))
    return notices

