"""Acceptance against the published data of docs/rules/reference-data.md: perft tables, rule-test positions,
numbering checks.

Perft depths here are the ones that finish in seconds; deeper counts live in bench/perft.py.
"""

from __future__ import annotations

import pytest
from _rulestest import alg

import rules

# --- section 2: perft from the initial position -------------------------------------------------
# (variant, depth, keep, drop) straight from the reference tables.
ENGLISH = [(1, 7, 7), (2, 49, 49), (3, 302, 302), (4, 1469, 1469), (5, 7361, 7361), (6, 36768, 36768),
           (7, 179740, 179740), (8, 845931, 845931)]
INTERNATIONAL = [(1, 9, 9), (2, 81, 81), (3, 658, 658), (4, 4265, 4265), (5, 27117, 27117),
                 (6, 167140, 167140), (7, 1049442, 1049442)]
# Russian d8 is the shallowest published depth where keep and drop differ (duplicate king circuits).
RUSSIAN = [(1, 7, 7), (2, 49, 49), (3, 302, 302), (4, 1469, 1469), (5, 7482, 7482), (6, 37986, 37986),
           (7, 190146, 190146), (8, 929905, 929899)]

PERFT_CASES = (
    [("english", *row) for row in ENGLISH]
    + [("international", *row) for row in INTERNATIONAL]
    + [("russian", *row) for row in RUSSIAN]
)


@pytest.mark.parametrize(("variant", "depth", "keep", "drop"), PERFT_CASES)
def test_perft_drop_duplicates(variant: str, depth: int, keep: int, drop: int) -> None:
    assert rules.perft(rules.Board(variant), depth) == drop


@pytest.mark.parametrize(("variant", "depth", "keep", "drop"), PERFT_CASES)
def test_perft_keep_duplicates(variant: str, depth: int, keep: int, drop: int) -> None:
    assert rules.perft(rules.Board(variant), depth, keep_duplicates=True) == keep


def _perft_paths(board: rules.Board, depth: int) -> int:
    """Keep-duplicates perft through the public API: every capture path counted, each played once."""
    if depth == 0:
        return 1
    if board.has_capture():
        paths = list(board.capture_paths())
        by_identity = {(m.from_square, m.to_square, frozenset(m.captures)): m for m in board.legal_moves}
        assert {(p.from_square, p.to_square, frozenset(p.captures)) for p in paths} == set(by_identity)
        if depth == 1:
            return len(paths)
        total = 0
        for p in paths:
            board.push(by_identity[(p.from_square, p.to_square, frozenset(p.captures))])
            total += _perft_paths(board, depth - 1)
            board.pop()
        return total
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += _perft_paths(board, depth - 1)
        board.pop()
    return total


@pytest.mark.parametrize(("variant", "depth", "keep"),
                         [("english", 5, 7361), ("international", 4, 4265), ("russian", 5, 7482)])
def test_perft_through_capture_paths(variant: str, depth: int, keep: int) -> None:
    assert _perft_paths(rules.Board(variant), depth) == keep


def test_divide_sums_to_perft() -> None:
    board = rules.Board("english")
    divide = rules.divide(board, 4)
    assert sum(divide.values()) == 1469
    assert set(divide) == set(board.legal_moves)


# Cross-variant equalities (docs/rules/reference-data.md#variants-that-must-agree): same men, same counts.
@pytest.mark.parametrize(("variant", "depth", "expected"), [
    ("czech", 6, 36768),        # Czech = English until d8
    ("spanish", 5, 7361),       # Spanish and Italian = English until d5 (quantity rule from d6)
    ("italian", 5, 7361),
    ("brazilian", 4, 1469),     # Brazilian = Russian until d4
])
def test_perft_cross_variant(variant: str, depth: int, expected: int) -> None:
    assert rules.perft(rules.Board(variant), depth) == expected


def test_spanish_equals_italian_at_depth_6() -> None:
    assert rules.perft(rules.Board("spanish"), 6) == rules.perft(rules.Board("italian"), 6)
    assert rules.perft(rules.Board("spanish"), 6) != 36768  # the quantity rule bites from d6 on


