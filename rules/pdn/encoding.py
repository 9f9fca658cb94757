"""Decoding PDN bytes: UTF-8 first (BOM dropped), Latin-1/cp1252 fallback per line, each fallback noted.

Old PDN files are often Windows-1252; a file may even mix encodings line by line, so every line is tried
as UTF-8 and only the lines that are not valid UTF-8 are decoded as cp1252 (bytes that cp1252 leaves
undefined as Latin-1). Works on any binary stream, one line at a time (memory stays flat).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

BOM = b"\xef\xbb\xbf"


class EncodingNotice(ValueError):
    """A line that was not UTF-8 and was decoded as cp1252 (a warning, not an error)."""

    def __init__(self, line: int, column: int, byte: int, decoded: str) -> None:
        self.line, self.column, self.byte = line, column, byte
        super().__init__(f"{line}:{column}: byte 0x{byte:02X} is not UTF-8; line decoded as cp1252 "
                         f"(read as {decoded!r})")


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
    """Iterates text lines of a binary stream; `notices` lists the lines that needed the cp1252 fallback."""

    def __init__(self, raw_lines: Iterable[bytes]) -> None:
        self._raw = raw_lines
        self.notices: list[EncodingNotice] = []

    def __repr__(self) -> str:
        return f"<DecodedLines notices={len(self.notices)}>"

    def __iter__(self) -> Iterator[str]:
        for number, raw in enumerate(self._raw, 1):
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            try:
                yield raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                text = decode_line(raw)
                column = len(raw[:exc.start].decode("utf-8", errors="replace")) + 1
                self.notices.append(EncodingNotice(number, column, raw[exc.start], text[column - 1]))
                yield text
