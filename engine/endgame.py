"""Endgame tables: the win, draw or loss of every position with few pieces, by our own retrograde analysis.

What a table knows: the game as the moves make it, and nothing else. A position is a win when the side to
move can force the opponent into a position without a legal move (in giveaway, the side without a move
wins), a loss when the opponent can, and a draw when neither can: the value theory gives with no move
counter. Turkish draughts' lone king against a lone man, a rule of the position, ends the game as the rules
say. The draw rules that count moves or positions (threefold repetition, FMJD's 25-move king rule and
16/5-move endgame rule, the Russian federation's limits on long king endings) are not in the tables: the
search keeps those counters and applies them before it probes, so a table "win" means "wins with best play
if the counters allow", and `dboard endgame` says so.

A table holds one signature (white men, white kings, black men, black kings) of one variant, both sides
to move, in 2 bits a position (engine/csrc/dendgame.h describes the index, shared with the C builder and
probe). Captures and promotions lead into tables built before (fewer pieces, or fewer men), so a table is
built after every one it reaches. Files live in ``<data dir>/endgames/<variant>-<rules digest>/`` with a
header and a SHA-256 of the whole, and a file that does not check out is built again, never trusted.
`build_reference` is the plain fixed point over successors, the readable reference and the tests' oracle;
the C builder (retrograde, `engine._native.endgame_build`) builds the tables when the extension is built.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import math
import os
import struct
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules import Board, Color, Variant
from rules.generators import movegen_for
from rules.native import rules_params, unsupported

logger = logging.getLogger(__name__)

NONE, WIN, DRAW, LOSS = 0, 1, 2, 3
VALUE_NAMES = {WIN: "win", DRAW: "draw", LOSS: "loss"}
TABLE_WIN = 50_000
"""A won ending's score in the search (below the mate scores, engine.limits.MATE_BOUND), plus the evaluation
within TABLE_SPAN so that among won moves the winner prefers progress."""
TABLE_SPAN = 5_000
MAX_GROUP = 5   # pieces of one kind and color a table can hold (dendgame.h EG_MAXK - 1)

DEFAULT_DATA_DIR = Path("~/.local/share/draughts-board")
"""The default data directory (the same as `dboard play`'s data_dir setting)."""
TABLES_DIR = "endgames"
_MAGIC = b"DBWDL001"
_HEADER = struct.Struct("<8s32s4BQ")   # magic, variant digest, counts, positions
_DIGEST = 32

Progress = Callable[[str], None]


@dataclass(frozen=True, order=True)
class Signature:
    """The material of a table: men and kings of each color."""

    white_men: int
    white_kings: int
    black_men: int
    black_kings: int

    @property
    def counts(self) -> tuple[int, int, int, int]:
        """(white men, white kings, black men, black kings)."""
        return (self.white_men, self.white_kings, self.black_men, self.black_kings)

    @property
    def pieces(self) -> int:
        """Pieces on the board."""
        return sum(self.counts)

    @property
    def men(self) -> int:
        """Men on the board (a promotion lowers it: the build order's second key)."""
        return self.white_men + self.black_men

    @property
    def name(self) -> str:
        """File-name text: ``w1m2k-b0m1k`` for one white man and two kings against a black king."""
        return f"w{self.white_men}m{self.white_kings}k-b{self.black_men}m{self.black_kings}k"

    def __str__(self) -> str:
        def side(men: int, kings: int) -> str:
            return "+".join(p for p in (f"{kings}K" if kings else "", f"{men}M" if men else "") if p) or "-"
        return f"{side(self.white_men, self.white_kings)} v {side(self.black_men, self.black_kings)}"

    @classmethod
    def of(cls, white: int, black: int, kings: int) -> Signature:
        """The signature of bitboards (any square indexing)."""
        return cls((white & ~kings).bit_count(), (white & kings).bit_count(),
                   (black & ~kings).bit_count(), (black & kings).bit_count())

    def dominated(self) -> Iterator[Signature]:
        """Every signature a game from this one can reach (both sides with a piece), this one included: men
        only disappear, kings come from men, any piece may be captured."""
        for wm in range(self.white_men + 1):
            for wk in range(self.white_men + self.white_kings - wm + 1):
                for bm in range(self.black_men + 1):
                    for bk in range(self.black_men + self.black_kings - bm + 1):
                        if wm + wk and bm + bk:
                            yield Signature(wm, wk, bm, bk)


def build_order(signatures: set[Signature]) -> list[Signature]:
    """Signatures in an order where each comes after every one it reaches (fewer pieces, then fewer men)."""
    return sorted(signatures, key=lambda s: (s.pieces, s.men, s.counts))


def signatures_upto(pieces: int) -> list[Signature]:
    """Every signature of 2..`pieces` pieces with a piece on each side, in build order."""
    out: set[Signature] = set()
    for total in range(2, pieces + 1):
        for white in range(1, total):
            black = total - white
            for wk in range(white + 1):
                for bk in range(black + 1):
                    if max(white - wk, wk, black - bk, bk) <= MAX_GROUP:
                        out.add(Signature(white - wk, wk, black - bk, bk))
    return build_order(out)


def variant_digest(variant: Variant) -> bytes:
    """SHA-256 of every rule field of `variant`: a table stays with the exact rules it was built for."""
    skip = ("geometry", "name", "aliases", "options", "pdn_gametype", "gametype_number")
    fields = tuple((f.name, repr(getattr(variant, f.name))) for f in dataclasses.fields(variant)
                   if f.name not in skip)
    return hashlib.sha256(repr(fields).encode()).digest()


class Layout:
    """The index of one signature's table in one variant (the same as dendgame.h's eg_index/eg_decode)."""

    def __init__(self, variant: Variant, signature: Signature) -> None:
        if max(signature.counts) > MAX_GROUP:
            raise ValueError(f"{signature}: at most {MAX_GROUP} pieces of one kind and color")
        squares = tuple(sorted(variant.geometry.squares))
        crown = {c: set(variant.crown_squares(c)) for c in Color}
        men = {c: tuple(s for s in squares if s not in crown[c]) for c in Color}
        self.variant = variant
        self.signature = signature
        self.domains: tuple[tuple[int, ...], ...] = (men[Color.WHITE], squares, men[Color.BLACK], squares)
        self._pos_in = tuple({s: i for i, s in enumerate(d)} for d in self.domains)
        self.radix = tuple(math.comb(len(d), k) for d, k in zip(self.domains, signature.counts, strict=True))
        self.half = math.prod(self.radix)
        self.size = 2 * self.half

    @staticmethod
    def _groups(white: int, black: int, kings: int) -> tuple[int, int, int, int]:
        return (white & ~kings, white & kings, black & ~kings, black & kings)

    def index(self, white: int, black: int, kings: int, turn: Color) -> int | None:
        """The position's index, or None when it is not of this table (other material, a man on its crown)."""
        if Signature.of(white, black, kings) != self.signature:
            return None
        idx = int(turn)
        for g, bits in enumerate(self._groups(white, black, kings)):
            rank, i, pos_in = 0, 0, self._pos_in[g]
            while bits:
                low = bits & -bits
                bits ^= low
                d = pos_in.get(low.bit_length() - 1)
                if d is None:
                    return None
                i += 1
                rank += math.comb(d, i)
            idx = idx * self.radix[g] + rank
        return idx

    def position(self, idx: int) -> tuple[int, int, int, Color] | None:
        """(white, black, kings, turn) of an index, or None when two pieces would share a square."""
        ranks = [0, 0, 0, 0]
        for g in range(3, -1, -1):
            idx, ranks[g] = divmod(idx, self.radix[g])
        sides, kings, occ = [0, 0], 0, 0
        for g, count in enumerate(self.signature.counts):
            rank, d, domain = ranks[g], len(self.domains[g]), self.domains[g]
            for i in range(count, 0, -1):
                d -= 1
                while math.comb(d, i) > rank:
                    d -= 1
                rank -= math.comb(d, i)
                bit = 1 << domain[d]
                if occ & bit:
                    return None
                occ |= bit
                sides[g >> 1] |= bit
                if g & 1:
                    kings |= bit
        return sides[0], sides[1], kings, Color(idx)


@cache
def layout(variant: Variant, signature: Signature) -> Layout:
    """The (immutable) layout of a signature in a variant."""
    return Layout(variant, signature)


def get_value(data: bytes, idx: int) -> int:
    """The 2-bit value at `idx` of a packed table."""
    return data[idx >> 2] >> (2 * (idx & 3)) & 3


def pack(values: list[int]) -> bytes:
    """Values (0..3 each) packed four to a byte, lowest bits first."""
    out = bytearray((len(values) + 3) // 4)
    for i, v in enumerate(values):
        out[i >> 2] |= v << (2 * (i & 3))
    return bytes(out)


def rule_value(variant: Variant, white: int, black: int, kings: int, turn: Color) -> int:
    """A value the rules give without a move: the side to move has no piece, or Turkish king v single man."""
    own, opp = (white, black) if turn == Color.WHITE else (black, white)
    if not own:
        return LOSS if variant.no_move_loses else WIN
    if variant.king_vs_single_man_wins:
        for mine, theirs, value in ((own, opp, WIN), (opp, own, LOSS)):
            if mine.bit_count() == 1 and theirs.bit_count() == 1 and mine & kings and not theirs & kings:
                return value
    return NONE


def successors(variant: Variant, white: int, black: int, kings: int,
               turn: Color) -> list[tuple[int, int, int, Color]]:
    """The positions after each legal move (duplicate captures merged), as (white, black, kings, turn)."""
    own, opp = (white, black) if turn == Color.WHITE else (black, white)
    out = []
    for raw in movegen_for(variant).legal(own, opp, kings, turn):
        frm, to, cap, promo = raw[0], raw[1], raw[2], raw[3]
        f, t = 1 << frm, 1 << to
        mine = (own & ~f) | t
        theirs = opp & ~cap
        k = kings & ~cap
        k = (k & ~f) | t if kings & f else (k | t if promo else k)
        w, b = (mine, theirs) if turn == Color.WHITE else (theirs, mine)
        out.append((w, b, k, turn.opponent))
    return out


def tables_unsupported(variant: Variant) -> str | None:
    """Why the tables cannot cover `variant` (None when they can): only what the native core plays, whose
    pieces are standard men and kings (a man never rests on its crowning squares)."""
    return unsupported(variant)


def piece_limit(variant: Variant) -> int:
    """The most pieces `dboard endgame` builds tables for: 4 on boards over 32 squares, else 5."""
    return 4 if len(variant.geometry.squares) > 32 else 5


class MissingTable(LookupError):
    """A table a build or a probe needs is not loaded."""


def build_reference(variant: Variant, signature: Signature, tables: dict[Signature, bytes]) -> bytes:
    """One table by the plain fixed point (slow; the reference the C builder is checked against).

    A position is a win when a move leads to a loss, a loss when every move leads to a win (or it has no
    move), and what no round changes is a draw. `tables` holds every table a capture or promotion reaches.
    """
    lay = layout(variant, signature)
    values = [NONE] * lay.size
    children: dict[int, list[int]] = {}   # undecided positions: in-table children, -1 for an external draw
    for idx in range(lay.size):
        pos = lay.position(idx)
        if pos is None:
            continue
        rule = rule_value(variant, *pos)
        if rule:
            values[idx] = rule
            continue
        kids = successors(variant, *pos)
        if not kids:
            values[idx] = LOSS if variant.no_move_loses else WIN
            continue
        inside: list[int] = []
        for kid in kids:
            child = lay.index(*kid)
            if child is not None:
                inside.append(child)
                continue
            value = probe_value(variant, tables, *kid)
            if value == NONE:
                raise MissingTable(f"{signature}: a move reaches {Signature.of(*kid[:3])}, not loaded")
            if value == LOSS:
                values[idx] = WIN
                break
            if value == DRAW:
                inside.append(-1)
        else:
            if not inside:
                values[idx] = LOSS
            else:
                children[idx] = inside
    changed = True
    while changed:
        changed = False
        for idx, inside in list(children.items()):
            kid_values = [DRAW if c < 0 else values[c] for c in inside]
            if LOSS in kid_values:
                values[idx] = WIN
            elif all(v == WIN for v in kid_values):
                values[idx] = LOSS
            else:
                continue
            del children[idx]
            changed = True
    for idx in children:
        values[idx] = DRAW
    return pack(values)


def probe_value(variant: Variant, tables: dict[Signature, bytes], white: int, black: int, kings: int,
                turn: Color) -> int:
    """WIN, DRAW or LOSS for the side to move by rule or from a loaded table; NONE when not known."""
    rule = rule_value(variant, white, black, kings, turn)
    if rule:
        return rule
    sig = Signature.of(white, black, kings)
    data = tables.get(sig)
    if data is None:
        return NONE
    idx = layout(variant, sig).index(white, black, kings, turn)
    return NONE if idx is None else get_value(data, idx)


def native_builder() -> Callable[[Variant, Signature, dict[Signature, bytes]], bytes] | None:
    """The C builder when the engine extension is built and the variant fits the native core, else None."""
    from rules.native import available, load_extension

    module = load_extension("engine._native")   # the extension itself, not engine.native (which imports us)
    if not available() or module is None or not hasattr(module, "endgame_build"):
        return None

    def build(variant: Variant, signature: Signature, tables: dict[Signature, bytes]) -> bytes:
        if unsupported(variant) is not None:
            return build_reference(variant, signature, tables)
        given = {s.counts: data for s, data in tables.items()}
        return bytes(module.endgame_build(rules_params(variant), native_options(variant), signature.counts,
                                          given))

    return build


def native_options(variant: Variant) -> dict[str, int]:
    """The rules the C builder and probe need beyond the Rules table."""
    return {"no_move_loses": int(variant.no_move_loses),
            "king_vs_single_man": int(variant.king_vs_single_man_wins)}


def verify(variant: Variant, signature: Signature, tables: dict[Signature, bytes],
           indices: range | list[int] | None = None) -> list[int]:
    """Indices whose value disagrees with one ply of search over the tables (empty: consistent).

    A win needs a move to a loss; a loss needs every move to lead to a win; a draw needs no move to a loss
    and some move to a draw. Index positions that are no position must hold 0.
    """
    lay = layout(variant, signature)
    data = tables[signature]
    bad = []
    for idx in indices if indices is not None else range(lay.size):
        value = get_value(data, idx)
        pos = lay.position(idx)
        if pos is None:
            if value != NONE:
                bad.append(idx)
            continue
        expected = rule_value(variant, *pos)
        if not expected:
            kids = [probe_value(variant, tables, *kid) for kid in successors(variant, *pos)]
            if not kids:
                expected = LOSS if variant.no_move_loses else WIN
            elif NONE in kids:
                raise MissingTable(f"{signature}: a successor's table is not loaded")
            elif LOSS in kids:
                expected = WIN
            elif all(k == WIN for k in kids):
                expected = LOSS
            else:
                expected = DRAW
        if value != expected:
            bad.append(idx)
    return bad


# -- files --------------------------------------------------------------------------------------------
def table_dir(data_dir: Path, variant: Variant) -> Path:
    """Where a variant's tables are kept: one folder per variant id and rules digest."""
    return data_dir.expanduser() / TABLES_DIR / f"{variant.id}-{variant_digest(variant).hex()[:12]}"


def encode(variant: Variant, signature: Signature, data: bytes) -> bytes:
    """A table's file: header, packed values, SHA-256 of both."""
    lay = layout(variant, signature)
    body = _HEADER.pack(_MAGIC, variant_digest(variant), *signature.counts, lay.size) + data
    return body + hashlib.sha256(body).digest()


def decode(variant: Variant, signature: Signature, blob: bytes) -> bytes | None:
    """The packed values of a table file, or None when it is not this table's, whole and unchanged."""
    lay = layout(variant, signature)
    expected = _HEADER.size + (lay.size + 3) // 4 + _DIGEST
    if len(blob) != expected:
        return None
    body, digest = blob[:-_DIGEST], blob[-_DIGEST:]
    if hashlib.sha256(body).digest() != digest:
        return None
    magic, vdigest, *counts, size = _HEADER.unpack_from(body)
    if magic != _MAGIC or vdigest != variant_digest(variant) or tuple(counts) != signature.counts:
        return None
    if size != lay.size:
        return None
    return bytes(body[_HEADER.size:])


@dataclass
class BuildReport:
    """One table made or read: how long it took and how big it is."""

    signature: Signature
    positions: int
    bytes: int
    seconds: float
    built: bool


class EndgameTables:
    """The tables of one variant: loaded from `directory` when present and sound, else built and saved.

    `directory` None keeps them in memory only. `builder` defaults to the C builder, else the reference.
    """

    def __init__(self, variant: Variant, directory: Path | None = None,
                 builder: Callable[[Variant, Signature, dict[Signature, bytes]], bytes] | None = None,
                 progress: Progress | None = None) -> None:
        self.variant = variant
        self.directory = directory
        self.builder = builder or native_builder() or build_reference
        self.progress = progress
        self.tables: dict[Signature, bytes] = {}
        self.reports: list[BuildReport] = []

    def __repr__(self) -> str:
        return f"EndgameTables({self.variant.id}, {len(self.tables)} tables)"

    @property
    def max_pieces(self) -> int:
        """The most pieces of a loaded table (0 when none is)."""
        return max((s.pieces for s in self.tables), default=0)

    def _path(self, signature: Signature) -> Path | None:
        if self.directory is None:
            return None
        return table_dir(self.directory, self.variant) / f"{signature.name}.wdl"

    def _read(self, signature: Signature) -> bytes | None:
        path = self._path(signature)
        if path is None:
            return None
        try:
            blob = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            logger.warning("endgame table %s unreadable (%s): building it again", path, exc)
            return None
        data = decode(self.variant, signature, blob)
        if data is None:
            logger.warning("endgame table %s is damaged or not of these rules: building it again", path)
        return data

    def _write(self, signature: Signature, data: bytes) -> None:
        path = self._path(signature)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{signature.name}.", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(encode(self.variant, signature, data))
                    f.flush()
                    os.fsync(f.fileno())
                os.replace(tmp, path)
            except BaseException:
                with _suppress_oserror():
                    os.unlink(tmp)
                raise
        except OSError as exc:
            logger.warning("endgame table %s not saved: %s", path, exc)

    def ensure(self, signature: Signature) -> bytes:
        """The table of `signature`, with every one it reaches: read when saved and sound, else built."""
        import time

        for sig in build_order(set(signature.dominated())):
            if sig in self.tables:
                continue
            start = time.perf_counter()
            data = self._read(sig)
            built = data is None
            if data is None:
                if self.progress:
                    size = layout(self.variant, sig).size
                    self.progress(f"building {self.variant.id} {sig} ({size} positions)")
                data = self.builder(self.variant, sig, self.tables)
                self._write(sig, data)
            self.tables[sig] = data
            self.reports.append(BuildReport(sig, layout(self.variant, sig).size, len(data),
                                            time.perf_counter() - start, built))
        return self.tables[signature]

    def ensure_upto(self, pieces: int) -> None:
        """Every table of up to `pieces` pieces."""
        for sig in signatures_upto(pieces):
            self.ensure(sig)

    def load_saved(self, pieces: int) -> None:
        """The saved, sound tables of up to `pieces` pieces whose every reached table is too (no build)."""
        for sig in signatures_upto(pieces):
            if sig in self.tables:
                continue
            if all(d in self.tables for d in sig.dominated() if d != sig):
                data = self._read(sig)
                if data is not None:
                    self.tables[sig] = data

    def value(self, board: Board) -> int:
        """WIN, DRAW or LOSS for the side to move in `board`, or NONE when no loaded table holds it."""
        if board.variant != self.variant:
            raise ValueError(f"tables of {self.variant.id}, the board is {board.variant.id}")
        w, b, k = board.bitboards()
        return probe_value(self.variant, self.tables, w, b, k, board.turn)

    def probe(self, white: int, black: int, kings: int, turn: Color) -> int:
        """WIN, DRAW or LOSS for the side to move, or NONE (bitboards as Board.bitboards())."""
        return probe_value(self.variant, self.tables, white, black, kings, turn)


class _suppress_oserror:
    """Ignore an OSError (cleanup of a temporary file)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> bool:
        return kind is not None and issubclass(kind, OSError)


def board_signature(board: Board) -> Signature:
    """The material of a board."""
    return Signature.of(*board.bitboards())