# --- section 3: rule-test positions with the complete set of legal moves ------------------------
SECTION_3 = [
    ("white man moves", "W:W28", "28-22, 28-23"),
    ("black man moves", "B:B13", "13-18, 13-19"),
    ("promotion", "W:W8", "08-02, 08-03"),
    ("king range", "W:WK28",
     "28-22,28-17,28-11,28-06, 28-23,28-19,28-14,28-10,28-05, 28-32,28-37,28-41,28-46, "
     "28-33,28-39,28-44,28-50"),
    ("king range (corner)", "B:BK1", "01-06, 01-07,01-12,01-18,01-23,01-29,01-34,01-40,01-45"),
    ("man capture", "W:W28,32:B23", "28x19"),
    ("king capture range", "W:WK46:B23", "46x19, 46x14, 46x10, 46x05"),
    ("man continuation", "W:W15:B8,19,20", "15x02"),
    ("king continuation", "W:WK47:B9,12,33", "47x17, 47x21, 47x26"),
    ("no removal during capture", "W:WK41,49:B9,10,12,19,38", "41x43"),
    ("quantity", "W:W48:B24,K31,34,K42,43", "48x19"),
    ("king range (FID)", "W:WK23",
     "23-18,23-12,23-07,23-01, 23-19,23-14,23-10,23-05, 23-28,23-32,23-37,23-41,23-46, "
     "23-29,23-34,23-40,23-45"),
    ("man captures both ways", "W:W35:B30,K40", "35x24, 35x44"),
    ("king capture range (FID)", "W:WK41:B23", "41x19, 41x14, 41x10, 41x05"),
    ("man continuation (FID)", "W:W47:B13,14,22,24,31,34,K41,44", "47x49"),
    ("king continuation (FID)", "W:WK1:B7,9,17,19,20,30,31,33,43,44", "01x15"),
    ("no removal during capture (FID)", "B:W27,28,38,39,42:BK25", "25x33"),
    ("quantity (FID)", "W:WK48:B7,8,31,34,K42,44", "48x50"),
    ("no quality rule", "W:W26:B12,K21,31,32", "26x08, 26x28"),
    ("no passing promotion", "W:W15:B9,10", "15x13"),
]


def _normalise(text: str) -> set[str]:
    """Reference move list -> set of move texts without leading zeros ("08-02" -> "8-2")."""
    out = set()
    for item in text.split(","):
        sep = "x" if "x" in item else "-"
        a, b = item.strip().split(sep)
        out.add(f"{int(a)}{sep}{int(b)}")
    return out


@pytest.mark.parametrize(("rule", "fen", "expected"), SECTION_3, ids=[c[0] for c in SECTION_3])
def test_rule_position_legal_moves(rule: str, fen: str, expected: str) -> None:
    board = rules.Board("international", fen)
    geo = board.variant.geometry
    moves = list(board.legal_moves)
    got = {f"{geo.name(m.from_square)}{'x' if m.is_capture else '-'}{geo.name(m.to_square)}" for m in moves}
    want = _normalise(expected)
    assert got == want, f"{rule}: {fen}"
    assert len(moves) == len(want), f"{rule}: several captured sets for one from-to: {moves}"
    for m in moves:
        assert board.move_text(m) == f"{geo.name(m.from_square)}{'x' if m.is_capture else '-'}" \
                                     f"{geo.name(m.to_square)}"


def test_passing_man_is_not_crowned() -> None:
    board = rules.Board("international", "W:W15:B9,10")
    (move,) = list(board.legal_moves)
    assert not move.promotion
    board.push(move)
    assert board.piece_at(move.to_square) == rules.Piece(rules.Color.WHITE, False)


# --- section 3, orientation and numbering checks --------------------------------------------------
ORIENTATION = [
    # (variant, number, algebraic)
    ("spanish", "1", "h1"), ("spanish", "4", "b1"), ("spanish", "5", "g2"), ("spanish", "8", "a2"),
    ("spanish", "29", "g8"), ("spanish", "32", "a8"),
    ("portuguese", "1", "h1"), ("portuguese", "32", "a8"),
    ("italian", "1", "a8"), ("italian", "4", "g8"), ("italian", "29", "b1"), ("italian", "32", "h1"),
    ("english", "1", "b8"), ("english", "4", "h8"), ("english", "5", "a7"), ("english", "29", "a1"),
    ("english", "32", "g1"),
    ("international", "1", "b10"), ("international", "5", "j10"), ("international", "6", "a9"),
    ("international", "46", "a1"), ("international", "50", "i1"),
]


