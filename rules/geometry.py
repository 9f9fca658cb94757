"""Board geometry: which cells play, how squares are numbered and named, and precomputed rays.

Squares are bit indices of a padded grid (stride = width + 1, one ghost column on the right), so every
direction is a constant shift and stepping off an edge can never wrap onto a playing square.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.errors import InvalidSquareError

# Direction vectors (d_row, d_col) seen from White; index order is part of the internal contract.
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (1, -1), (1, 1), (-1, -1), (-1, 1),  # diagonals: up-left, up-right, down-left, down-right
    (1, 0), (0, -1), (0, 1), (-1, 0),  # orthogonals: up, left, right, down
)
REVERSE: tuple[int, ...] = (3, 2, 1, 0, 7, 6, 5, 4)

CELLS = ("dark", "light", "all")  # dark: a1 plays; light: a1 does not; all: every cell plays
NUMBERINGS = ("top-left", "bottom-right", "algebraic")


def _file_letter(col: int) -> str:
    return chr(ord("a") + col)


@dataclass(frozen=True)
class Geometry:
    """A width x height board: playing cells, numbering scheme, square names and rays.

    `cells` is "dark" (a1 is a playing square), "light" (a1 is not) or "all"; `numbering` is
    "top-left" (square 1 = first playing cell of the top row seen from White, row by row left to right:
    FMJD, English, Italian), "bottom-right" (square 1 = first playing cell from White's right on rank 1,
    right to left, bottom to top: Iberian) or "algebraic" (a1-style names). `diagonals` is "all" or
    "even" (diagonal lines only through cells with even row+col, as on an alquerque board).
    """

    width: int
    height: int
    cells: str = "dark"
    numbering: str = "top-left"
    diagonals: str = "all"
    stride: int = field(init=False, repr=False)
    squares: tuple[int, ...] = field(init=False, repr=False)
    mask: int = field(init=False, repr=False)
    size: int = field(init=False, repr=False)
    rays: tuple[tuple[tuple[int, ...], ...], ...] = field(init=False, repr=False, compare=False)
    steps: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _names: dict[int, str] = field(init=False, repr=False, compare=False)
    _parse: dict[str, int] = field(init=False, repr=False, compare=False)
    _numbers: dict[int, int] = field(init=False, repr=False, compare=False)
    _by_number: dict[int, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.cells not in CELLS:
            raise ValueError(f"cells must be one of {CELLS}, not {self.cells!r}")
        if self.numbering not in NUMBERINGS:
            raise ValueError(f"numbering must be one of {NUMBERINGS}, not {self.numbering!r}")
        if not (1 <= self.width <= 26 and 1 <= self.height <= 99):
            raise ValueError(f"unsupported board size {self.width}x{self.height}")
        stride = self.width + 1
        set_ = object.__setattr__
        set_(self, "stride", stride)
        set_(self, "size", stride * self.height)

        def plays(r: int, c: int) -> bool:
            if self.cells == "all":
                return True
            return (r + c) % 2 == (0 if self.cells == "dark" else 1)

        cells = [(r, c) for r in range(self.height) for c in range(self.width) if plays(r, c)]
        if self.numbering == "top-left":
            order = sorted(cells, key=lambda rc: (-rc[0], rc[1]))
        elif self.numbering == "bottom-right":
            order = sorted(cells, key=lambda rc: (rc[0], -rc[1]))
        else:
            order = sorted(cells)
        # Numbers follow this order; for "algebraic" it is a1 = 1, left to right, bottom up.
        squares = tuple(r * stride + c for r, c in order)
        set_(self, "squares", squares)
        mask = 0
        for s in squares:
            mask |= 1 << s
        set_(self, "mask", mask)
        numbers = {s: i + 1 for i, s in enumerate(squares)}
        set_(self, "_numbers", numbers)
        set_(self, "_by_number", {n: s for s, n in numbers.items()})
        names: dict[int, str] = {}
        parse: dict[str, int] = {}
        for s in squares:
            name = self.algebraic(s) if self.numbering == "algebraic" else str(numbers[s])
            names[s] = name
            parse[name] = s
        set_(self, "_names", names)
        set_(self, "_parse", parse)
        rays: list[tuple[tuple[int, ...], ...]] = []
        steps: list[tuple[int, ...]] = []
        for dr, dc in DIRECTIONS:
            diagonal = dr != 0 and dc != 0
            per_sq: list[tuple[int, ...]] = [()] * self.size
            step: list[int] = [-1] * self.size
            for r, c in cells:
                ray: list[int] = []
                rr, cc = r, c
                while True:
                    if diagonal and self.diagonals == "even" and (rr + cc) % 2:
                        break
                    rr, cc = rr + dr, cc + dc
                    if not (0 <= rr < self.height and 0 <= cc < self.width) or not plays(rr, cc):
                        break
                    ray.append(rr * stride + cc)
                per_sq[r * stride + c] = tuple(ray)
                step[r * stride + c] = ray[0] if ray else -1
            rays.append(tuple(per_sq))
            steps.append(tuple(step))
        set_(self, "rays", tuple(rays))
        set_(self, "steps", tuple(steps))

    # -- public translation API ------------------------------------------------------------------
    @property
    def numeric(self) -> bool:
        """True when the variant's notation writes squares as numbers."""
        return self.numbering != "algebraic"

    def rc(self, sq: int) -> tuple[int, int]:
        """Physical (row, col) seen from White: row 0 = rank 1, col 0 = file a."""
        self._check(sq)
        return divmod(sq, self.stride)

    def square_at(self, row: int, col: int) -> int | None:
        """The square at (row, col), or None for a non-playing or off-board cell."""
        if not (0 <= row < self.height and 0 <= col < self.width):
            return None
        sq = row * self.stride + col
        return sq if self.mask >> sq & 1 else None

    def name(self, sq: int) -> str:
        """The square's text in the variant's notation ("32" or "c3")."""
        self._check(sq)
        return self._names[sq]

    def number(self, sq: int) -> int:
        """1-based number in the numeric numbering (algebraic boards: a1 = 1, left to right, bottom up)."""
        self._check(sq)
        return self._numbers[sq]

    def from_number(self, number: int) -> int:
        """Inverse of number()."""
        if number in self._by_number:
            return self._by_number[number]
        raise InvalidSquareError(f"no square numbered {number} on this {self.width}x{self.height} board")

    def algebraic(self, sq: int) -> str:
        """The "c3"-style name of a square (file letter from White's left, rank from White's side)."""
        r, c = divmod(sq, self.stride)
        return f"{_file_letter(c)}{r + 1}"

    def parse_square(self, text: str) -> int:
        """Inverse of name(); raises InvalidSquareError naming the text."""
        t = text.strip()
        sq = self._parse.get(t.lower() if self.numbering == "algebraic" else t)
        if sq is None:
            count = len(self.squares)
            kind = "a square name like c3" if self.numbering == "algebraic" else f"a number 1-{count}"
            raise InvalidSquareError(f"{text!r} is not a playing square: expected {kind}")
        return sq

    def parse_any(self, text: str) -> int:
        """Like parse_square but also accepts algebraic names on numeric boards (and vice versa numbers)."""
        t = text.strip()
        try:
            return self.parse_square(t)
        except InvalidSquareError:
            pass
        if 2 <= len(t) <= 3 and t.isascii() and t[0].isalpha() and t[1:].isdigit():
            col, row = ord(t[0].lower()) - ord("a"), int(t[1:]) - 1
            sq = self.square_at(row, col)
            if sq is not None:
                return sq
        if len(t) <= 3 and t.isascii() and t.isdigit() and self.numbering == "algebraic":
            return self.from_number(int(t))
        raise InvalidSquareError(f"{text!r} is not a playing square of this board")

    def bits(self, squares: int) -> list[int]:
        """The squares set in a bitboard, in ascending bit order."""
        out = []
        while squares:
            low = squares & -squares
            out.append(low.bit_length() - 1)
            squares ^= low
        return out

    def _check(self, sq: int) -> None:
        if not (isinstance(sq, int) and 0 <= sq < self.size and self.mask >> sq & 1):
            raise InvalidSquareError(f"{sq!r} is not a playing square index of this board")

    def __repr__(self) -> str:
        return f"Geometry({self.width}x{self.height}, cells={self.cells}, numbering={self.numbering})"
