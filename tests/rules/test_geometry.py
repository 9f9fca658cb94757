"""Geometry and numbering: the checks of docs/rules/reference-data.md#numbering-checks, rays and the
padded-grid layout."""

from __future__ import annotations

import pytest

from rules import InvalidSquareError, get_variant
from rules.geometry import DIRECTIONS, Geometry


def names(variant_id: str, numbers: tuple[int, ...]) -> list[str]:
    g = get_variant(variant_id).geometry
    return [g.algebraic(g.parse_square(str(n))) for n in numbers]


def test_spanish_iberian_numbering() -> None:
    assert names("spanish", (1, 4, 5, 8, 29, 32)) == ["h1", "b1", "g2", "a2", "g8", "a8"]
    assert names("portuguese", (1, 32)) == ["h1", "a8"]


@pytest.mark.parametrize("variant", ["spanish-traditional", "portuguese"])
def test_spanish_family_shares_the_iberian_numbering(variant: str) -> None:
    assert names(variant, tuple(range(1, 33))) == names("spanish", tuple(range(1, 33)))


def test_italian_numbering_and_a1_not_playing() -> None:
    assert names("italian", (1, 4, 29, 32)) == ["a8", "g8", "b1", "h1"]
    g = get_variant("italian").geometry
    assert g.square_at(0, 0) is None
    assert g.square_at(0, 7) is not None


def test_english_numbering() -> None:
    assert names("english", (1, 4, 5, 29, 32)) == ["b8", "h8", "a7", "a1", "g1"]


def test_international_and_canadian_numbering() -> None:
    assert names("international", (1, 5, 6, 46, 50)) == ["b10", "j10", "a9", "a1", "i1"]
    assert names("canadian", (1, 72)) == ["b12", "k1"]


def test_thai_numbering_starts_bottom_right() -> None:
    assert names("thai", (1, 4, 32)) == ["g1", "a1", "b8"]


def test_algebraic_variants_and_number_equivalent() -> None:
    g = get_variant("russian").geometry
    assert g.name(g.parse_square("c3")) == "c3"
    assert g.number(g.parse_square("a1")) == 1
    assert g.number(g.parse_square("h8")) == 32
    t = get_variant("turkish").geometry
    assert len(t.squares) == 64
    assert t.number(t.parse_square("h8")) == 64


def test_rc_and_square_at_roundtrip_every_variant() -> None:
    from rules import VARIANT_IDS

    for vid in VARIANT_IDS:
        g = get_variant(vid).geometry
        for sq in g.squares:
            r, c = g.rc(sq)
            assert g.square_at(r, c) == sq
            assert g.parse_square(g.name(sq)) == sq


def test_parse_square_errors_name_the_text() -> None:
    g = get_variant("international").geometry
    for bad in ("0", "51", "07", "c3x", ""):
        with pytest.raises(InvalidSquareError, match="is not a playing square"):
            g.parse_square(bad)
    with pytest.raises(InvalidSquareError, match="'a2'"):
        get_variant("russian").geometry.parse_square("a2")


def test_rays_never_wrap_around_edges() -> None:
    g = Geometry(8, 8, "dark", "top-left")
    for d, (dr, dc) in enumerate(DIRECTIONS):
        for sq in g.squares:
            r, c = g.rc(sq)
            for i, t in enumerate(g.rays[d][sq], start=1):
                assert g.rc(t) == (r + i * dr, c + i * dc)


def test_full_board_orthogonal_rays() -> None:
    g = Geometry(8, 8, "all", "algebraic")
    a1 = g.parse_square("a1")
    up = DIRECTIONS.index((1, 0))
    right = DIRECTIONS.index((0, 1))
    assert [g.name(s) for s in g.rays[up][a1]] == [f"a{i}" for i in range(2, 9)]
    assert [g.name(s) for s in g.rays[right][a1]] == [f"{f}1" for f in "bcdefgh"]


def test_alquerque_style_diagonals_only_on_even_points() -> None:
    g = Geometry(5, 5, "all", "algebraic", diagonals="even")
    up_right = DIRECTIONS.index((1, 1))
    assert g.rays[up_right][g.parse_square("b1")] == ()
    assert [g.name(s) for s in g.rays[up_right][g.parse_square("a1")]] == ["b2", "c3", "d4", "e5"]
