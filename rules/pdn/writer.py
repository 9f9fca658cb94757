"""The PDN writer: canonical text that the reader reads back to an equal game.

Canonical form: the seven standard tags first (Event, Site, Date, Round, White, Black, Result, those
present), then GameType, FEN, SetUp, then the other tags in their original order; move text with a move
number before every first-player move (and `N...` where a second-player move follows a comment or a
variation), captures joined by `x` (PDN 3.0: Russian's `c3:e5` is written `c3xe5`), standard NAGs 1-6
written as glyphs (`!`, `?`, `!!`, `??`, `!?`, `?!`) after the move, others as `$n`; clocks as
`{[%clock w0:05:12 b0:04:58] [%wall ...]}`; lines at most 80 columns; a blank line between games.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TextIO

from rules.notation import pdn_text
from rules.pdn.model import NAG_GLYPHS, SEVEN_TAGS, Line, PdnGame
from rules.pdn.tokens import is_move_text

WIDTH = 80
_SETUP_TAGS = ("GameType", "FEN", "SetUp")


class Mark(enum.Enum):
    """Layout marks among the words of move text: variation brackets and a forced line break."""

    OPEN = "("
    CLOSE = ")"
    BREAK = "\n"


Word = str | Mark


def escape(value: str) -> str:
    """A tag value with `\\` and `"` escaped, line breaks made spaces (a tag pair is one line)."""
    value = value.replace("\\", "\\\\").replace('"', '\\"')
    return value.replace("\r", " ").replace("\n", " ") if "\r" in value or "\n" in value else value


def ordered_tags(tags: dict[str, str]) -> list[tuple[str, str]]:
    """Tags in canonical order: seven standard ones, then GameType/FEN/SetUp, then the rest as given."""
    first = [(k, tags[k]) for k in (*SEVEN_TAGS, *_SETUP_TAGS) if k in tags]
    known = {*SEVEN_TAGS, *_SETUP_TAGS}
    return first + [(k, v) for k, v in tags.items() if k not in known]


def _comment_words(text: str, out: list[Word]) -> None:
    words = text.split()
    if "}" in text or "{" in text:  # cannot be a brace comment: a rest-of-line comment, then a line break
        out.extend((";" + " ".join(words), Mark.BREAK))
    elif not words:
        out.append("{}")
    else:
        words[0] = "{" + words[0]
        words[-1] += "}"
        out.extend(words)


def _line_words(line: Line, ply: int, out: list[Word]) -> None:
    for comment in line.comments:
        _comment_words(comment, out)
    need_number = True
    for node in line.moves:
        number = ""
        if ply % 2 == 0:
            number = f"{ply // 2 + 1}. "
        elif need_number:
            number = f"{ply // 2 + 1}... "
        nags = list(node.nags)
        text = pdn_text(node.text)
        if not is_move_text(text):   # a forged text would be read back as other moves, tags or games
            raise ValueError(f"not a move to write as PDN: {node.text[:40]!r}")
        if node.strength:
            text += node.strength
        elif nags and nags[0] in NAG_GLYPHS:
            text += NAG_GLYPHS[nags.pop(0)]
        out.append(number + text)  # a move number stays on the line of its move
        out.extend(f"${nag}" for nag in nags)
        if node.clock is not None:
            _comment_words(str(node.clock), out)
        for comment in node.comments:
            _comment_words(comment, out)
        for variation in node.variations:
            out.append(Mark.OPEN)
            _line_words(variation, ply, out)
            out.append(Mark.CLOSE)
        need_number = bool(node.comments or node.clock or node.variations)
        ply += 1


def wrap(words: Iterable[Word], width: int = WIDTH) -> str:
    """Join words with single spaces into lines of at most `width` columns (`(` and `)` hug their words)."""
    lines: list[str] = []
    current = ""
    glue = False
    for word in words:
        if word is Mark.OPEN:
            glue = True
            if current and len(current) + 2 <= width:
                current += " ("
            else:
                if current:
                    lines.append(current)
                current = "("
            continue
        if word is Mark.BREAK:
            lines.append(current)
            current = ""
        elif word is Mark.CLOSE:
            if len(current) + 1 <= width:
                current += ")"
            else:
                lines.append(current)
                current = ")"
        elif glue and current.endswith("(") and len(current) + len(word) <= width:
            current += word
        elif not current:
            current = word
        elif len(current) + 1 + len(word) <= width:
            current += " " + word
        else:
            lines.append(current)
            current = word
        glue = False
    if current:
        lines.append(current)
    return "\n".join(lines)


def write_game(game: PdnGame) -> str:
    """The game as canonical PDN text (tags, blank line, move text ending with the result, newline)."""
    tag_text = "".join(f'[{name} "{escape(value)}"]\n' for name, value in ordered_tags(game.tags))
    words: list[Word] = []
    _line_words(game.mainline, game.start_ply, words)
    words.append(game.result)
    body = wrap(words)
    return (tag_text + "\n" if tag_text else "") + body + "\n"


def write_games(games: Iterable[PdnGame], stream: TextIO) -> int:
    """Write games separated by blank lines; returns how many were written."""
    count = 0
    for game in games:
        if count:
            stream.write("\n")
        stream.write(write_game(game))
        count += 1
    return count
