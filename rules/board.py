"""The Board: a position of one variant on integer bitboards, with push/pop and legal-move generation."""

from __future__ import annotations

from collections.abc import Iterator

from rules.errors import IllegalMoveError
from rules.fen import parse_fen, write_fen
from rules.generators import movegen_for
from rules.move import Move
from rules.movegen import MoveGen, RawMove
from rules.notation import PDN_CAPTURE, explain_illegal, move_text, parse_move
from rules.pieces import Color, Piece
from rules.variants import Variant, get_variant
from rules.zobrist import zobrist_table

_WHITE, _BLACK = Color.WHITE, Color.BLACK
_WM, _WK, _BM, _BK = Piece(_WHITE, False), Piece(_WHITE, True), Piece(_BLACK, False), Piece(_BLACK, True)
_Snapshot = tuple[int, int, int, Color, int, 'list[RawMove] | None']


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class LegalMoves:
    """A live view of the legal moves of a board (iterate, len, `in`, bool, count)."""

    __slots__ = ("_board",)

    def __init__(self, board: Board) -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        return iter(self._board._legal_move_objects())

    def __len__(self) -> int:
        return len(self._board._legal_raw())

    def count(self) -> int:
        """Number of legal moves."""
        return len(self)

    def __bool__(self) -> bool:
        return bool(self._board._legal_raw())

    def __contains__(self, move: object) -> bool:
        return isinstance(move, Move) and self._board._find_raw(move) is not None

    def __repr__(self) -> str:
        b = self._board
        return f"<LegalMoves ({', '.join(b.move_text(m) for m in self)})>"


