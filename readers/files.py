"""Reading a whole file that may be anything a person or a broken card left there: only a regular file of at
most `limit` bytes is read (a FIFO would hang, a link to /dev/zero would fill the memory)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

MIB = 1024 * 1024


class ReadError(ValueError):
    """A file or message that cannot be read as what it should be: ``str()`` is one line, ``WHERE: REASON``
    (the file, line or field, then what is wrong)."""

    def __init__(self, where: object, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = str(where)
        self.reason = reason


def _kind(mode: int) -> str:
    """What a file that is not regular is, in words."""
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_regular(info: os.stat_result, path: Path | str, what: str, limit: int) -> None:
    """Raise ReadError unless `info` is a regular file of at most `limit` bytes."""
    if not stat.S_ISREG(info.st_mode):
        raise ReadError(path, f"the {what} is {_kind(info.st_mode)}, not a regular file")
    if info.st_size > limit:
        raise ReadError(path, f"the {what} has {info.st_size} bytes, more than the {limit} it may have")


def read_bytes(path: Path | str, *, what: str = "file", limit: int = MIB) -> bytes:
    """The bytes of the regular file `path` (links followed), at most `limit` of them; `what` names the
    file's kind in the error (``exercise progress``)."""
    path = Path(path)
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang before fstat can say what it is.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ReadError(path, f"cannot read the {what}: {exc.strerror or exc}") from None
    try:
        check_regular(os.fstat(fd), path, what, limit)
        with os.fdopen(os.dup(fd), "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise ReadError(path, f"cannot read the {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:   # it grew while being read
        raise ReadError(path, f"the {what} has more than the {limit} bytes it may have")
    return data


def read_text(path: Path | str, *, what: str = "file", limit: int = MIB, errors: str = "strict") -> str:
    """The UTF-8 text of the regular file `path` (see `read_bytes`); ``errors="replace"`` for a file whose
    bad bytes its own reader reports (a PDN)."""
    data = read_bytes(path, what=what, limit=limit)
    try:
        return data.decode("utf-8", errors)
    except UnicodeDecodeError as exc:
        raise ReadError(path, f"the {what} is not UTF-8 text (byte {exc.start})") from None
