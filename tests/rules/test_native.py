"""The compiled rules core against the pure-Python one (the reference): same moves in the same order on
thousands of positions per variant, published perft counts deeper than the Python core can reach in a test,
the capability check, bad input, and memory over a million make/unmake cycles.

These tests reach the extension through rules.native.compiled(), so they run (and must pass) whether or not
DBOARD_PURE_PYTHON is set; ./dev test builds the extension, so a failed build fails here.
"""

from __future__ import annotations

import dataclasses
import logging
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from rules import native
from rules.movegen import MoveGen
from rules.pdn import PdnReader
from rules.pdn.encoding import DecodedLines

DATA = Path(__file__).resolve().parents[1] / "data"
REAL_GAMES = {  # tests/data files of played games and published openings, by variant
    "international": ("international-sijbrands-andreiko-1973.pdn", "international-vanderwal-wiersma-1983.pdn",
                      "international-zundert-computer-2022.pdn"),
    "turkish": ("turkish-ffloof-engine-games.pdn",),
    "italian": ("italian-published-games.pdn", "italian-11-ballots.pdn"),
    "spanish": ("spanish-bbzero-games.pdn",),
    "russian": ("russian-150-openings.pdn",),
    "brazilian": ("brazilian-openings.pdn",),
    "english": ("english-3move-ballots.pdn",),
}
POSITIONS = 2000
# Every variant of the rules core when the native core was written (8x8, 10x10, 12x12, Turkish): all must fit.
# Variants added since are tested here when they fit too; the others play on the Python core (tested below).
COVERED = ("spanish", "spanish-traditional", "spanish-german", "spanish-nordic", "portuguese",
           "international", "polish", "brazilian", "canadian", "russian", "english", "giveaway", "italian",
           "czech", "thai", "turkish")
NATIVE_IDS = native.native_variant_ids()
Position = tuple[int, int, int, rules.Color]   # own, opp, kings, side to move


def _native_gen(variant: rules.Variant) -> Any:
    gen = native.native_movegen(variant, force=True)
    assert gen is not None, "the native core is not built: `pip install -e .` needs a C compiler"
    return gen


@cache
def _gens(variant_id: str) -> tuple[MoveGen, Any]:
    variant = rules.get_variant(variant_id)
    return MoveGen(variant), _native_gen(variant)


def _position(board: rules.Board) -> Position:
    own, opp = board._own_opp()
    return own, opp, board._k, board.turn


def _random_games(variant_id: str, games: int, plies: int) -> list[Position]:
    out = []
    for game in range(games):
        rng = random.Random(f"{variant_id}-{game}")
        board = rules.Board(variant_id)
        for _ in range(plies):
            out.append(_position(board))
            moves = sorted(board.legal_moves, key=lambda m: (m.from_square, m.to_square, m.captures))
            if not moves:
                break
            board.push(rng.choice(moves))
    return out


def _real_games(variant_id: str) -> list[Position]:
    out = []
    for name in REAL_GAMES.get(variant_id, ()):
        with (DATA / name).open("rb") as handle:
            for game in PdnReader(DecodedLines(handle), validate=True):
                board = rules.Board(variant_id)
                for node in game.moves:
                    if node.move is None:
                        break
                    out.append(_position(board))
                    board.push(node.move)  # type: ignore[arg-type]
    return out


def _crowded_position(variant: rules.Variant, rng: random.Random) -> rules.Board:
    """Up to 10 pieces a side, a third of the men one or two rows short of crowning, kings common: captures,
    multi-captures, mid-capture crowning and precedence ties in most of them."""
    geo = variant.geometry
    free = sorted(geo.squares)
    top = geo.height - 1
    sides: dict[str, list[str]] = {"W": [], "B": []}
    for side in "WB":
        for _ in range(rng.randint(1, 10)):
            near = [s for s in free if geo.rc(s)[0] in ((top - 2, top - 1) if side == "W" else (1, 2))]
            sq = rng.choice(near if near and rng.random() < 0.35 else free)
            free.remove(sq)
            row = geo.rc(sq)[0]
            king = rng.random() < 0.4 or row == (top if side == "W" else 0)
            sides[side].append(("K" if king else "") + geo.name(sq))
            if not free:
                break
    return rules.Board(variant, f"{rng.choice('WB')}:W{','.join(sides['W'])}:B{','.join(sides['B'])}")


