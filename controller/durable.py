"""Writing files so that a power cut leaves the old state or the new one, never a torn one, and saying in
plain words why a write failed ("the card is full").

Every write of the data directory goes through these few functions (and ``Journal``), on plain ``os`` calls:
a file replaced whole is written to ``NAME.tmp``, fsynced, renamed and its directory fsynced; a directory
created is fsynced into its parent.
"""

from __future__ import annotations

import contextlib
import errno
import os
from datetime import UTC, datetime
from pathlib import Path

from .errors import ControllerError

TMP_SUFFIX = ".tmp"
DAMAGED_INFIX = ".damaged-"
"""A damaged file kept aside is named ``NAME.damaged-<UTC time>`` (``-2``, ``-3``... when that is taken)."""

_PLAIN = {
    errno.ENOSPC: "the card is full",
    errno.EDQUOT: "the card is full (disk quota)",
    errno.EROFS: "the card is read-only",
    errno.EACCES: "the data directory is not writable (permission denied)",
    errno.EPERM: "the data directory is not writable (operation not permitted)",
    errno.EIO: "the card failed (input/output error)",
}


class SaveError(ControllerError, ValueError):
    """Something could not be saved: ``str()`` says what and why in plain words, e.g. "can't save the move:
    the card is full"; ``reason`` is the why alone."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"can't {what}: {reason}")
        self.what = what
        self.reason = reason

    @classmethod
    def of(cls, what: str, exc: OSError) -> SaveError:
        """The SaveError for ``exc`` (its errno in plain words); chain it with ``raise ... from exc``."""
        return cls(what, plain_reason(exc))


def plain_reason(exc: OSError) -> str:
    """Why a write failed, in the words a player understands ("the card is full")."""
    if exc.errno in _PLAIN:
        return _PLAIN[exc.errno]
    return exc.strerror or str(exc)


def fsync_dir(path: Path) -> None:
    """Make the directory's entries (a file created, renamed or removed in it) durable."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def make_dir(path: Path) -> None:
    """Create ``path`` and any missing parents, each fsynced into its parent (a power cut right after must
    not lose the directory, and with it what is written into it)."""
    path = Path(path)
    missing = []
    while not path.is_dir():
        missing.append(path)
        if path.parent == path:
            break
        path = path.parent
    for directory in reversed(missing):
        with contextlib.suppress(FileExistsError):
            os.mkdir(directory)
        fsync_dir(directory.parent)


def write_all(fd: int, data: bytes, offset: int | None = None) -> None:
    """Write all of ``data`` (at ``offset`` when given), however short the single writes are."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view) if offset is None else os.pwrite(fd, view, offset)
        if written <= 0:
            raise OSError(errno.EIO, "nothing written")
        view = view[written:]
        if offset is not None:
            offset += written


def durable_replace(path: Path, data: str | bytes) -> None:
    """Replace ``path`` by ``data`` so that a power cut leaves the old file or the new one, never a torn or
    empty one: write ``path.tmp``, fsync it, rename it over ``path``, fsync the directory. A failed write
    removes the temporary file and raises the OSError."""
    path = Path(path)
    tmp = path.with_name(path.name + TMP_SUFFIX)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            write_all(fd, raw)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(path.parent)


def keep_copy(source: Path, copy: Path) -> None:
    """Keep ``source``'s bytes under the name ``copy`` (a hard link, or a durable copy where links are not
    supported), so that ``source`` can then be replaced."""
    try:
        os.link(source, copy)
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EXDEV, errno.EMLINK):
            raise
        durable_replace(copy, Path(source).read_bytes())
        return
    fsync_dir(copy.parent)


def damaged_name(path: Path, when: datetime | None = None) -> Path:
    """A free name ``NAME.damaged-<UTC time>`` beside ``path`` for a damaged file kept aside."""
    stamp = f"{(when or datetime.now(UTC)):%Y%m%dT%H%M%SZ}"
    candidate = path.with_name(f"{path.name}{DAMAGED_INFIX}{stamp}")
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}{DAMAGED_INFIX}{stamp}-{number}")
        number += 1
    return candidate


def set_aside_said(path: Path) -> str:
    """``set_aside``, in words for a notice: where the damaged file went, or why it stays."""
    try:
        return f"kept as {set_aside(path).name}"
    except OSError as exc:
        return f"it could not be moved aside ({plain_reason(exc)}) and will be replaced"


def set_aside(path: Path) -> Path:
    """Move the damaged file ``path`` to a free ``damaged_name`` beside it (durably), so that it is kept for
    a person to look at and never read again at the next start; returns where it went."""
    aside = damaged_name(path)
    os.replace(path, aside)
    fsync_dir(path.parent)
    return aside