@pytest.mark.parametrize(("variant", "number", "algebraic"), ORIENTATION)
def test_square_numbering(variant: str, number: str, algebraic: str) -> None:
    geo = rules.get_variant(variant).geometry
    sq = geo.parse_square(number)
    assert alg(geo, sq) == algebraic
    assert geo.algebraic(sq) == algebraic
    assert geo.name(sq) == number
    assert geo.number(sq) == int(number)


@pytest.mark.parametrize("variant", ["italian", "spanish", "portuguese"])
def test_light_corner_boards_have_no_a1(variant: str) -> None:
    geo = rules.get_variant(variant).geometry
    assert geo.square_at(0, 0) is None
    assert geo.square_at(0, 7) is not None


@pytest.mark.parametrize("variant", ["english", "international", "russian", "brazilian", "czech", "thai"])
def test_dark_corner_boards_have_a1(variant: str) -> None:
    geo = rules.get_variant(variant).geometry
    assert geo.square_at(0, 0) is not None
    assert geo.square_at(0, 1) is None


def test_double_corners_english() -> None:
    geo = rules.get_variant("english").geometry
    assert {alg(geo, geo.parse_square(n)) for n in ("1", "5")} == {"b8", "a7"}
    assert {alg(geo, geo.parse_square(n)) for n in ("28", "32")} == {"h2", "g1"}


def test_international_long_diagonal_corners() -> None:
    geo = rules.get_variant("international").geometry
    assert alg(geo, geo.parse_square("5")) == "j10"
    assert alg(geo, geo.parse_square("46")) == "a1"


@pytest.mark.parametrize(("variant", "fen", "white_rows", "black_rows"), [
    ("spanish", "W:W1-12:B21-32", {0, 1, 2}, {5, 6, 7}),
    ("portuguese", "W:W1-12:B21-32", {0, 1, 2}, {5, 6, 7}),
    ("italian", "W:W21-32:B1-12", {0, 1, 2}, {5, 6, 7}),
    ("english", "B:W21-32:B1-12", {0, 1, 2}, {5, 6, 7}),
    ("international", "W:W31-50:B1-20", {0, 1, 2, 3}, {6, 7, 8, 9}),
])
def test_start_positions(variant: str, fen: str, white_rows: set[int], black_rows: set[int]) -> None:
    start = rules.Board(variant)
    assert start.pieces() == rules.Board(variant, fen).pieces()
    assert start.turn == (rules.Color.BLACK if variant == "english" else rules.Color.WHITE)
    geo = start.variant.geometry
    assert {geo.rc(s)[0] for s in start.men(rules.Color.WHITE)} == white_rows
    assert {geo.rc(s)[0] for s in start.men(rules.Color.BLACK)} == black_rows
    per_side = len(geo.squares) * len(white_rows) // geo.height
    assert len(start.men(rules.Color.WHITE)) == len(start.men(rules.Color.BLACK)) == per_side
    assert not start.kings(rules.Color.WHITE) and not start.kings(rules.Color.BLACK)


def test_spanish_start_fen_round_trip() -> None:
    board = rules.Board("spanish", "W:W1-12:B21-32")
    again = rules.Board("spanish", board.fen())
    assert again.pieces() == board.pieces()
    geo = board.variant.geometry
    assert {alg(geo, s) for s in board.men(rules.Color.WHITE)} >= {"h1", "b1", "g2", "a2"}