@cache
def _positions(variant_id: str) -> tuple[list[Position], int]:
    """(positions, how many came from real games): random games, real games, then crowded positions."""
    variant = rules.get_variant(variant_id)
    out = _random_games(variant_id, 4, 150)
    real = _real_games(variant_id)
    out += real
    rng = random.Random(f"crowded-{variant_id}")
    while len(out) < POSITIONS:
        out.append(_position(_crowded_position(variant, rng)))
    return out, len(real)


def _same_moves(variant_id: str, pos: Position) -> None:
    """Both cores give the same raw moves, in the same order, and agree on every query."""
    py, nat = _gens(variant_id)
    for keep in (False, True):
        expected = [r[:6] for r in py.legal(*pos, keep_duplicates=keep)]
        got = [r[:6] for r in nat.legal(*pos, keep_duplicates=keep)]
        assert got == expected, (variant_id, keep, pos)
        assert nat.count_legal(*pos, keep_duplicates=keep) == len(expected)
    assert nat.has_capture(*pos) == py.has_capture(*pos)
    assert [r[:6] for r in nat.quiet_moves(*pos)] == [r[:6] for r in py.quiet_moves(*pos)]
    assert nat.count_quiet(*pos) == py.count_quiet(*pos)


def test_the_extension_is_built_and_every_variant_of_the_rules_core_fits_it() -> None:
    _native_gen(rules.get_variant("english"))
    assert {v: native.unsupported(rules.get_variant(v)) for v in COVERED} == dict.fromkeys(COVERED)
    assert set(COVERED) <= set(NATIVE_IDS)


@pytest.mark.parametrize("variant_id", NATIVE_IDS)
def test_same_moves_as_the_python_core(variant_id: str) -> None:
    positions, real = _positions(variant_id)
    assert len(positions) >= POSITIONS
    assert real > 0 or variant_id not in REAL_GAMES
    captures = 0
    for pos in positions:
        _same_moves(variant_id, pos)
        captures += _gens(variant_id)[0].has_capture(*pos)
    assert captures >= POSITIONS // 5, captures   # the captures rules are what can go wrong


@pytest.mark.parametrize("variant_id", NATIVE_IDS)
def test_same_perft_as_the_python_core_below_many_positions(variant_id: str) -> None:
    py, nat = _gens(variant_id)
    positions = _positions(variant_id)[0][::100]
    for own, opp, kings, color in positions:
        for keep in (False, True):
            board = rules.Board(variant_id)
            board._set(*((own, opp) if color == rules.Color.WHITE else (opp, own)), kings, color)
            board._gen = py
            expected = rules.perft(board, 3, keep)
            assert nat.perft(own, opp, kings, color, 3, keep) == expected, (variant_id, board.fen())


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant_id=st.sampled_from(NATIVE_IDS), seed=st.integers(0, 2**32 - 1))
def test_same_moves_on_hypothesis_positions(variant_id: str, seed: int) -> None:
    board = _crowded_position(rules.get_variant(variant_id), random.Random(seed))
    _same_moves(variant_id, _position(board))


# -- published perft counts, deeper than tests/rules/test_reference.py takes the Python core ---------------
DEEP_PERFT = [  # (variant, depth, keep or None, drop): docs/rules/reference-data.md#perft-counts
    ("international", 8, 6483971, 6483961),
    ("english", 10, None, 18391564),   # keep = drop at this depth
    ("russian", 9, 4570667, 4570586),
    # Keep at d10 is 22,450,628 in the reference, which merges paths that take the same pieces in the same
    # order; both cores count every landing path there (22,450,647), so only drop is comparable.
    ("russian", 10, None, 22444032),
]


