"""PDN 3.0 FEN reading and writing ("W:W31-50:B1-20", K prefix, ranges, algebraic squares)."""

from __future__ import annotations

from rules.errors import FenError, InvalidSquareError, shorten
from rules.pieces import Color
from rules.variants import Variant


def _number(text: str) -> int | None:
    """A number of at most 4 ASCII digits (not "²" nor Arabic-Indic digits, which int() reads), or None."""
    return int(text) if 0 < len(text) <= 4 and text.isascii() and text.isdigit() else None


def _square(variant: Variant, token: str, block: str) -> int:
    """A FEN square token (number, or algebraic name on any board); FenError names the block."""
    try:
        return variant.geometry.parse_any(token)
    except InvalidSquareError as exc:
        why = exc if len(token) <= 30 else "not a playing square of this board"
        raise FenError(f"bad square {shorten(token)!r} in FEN block {shorten(block)!r}: {why}") from None


def parse_fen(variant: Variant, fen: str) -> tuple[int, int, int, Color]:
    """Read a FEN into (white, black, kings bitboards, side to move); FenError names the bad token."""
    shown = shorten(fen, 60)  # the FEN as messages quote it (hostile ones can hold megabytes)
    text = fen.strip()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1].strip()
        if text.upper().startswith("FEN"):
            text = text[3:].strip()
    text = text.strip('"').strip()
    if text.endswith("."):
        text = text[:-1]
    if not text:
        raise FenError("empty FEN: expected something like 'W:W31-50:B1-20'")
    parts = [p.strip() for p in text.split(":")]
    turn_token = parts[0].upper()
    if turn_token not in ("W", "B", "?"):
        raise FenError(f"bad side to move {shorten(parts[0])!r} in FEN {shown!r}: expected W, B or ?")
    # PDN 3.0 "?" = unknown: the variant's first player.
    turn = {"W": Color.WHITE, "B": Color.BLACK}.get(turn_token, variant.first)
    sides = [0, 0]
    kings = 0
    seen_colors: set[str] = set()
    for block in parts[1:]:
        if not block:
            continue
        head = block[0].upper()
        if head in ("H", "F") and _number(block[1:]) is not None:
            continue  # half-move clock / move number extensions (lidraughts)
        if head not in ("W", "B"):
            raise FenError(f"bad color block {shorten(block)!r} in FEN {shown!r}: expected it to start with "
                           "W or B")
        if head in seen_colors:
            raise FenError(f"color block {shorten(block)!r} repeats color {head} in FEN {shown!r}")
        seen_colors.add(head)
        color = 0 if head == "W" else 1
        for raw in block[1:].split(","):
            token = raw.strip()
            if not token:
                continue
            king = token[0] in "Kk"
            body = token[1:] if king else token
            if "-" in body:
                low, _, high = body.partition("-")
                lo, hi = _number(low), _number(high)
                if lo is None or hi is None or lo > hi:
                    raise FenError(f"bad range {shorten(token)!r} in FEN block {shorten(block)!r}: expected "
                                   "like 31-50")
                squares = [_square(variant, str(n), block) for n in range(lo, hi + 1)]
            else:
                if not body:
                    raise FenError(f"bad square {token!r} in FEN block {shorten(block)!r}")
                squares = [_square(variant, body, block)]
            for sq in squares:
                bit = 1 << sq
                if (sides[0] | sides[1]) & bit:
                    raise FenError(
                        f"square {variant.geometry.name(sq)} (token {shorten(token)!r}) is given twice in "
                        f"FEN {shown!r}")
                sides[color] |= bit
                if king:
                    kings |= bit
    return sides[0], sides[1], kings, turn


def write_fen(variant: Variant, white: int, black: int, kings: int, turn: Color) -> str:
    """The PDN FEN of a position: squares in numbering order, K before kings, no ranges."""
    g = variant.geometry
    ordered = g.squares if g.numeric else sorted(g.squares)
    blocks = []
    for letter, side in (("W", white), ("B", black)):
        items = [("K" if kings >> s & 1 else "") + g.name(s) for s in ordered if side >> s & 1]
        blocks.append(letter + ",".join(items))
    return f"{turn.letter}:{blocks[0]}:{blocks[1]}"