class Board:
    """A draughts position of one variant: pieces, side to move, move stack and Zobrist key.

    Squares are the opaque ints of `variant.geometry`. push()/pop() save and restore a snapshot of ints.
    """

    def __init__(self, variant: Variant | str = "international", fen: str | None = None) -> None:
        self.variant: Variant = variant if isinstance(variant, Variant) else get_variant(variant)
        self._gen: MoveGen = movegen_for(self.variant)
        self._zob, self._zturn = zobrist_table(self.variant.geometry.size)
        self.move_stack: list[Move] = []
        self._stack: list[_Snapshot] = []
        self._w = self._b = self._k = 0
        self._turn: Color = self.variant.first
        self._key = 0
        self._cache: list[RawMove] | None = None  # legal moves of the current position, if known
        if fen is None:
            self.reset()
        else:
            self.set_fen(fen)

    # -- construction -------------------------------------------------------------------------------
    @classmethod
    def from_fen(cls, variant: Variant | str, fen: str) -> Board:
        """A board of `variant` set up from a PDN FEN string."""
        return cls(variant, fen)

    def reset(self) -> None:
        """Set up the variant's start position and clear the move stack."""
        v = self.variant
        w = b = 0
        for s in v.square_set(v.setup_white):
            w |= 1 << s
        for s in v.square_set(v.setup_black):
            b |= 1 << s
        self._set(w, b, 0, v.first)

    def set_fen(self, fen: str) -> None:
        """Replace the position by a PDN FEN; clears the move stack. Raises FenError."""
        w, b, k, turn = parse_fen(self.variant, fen)
        self._set(w, b, k, turn)

    def fen(self) -> str:
        """The position as a PDN 3.0 FEN string."""
        return write_fen(self.variant, self._w, self._b, self._k, self._turn)

    def _set(self, w: int, b: int, k: int, turn: Color) -> None:
        self._w, self._b, self._k, self._turn = w, b, k, Color(turn)
        self._cache = None
        self.move_stack = []
        self._stack = []
        self._key = self._compute_key()

    def _compute_key(self) -> int:
        z = self._zob
        key = self._zturn if self._turn == Color.BLACK else 0
        for s in _bits(self._w):
            key ^= z[1 if self._k >> s & 1 else 0][s]
        for s in _bits(self._b):
            key ^= z[3 if self._k >> s & 1 else 2][s]
        return key

    def copy(self) -> Board:
        """An independent copy, including the move stack."""
        other = Board.__new__(Board)
        other.variant, other._gen, other._zob, other._zturn = self.variant, self._gen, self._zob, self._zturn
        other._w, other._b, other._k = self._w, self._b, self._k
        other._turn, other._key = self._turn, self._key
        other.move_stack = list(self.move_stack)
        other._stack = [(*snap[:5], None) for snap in self._stack]
        other._cache = None if self._cache is None else list(self._cache)
        return other

    # -- pieces ----------------------------------------------------------------------------------------
    def piece_at(self, sq: int) -> Piece | None:
        """The piece on a square, or None."""
        self.variant.geometry._check(sq)
        bit = 1 << sq
        if self._w & bit:
            return _WK if self._k & bit else _WM
        if self._b & bit:
            return _BK if self._k & bit else _BM
        return None

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square with its piece."""
        out: dict[int, Piece] = {}
        for s in _bits(self._w):
            out[s] = _WK if self._k >> s & 1 else _WM
        for s in _bits(self._b):
            out[s] = _BK if self._k >> s & 1 else _BM
        return out

    def occupied(self) -> frozenset[int]:
        """Squares holding a piece of either color."""
        return frozenset(_bits(self._w | self._b))

    def _side(self, color: Color) -> int:
        return self._w if color == Color.WHITE else self._b

    def men(self, color: Color) -> frozenset[int]:
        """Squares of `color`'s men."""
        return frozenset(_bits(self._side(color) & ~self._k))

    def kings(self, color: Color) -> frozenset[int]:
        """Squares of `color`'s kings."""
        return frozenset(_bits(self._side(color) & self._k))

    def bitboards(self) -> tuple[int, int, int]:
        """(white, black, kings) bitboards over the geometry's square indices (for engines)."""
        return self._w, self._b, self._k

    def key(self) -> int:
        """Zobrist-style 64-bit hash of (pieces, side to move), maintained incrementally."""
        return self._key

    @property
    def turn(self) -> Color:
        """The side to move."""
        return self._turn

    @turn.setter
    def turn(self, color: Color) -> None:
        color = Color(color)
        if color != self._turn:
            self._turn = color
            self._key ^= self._zturn
            self._cache = None

    # -- move generation -----------------------------------------------------------------------------
    def _own_opp(self) -> tuple[int, int]:
        return (self._w, self._b) if self._turn == Color.WHITE else (self._b, self._w)

    def _legal_raw(self) -> list[RawMove]:
        cache = self._cache
        if cache is None:
            own, opp = self._own_opp()
            cache = self._cache = self._gen.legal(own, opp, self._k, self._turn)
        return cache

    @staticmethod
    def _wrap(raw: RawMove) -> Move:
        """The Move of a raw move: its prebuilt one (non-captures) or a new one."""
        return raw[6] or Move(raw[0], raw[1], raw[4], raw[5], raw[3])

    def _legal_move_objects(self) -> list[Move]:
        raws = self._legal_raw()
        if raws and raws[0][6] is None:  # captures: build their Move objects once per position
            raws = self._cache = [(*r[:6], self._wrap(r)) for r in raws]
        return [r[6] for r in raws]  # type: ignore[misc]

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves (precedence applied, duplicate captures merged) as a live view."""
        return LegalMoves(self)

    def capture_paths(self) -> list[Move]:
        """Every legal capture path before duplicate merging (for keep-duplicates perft)."""
        own, opp = self._own_opp()
        if not self._gen.has_capture(own, opp, self._k, self._turn):
            return []
        raws = self._gen.captures(own, opp, self._k, self._turn, keep_duplicates=True)
        return [self._wrap(r) for r in raws]

    def has_capture(self) -> bool:
        """Whether the side to move must capture."""
        own, opp = self._own_opp()
        return self._gen.has_capture(own, opp, self._k, self._turn)

    def _find_raw(self, move: Move) -> RawMove | None:
        """The legal raw move that `move` is (same object) or names (same from, to, captured set)."""
        raws = self._legal_raw()
        for r in raws:
            if r[6] is move:
                return r
        cap = 0
        for s in move.captures:
            cap |= 1 << s
        for r in raws:
            if r[0] == move.from_square and r[1] == move.to_square and r[2] == cap:
                return r
        return None

    # -- making moves -------------------------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Play a legal move (any path of a merged duplicate capture is accepted)."""
        raw = self._find_raw(move) if isinstance(move, Move) else None
        if raw is None:
            raise IllegalMoveError(*explain_illegal(self, move))
        self._push_raw(raw)
        self.move_stack.append(move if move.path == raw[4] else self._wrap(raw))

    def _push_raw(self, raw: RawMove) -> None:
        """Apply an internal move tuple (no legality check, no Move object)."""
        frm, to, cap, promo = raw[0], raw[1], raw[2], raw[3]
        w, b, k, key = self._w, self._b, self._k, self._key
        self._stack.append((w, b, k, self._turn, key, self._cache))
        self._cache = None
        z = self._zob
        fbit = 1 << frm
        tbit = 1 << to
        white = self._turn is Color.WHITE
        base = 0 if white else 2
        was_king = k & fbit
        if cap & fbit:  # the mover takes its own piece off (Konane's opening removals): nothing lands
            if white:
                w &= ~fbit
            else:
                b &= ~fbit
            self._w, self._b, self._k = w, b, k & ~fbit
            self._turn = _BLACK if white else _WHITE
            self._key = key ^ z[base + (1 if was_king else 0)][frm] ^ self._zturn
            return
        key ^= z[base + (1 if was_king else 0)][frm] ^ z[base + (1 if (was_king or promo) else 0)][to]
        if cap:
            obase = 2 - base
            c = cap
            while c:
                low = c & -c
                s = low.bit_length() - 1
                c ^= low
                key ^= z[obase + (1 if k & low else 0)][s]
            k &= ~cap
            if white:
                b &= ~cap
            else:
                w &= ~cap
        # (from may equal to: a capture round trip ending on its own starting square)
        if white:
            w = (w & ~fbit) | tbit
        else:
            b = (b & ~fbit) | tbit
        if was_king:
            k = (k & ~fbit) | tbit
        elif promo:
            k |= tbit
        self._w, self._b, self._k = w, b, k
        self._turn = _BLACK if white else _WHITE
        self._key = key ^ self._zturn

    def _pop_raw(self) -> None:
        self._w, self._b, self._k, self._turn, self._key, self._cache = self._stack.pop()

    def pop(self) -> Move:
        """Undo the last move and return it; restores the position and hash exactly."""
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        self._pop_raw()
        return self.move_stack.pop()

    def peek(self) -> Move:
        """The last move played."""
        return self.move_stack[-1]

    # -- notation ------------------------------------------------------------------------------------
    def move_text(self, move: Move) -> str:
        """The move in the variant's notation (intermediate squares only when needed)."""
        return move_text(self, move)

    def pdn_move_text(self, move: Move) -> str:
        """The move as a PDN file writes it: the variant's notation with captures joined by PDN 3.0's `x`
        (Russian shows `c3:e5`, files say `c3xe5`; Thai's `-` captures too)."""
        return move_text(self, move, PDN_CAPTURE)

    def describe(self, move: Move) -> str:
        """The move for a person: its notation, what moves, what it takes (``28x19: white man takes 23``)."""
        text = self.move_text(move)
        piece = self.piece_at(move.from_square)
        who = f"{piece.color.name.lower()} {'king' if piece.king else 'man'}" if piece else "no piece"
        g = self.variant.geometry
        takes = f" takes {', '.join(g.name(s) for s in move.captures)}" if move.captures else " moves"
        crowned = ", crowned" if move.promotion else ""
        return f"{text}: {who}{takes}{crowned}"

    def parse_move(self, text: str) -> Move:
        """Parse move text of the variant's notation into a legal Move (see rules.notation)."""
        return parse_move(self, text)

    def push_text(self, text: str) -> Move:
        """Parse and push a move; returns it."""
        move = self.parse_move(text)
        self.push(move)
        return move

    # -- results -----------------------------------------------------------------------------------------
    def is_game_over(self) -> bool:
        """True when the side to move has no legal move."""
        return not self._legal_raw()

    def winner(self) -> Color | None:
        """The winner when the side to move has no legal move (the opponent; the mover in giveaway)."""
        if self._legal_raw():
            return None
        return self._turn.opponent if self.variant.no_move_loses else self._turn

    # -- dunder ----------------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and self.variant == other.variant
            and (self._w, self._b, self._k, self._turn) == (other._w, other._b, other._k, other._turn)
        )

    def __hash__(self) -> int:
        return self._key

    def __str__(self) -> str:
        g = self.variant.geometry
        lines = []
        for r in range(g.height - 1, -1, -1):
            row = []
            for c in range(g.width):
                sq = g.square_at(r, c)
                if sq is None:
                    row.append(" ")
                else:
                    p = self.piece_at(sq)
                    row.append(p.symbol() if p else ".")
            lines.append(" ".join(row))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board({self.variant.id!r}, fen={self.fen()!r})"