def test_russian_algebraic_names() -> None:
    geo = rules.get_variant("russian").geometry
    sq = geo.square_at(0, 0)
    assert sq is not None and geo.name(sq) == "a1"
    assert geo.parse_square("h8") == geo.square_at(7, 7)
    start = rules.Board("russian")
    assert {alg(geo, s) for s in start.men(rules.Color.WHITE)} == {
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2", "a3", "c3", "e3", "g3"}


def test_thai_and_turkish_setups() -> None:
    thai = rules.Board("thai")
    geo = thai.variant.geometry
    assert {alg(geo, s) for s in thai.men(rules.Color.WHITE)} == {
        "a1", "c1", "e1", "g1", "b2", "d2", "f2", "h2"}
    assert {alg(geo, s) for s in thai.men(rules.Color.BLACK)} == {
        "b8", "d8", "f8", "h8", "a7", "c7", "e7", "g7"}
    assert thai.turn == rules.Color.BLACK
    turkish = rules.Board("turkish")
    tg = turkish.variant.geometry
    assert len(tg.squares) == 64
    assert {tg.rc(s)[0] for s in turkish.men(rules.Color.WHITE)} == {1, 2}
    assert {tg.rc(s)[0] for s in turkish.men(rules.Color.BLACK)} == {5, 6}
    assert len(turkish.men(rules.Color.WHITE)) == 16


def test_traditional_spanish_source_numbering_is_the_iberian_rotated() -> None:
    """docs/rules/spanish-traditional.md#notation: the source prints the board numbered from a8 (its number
    n' = 33 - n), White on its 21-32 and crowning on its 1-4; the project numbers it as Spanish does."""
    variant = rules.get_variant("spanish-traditional")
    geo = variant.geometry
    source = {33 - geo.number(sq): sq for sq in geo.squares}
    start = rules.Board(variant)
    assert set(start.men(rules.Color.WHITE)) == {source[n] for n in range(21, 33)}
    assert set(variant.crown_squares(rules.Color.WHITE)) == {source[n] for n in range(1, 5)}
    assert alg(geo, source[1]) == "a8" and geo.name(source[1]) == "32"


@pytest.mark.parametrize(("variant", "number", "algebraic"), [
    ("spanish-german", "1", "b8"), ("spanish-german", "29", "a1"), ("spanish-german", "32", "g1"),
    ("spanish-nordic", "1", "b10"), ("spanish-nordic", "46", "a1"),
    ("polish", "1", "b10"), ("polish", "50", "i1"),
    ("canadian", "1", "b12"), ("canadian", "72", "k1"), ("canadian", "67", "a1"),
    ("giveaway", "1", "b8"), ("giveaway", "32", "g1"),
])
def test_other_numberings(variant: str, number: str, algebraic: str) -> None:
    geo = rules.get_variant(variant).geometry
    assert alg(geo, geo.parse_square(number)) == algebraic


@pytest.mark.parametrize(("variant", "per_side", "rows"), [
    ("spanish-german", 12, 3), ("spanish-nordic", 20, 4), ("canadian", 30, 5), ("czech", 12, 3),
    ("brazilian", 12, 3), ("giveaway", 12, 3), ("polish", 20, 4), ("portuguese", 12, 3),
])
def test_more_start_positions(variant: str, per_side: int, rows: int) -> None:
    start = rules.Board(variant)
    geo = start.variant.geometry
    assert len(start.men(rules.Color.WHITE)) == len(start.men(rules.Color.BLACK)) == per_side
    assert {geo.rc(s)[0] for s in start.men(rules.Color.WHITE)} == set(range(rows))
    assert {geo.rc(s)[0] for s in start.men(rules.Color.BLACK)} == set(range(geo.height - rows, geo.height))


@pytest.mark.parametrize(("tag", "variant"), [
    ("20", "international"), ("20,W,10,10,N2,0", "international"), ("21,B,8,8,N1,0", "english"),
    ("22", "italian"), ("24", "spanish"), ("25", "russian"), ("26", "brazilian"), ("27", "canadian"),
    ("28", "portuguese"), ("29", "czech"), ("30", "turkish"), ("31", "thai"),
])
def test_variant_for_gametype(tag: str, variant: str) -> None:
    assert rules.variant_for_gametype(tag).id == variant


def test_aliases_and_unknown_variant() -> None:
    assert rules.get_variant("french").id == rules.get_variant("fmjd").id == "international"
    assert rules.get_variant("checkers").id == rules.get_variant("classic").id == "english"
    with pytest.raises(rules.UnknownVariantError, match="international"):
        rules.get_variant("chess")
    with pytest.raises(ValueError, match="nonsense"):
        rules.get_variant("thai", nonsense=1)
    with pytest.raises(ValueError):
        rules.variant_for_gametype("99")