@pytest.mark.parametrize(("variant_id", "depth", "keep", "drop"), DEEP_PERFT)
def test_deep_published_perft(variant_id: str, depth: int, keep: int | None, drop: int) -> None:
    _py, nat = _gens(variant_id)
    pos = _position(rules.Board(variant_id))
    assert nat.perft(*pos, depth, False) == drop
    if keep is not None:
        assert nat.perft(*pos, depth, True) == keep


# -- the capability check ----------------------------------------------------------------------------------
def test_a_field_the_native_core_does_not_know_is_supported_only_at_its_default(monkeypatch) -> None:
    monkeypatch.setattr(native, "_KNOWN_FIELDS", native._KNOWN_FIELDS - {"allow_180"})
    monkeypatch.setattr(native, "_NATIVE_VALUES", {k: v for k, v in native._NATIVE_VALUES.items()
                                                    if k != "allow_180"})
    native.unsupported.cache_clear()
    try:
        assert native.unsupported(rules.get_variant("international")) is None   # allow_180 at its default
        assert "allow_180" in (native.unsupported(rules.get_variant("thai")) or "")
    finally:
        native.unsupported.cache_clear()


@pytest.mark.parametrize("far_row_crowns", [False, True])
def test_corner_plays_natively_and_agrees_with_the_python_core(monkeypatch, far_row_crowns: bool) -> None:
    """Corner's option list and far_row_crowns (crown squares, sent as a table) need no fallback (issue 28
    item 21): the compiled core plays it, with the same perft as the Python core's."""
    monkeypatch.setattr(native, "_EXT", native.compiled())
    corner = rules.get_variant("corner", far_row_crowns=far_row_crowns)
    assert "corner" in NATIVE_IDS and native.unsupported(corner) is None
    board = rules.Board(corner)
    assert type(board._gen) is not MoveGen
    python = rules.Board(corner)
    python._gen = MoveGen(corner)
    for depth in range(1, 7):
        assert rules.perft(board, depth) == rules.perft(python, depth), depth
    near_far_row = rules.Board(corner, "W:We7:Ba1")   # e7-d8 and e7-f8: far row, not a crowning corner
    assert {m.promotion for m in near_far_row.legal_moves} == {far_row_crowns}   # the table carries it
    assert type(near_far_row._gen) is not MoveGen


def test_variants_beyond_the_native_core_play_on_the_python_core_and_say_so(monkeypatch, caplog) -> None:
    monkeypatch.setattr(native, "_EXT", native.compiled())
    big = dataclasses.replace(rules.get_variant("international"), id="big", width=14, height=14,
                              setup_white="71-98", setup_black="1-28")
    # a capture rule added to the Python core later, which the C side does not implement
    monkeypatch.setattr(rules.variants, "KING_CAPTURES", (*rules.variants.KING_CAPTURES, "long_sideways"))
    odd = dataclasses.replace(rules.get_variant("english"), id="odd", king_capture="long_sideways")
    assert "larger" in (native.unsupported(big) or "")
    assert "king_capture" in (native.unsupported(odd) or "")
    with caplog.at_level(logging.INFO, logger="rules.native"):
        board = rules.Board(big)
        assert type(board._gen) is MoveGen and rules.perft(board, 2) == len(board.legal_moves) ** 2
        assert type(rules.Board(odd)._gen) is MoveGen
    said = [r.getMessage() for r in caplog.records if r.name == "rules.native"]
    assert said == ["draughts-board: big plays on the pure-Python core (beyond the native core: "
                    "a 14x14 board is larger than the native core's bitboards)",
                    "draughts-board: odd plays on the pure-Python core (beyond the native core: "
                    "king_capture='long_sideways' is not implemented natively)"]


def test_a_new_geometry_that_fits_runs_natively_with_the_same_moves() -> None:
    """Diagonals only through even cells (an alquerque-like board) need no C change: the rays come as data."""
    even = dataclasses.replace(rules.get_variant("english"), id="even-diagonals", cells="all",
                               diagonals="even", setup_white="rank:1-2", setup_black="rank:7-8")
    assert native.unsupported(even) is None
    py, nat = MoveGen(even), _native_gen(even)
    board = rules.Board(even)
    rng = random.Random(3)
    for _ in range(300):
        pos = _position(board)
        assert [r[:6] for r in nat.legal(*pos)] == [r[:6] for r in py.legal(*pos)], board.fen()
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))


