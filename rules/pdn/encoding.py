"""Decoding PDN bytes: a byte-order mark picks UTF-8, UTF-16 or UTF-32; without one, UTF-8 line by line
with a cp1252 fallback, each fallback noted.

Old PDN files are often Windows-1252; a file may even mix encodings line by line, so every line is tried
as UTF-8 and only the lines that are not valid UTF-8 are decoded as cp1252 (bytes that cp1252 leaves
undefined as Latin-1). Works on any binary stream a bounded piece at a time: a line longer than the limit
is never held in memory (it is yielded as a short `OverlongLine` for the reader to report). Lines end at
LF, CR LF or a lone CR, as in Python's universal newlines.
"""

from __future__ import annotations

import codecs
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Protocol

from rules.pdn.limits import DEFAULT_LIMITS, OverlongLine

BOM = codecs.BOM_UTF8
# UTF-32-LE's mark starts with UTF-16-LE's: test it first.
WIDE_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
_LONE_CR = re.compile(rb"\r(?!\n)")
_NEWLINE = re.compile(r"\r\n|\r|\n")
_SHOWN = 200  # characters of an overlong line kept for the message


class _Readable(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...


class EncodingNotice(ValueError):
    """A line whose bytes were not what the file's encoding promised (a warning, not an error)."""

    def __init__(self, line: int, column: int, message: str) -> None:
        self.line, self.column = line, column
        super().__init__(f"{line}:{column}: {message}")


def decode_line(raw: bytes) -> str:
    """One line of bytes as text: UTF-8 if valid, else cp1252 (Latin-1 for bytes cp1252 leaves undefined)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        try:
            return raw.decode("cp1252")
        except UnicodeDecodeError:
            return "".join(bytes([b]).decode("cp1252", errors="strict") if b not in _UNDEFINED
                           else chr(b) for b in raw)


_UNDEFINED = frozenset({0x81, 0x8D, 0x8F, 0x90, 0x9D})


class DecodedLines:
    """Iterates the text lines of a binary stream; `notices` lists the lines that were not cleanly decoded.

    `encoding` is "utf-8" (with cp1252 fallback) until a byte-order mark says UTF-16 or UTF-32.
    """

    def __init__(self, raw: _Readable | Iterable[bytes], *, max_line: int = DEFAULT_LIMITS.line) -> None:
        self._raw = raw
        self.max_line = max_line
        self.encoding = "utf-8"
        self.notices: list[EncodingNotice] = []

    def __repr__(self) -> str:
        return f"<DecodedLines {self.encoding} notices={len(self.notices)}>"

    def _pieces(self) -> Iterator[bytes]:
        """The stream in pieces that end at LF, none longer than the line limit allows in UTF-8."""
        readline = getattr(self._raw, "readline", None)
        if readline is None:
            yield from self._raw  # type: ignore[misc]
            return
        limit = 4 * self.max_line + 4  # a UTF-8 character has at most four bytes
        while piece := readline(limit):
            yield piece

    def __iter__(self) -> Iterator[str]:
        pieces = self._pieces()
        first = next(pieces, b"")
        for bom, encoding in WIDE_BOMS:
            if first.startswith(bom):
                self.encoding = encoding
                yield from self._wide(first[len(bom):], pieces)
                return
        if first.startswith(BOM):
            first = first[len(BOM):]
        yield from self._narrow(first, pieces)

    def _narrow(self, first: bytes, pieces: Iterator[bytes]) -> Iterator[str]:
        """UTF-8 (cp1252 fallback) one LF-ended piece at a time, split again at lone CRs."""
        number = 0
        piece = first
        while piece:
            if not piece.endswith(b"\n") and len(piece) > 4 * self.max_line:  # the line goes on: skip it
                number += 1
                yield OverlongLine(piece[:_SHOWN].decode("utf-8", errors="replace"))
                while piece and not piece.endswith(b"\n"):
                    piece = next(pieces, b"")
            else:
                if piece.endswith(b"\n"):
                    piece = piece[:-2] if piece.endswith(b"\r\n") else piece[:-1]
                for raw in _LONE_CR.split(piece):
                    number += 1
                    yield self._decode(raw, number)
            piece = next(pieces, b"")

    def _decode(self, raw: bytes, number: int) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = decode_line(raw)
            column = len(raw[:exc.start].decode("utf-8", errors="replace")) + 1
            self.notices.append(EncodingNotice(
                number, column, f"byte 0x{raw[exc.start]:02X} is not UTF-8; line decoded as cp1252 "
                                f"(read as {text[column - 1]!r})"))
            return text

    def _wide(self, first: bytes, pieces: Iterator[bytes]) -> Iterator[str]:
        """UTF-16 or UTF-32, decoded incrementally; undecodable bytes become U+FFFD, each line noted."""
        decoder = codecs.getincrementaldecoder(self.encoding)(errors="replace")
        texts = (decoder.decode(piece) for piece in itertools.chain((first,), pieces))
        name = self.encoding.upper().removesuffix("-LE").removesuffix("-BE")
        for number, line in enumerate(split_lines(itertools.chain(texts, (decoder.decode(b"", True),)),
                                                  self.max_line), 1):
            if "\ufffd" in line and not isinstance(line, OverlongLine):
                self.notices.append(EncodingNotice(number, line.index("\ufffd") + 1,
                                                   f"bytes that are not valid {name} (read as U+FFFD)"))
            yield line


def split_lines(texts: Iterable[str], max_line: int) -> Iterator[str]:
    """Pieces of text as lines ending at LF, CR LF or CR; a line over `max_line` as a short OverlongLine.

    A line's pieces are joined once, when it ends, so the work stays linear however the text is cut up.
    """
    parts: list[str] = []  # the current line so far
    size = 0
    skipping = False  # inside a line already reported as overlong
    carry = ""  # a CR that ended a piece: perhaps the first half of a CR LF
    for text in texts:
        text, carry = carry + text, ""
        if text.endswith("\r"):
            text, carry = text[:-1], "\r"
        pos = 0
        for match in _NEWLINE.finditer(text):
            if not skipping:
                parts.append(text[pos:match.start()])
                yield "".join(parts)
            parts, size, skipping, pos = [], 0, False, match.end()
        if pos < len(text) and not skipping:
            parts.append(text[pos:])
            size += len(text) - pos
            if size > max_line:
                yield OverlongLine("".join(parts)[:_SHOWN])
                parts, size, skipping = [], 0, True
    if (carry or parts) and not skipping:
        yield "".join(parts)