# -- bad input ---------------------------------------------------------------------------------------------
def test_bad_input_raises_the_rules_errors_and_never_crashes() -> None:
    _py, gen = _gens("international")
    own, opp, kings, turn = _position(rules.Board("international"))
    with pytest.raises(TypeError, match="int bitboard"):
        gen.legal("31-50", opp, kings, turn)
    with pytest.raises(TypeError):
        gen.legal(own, opp, kings)
    with pytest.raises(TypeError, match="color"):
        gen.legal(own, opp, kings, "white")
    with pytest.raises(rules.InvalidSquareError, match="bit 10 is not a playing square"):
        gen.legal(own | 1 << 10, opp, kings, turn)   # the ghost column of the padded board
    with pytest.raises(rules.InvalidSquareError, match="beyond the board"):
        gen.has_capture(1 << 500, opp, kings, turn)
    with pytest.raises(rules.InvalidSquareError, match="negative"):
        gen.count_legal(-1, opp, kings, turn)
    with pytest.raises(rules.RulesError, match="share a square"):
        gen.legal(own, opp | own, kings, turn)
    with pytest.raises(rules.RulesError, match="kings bitboard marks an empty square"):
        gen.legal(own, opp, 1 << rules.Board("international").variant.geometry.parse_square("25"), turn)
    with pytest.raises(rules.RulesError, match="color must be 0"):
        gen.legal(own, opp, kings, 2)
    with pytest.raises(ValueError, match="perft depth"):
        gen.perft(own, opp, kings, turn, -1)
    params = dict(native.rules_params(rules.get_variant("english")))
    del params["zturn"]
    with pytest.raises(KeyError, match="missing zturn"):
        native.compiled().MoveGen(params, rules.Move)
    with pytest.raises(ValueError, match="squares"):
        native.compiled().MoveGen({**native.rules_params(rules.get_variant("english")), "n": 3}, rules.Move)
    with pytest.raises(TypeError, match="dict"):
        native.compiled().MoveGen([], rules.Move)
    assert len(gen.legal(own, opp, kings, turn)) == 9   # still serving after all of that


@pytest.mark.parametrize("fen", ["W:W31-50:B1-20:X", "W:W51:B1", "Q:W1:B2", "W:W1,1:B2", "W:WK0"])
def test_a_corrupt_fen_raises_fen_errors_on_the_native_board(fen: str) -> None:
    with pytest.raises(rules.FenError):
        rules.Board("international", fen)


# -- memory ------------------------------------------------------------------------------------------------
def _rss_kb() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4


def _cycles(boards: list[rules.Board], count: int) -> int:
    """`count` make/unmake cycles through the public API, each making the compiled core build moves (the
    raw-move tuples it allocates are where a reference-count slip would leak)."""
    made = 0
    while made < count:
        for board in boards:
            for move in list(board.legal_moves):
                board.push(move)
                made += len(board.legal_moves) > 0
                board.pop()
    return made


def test_no_leak_over_a_million_make_unmake_cycles() -> None:
    """1.2 million makes inside C (perft) and 300,000 through Board.push/pop with moves built in between."""
    rng = random.Random(11)
    boards = [_crowded_position(rules.get_variant(v), rng) for v in ("international", "canadian", "turkish",
                                                                    "italian", "russian") for _ in range(4)]
    boards = [b for b in boards if b.legal_moves]
    _cycles(boards, 20_000)   # warm-up: caches, allocator arenas
    before = _rss_kb()
    _cycles(boards, 100_000)
    # and inside C: perft(8) makes every move of depths 1-7 (1.2 million) and counts the last ply
    _py, gen = _gens("international")
    assert sum(gen.perft(*_position(rules.Board("international")), d) for d in range(1, 8)) > 10**6
    assert gen.perft(*_position(rules.Board("international")), 8) == 6483961
    _cycles(boards, 200_000)
    assert _rss_kb() - before < 5 * 1024
