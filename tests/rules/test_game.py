"""Game: results, repetition and each variant's move-count draw rules."""

from __future__ import annotations

import pytest

from rules import Color, Game, GameOverError, Move, UnknownVariantError, get_variant


def quiet_king_move(game: Game) -> Move:
    """The first king non-capture after which the opponent has no capture (deterministic)."""
    b = game.board
    moves = list(b.legal_moves)
    if len(b.move_stack) >= 2:  # oscillate: undo our own previous move when possible
        prev = b.move_stack[-2]
        moves.sort(key=lambda m: (m.from_square, m.to_square) != (prev.to_square, prev.from_square))
    for m in moves:
        if m.is_capture or not b.piece_at(m.from_square).king:
            continue
        b.push(m)
        safe = not b.has_capture()
        b.pop()
        if safe:
            return m
    raise AssertionError(f"no quiet king move in {b.fen()}")


def shuffle(game: Game, plies: int) -> None:
    """Play `plies` quiet king moves."""
    for _ in range(plies):
        assert game.outcome() is None
        game.push(quiet_king_move(game))


def test_no_legal_move_loses() -> None:
    g = Game("international", "W:W46:B41,37")
    out = g.outcome()
    assert out is not None and out.result == "0-1" and out.reason == "no legal move"


def test_giveaway_blocked_side_wins() -> None:
    out = Game("giveaway", "B:W22").outcome()
    assert out is not None and out.winner == Color.BLACK


def test_threefold_repetition() -> None:
    g = Game("russian", "W:WKa1:BKh2")
    for text in ("a1-b2", "h2-g1", "b2-a1", "g1-h2", "a1-b2", "h2-g1", "b2-a1"):
        g.push(text)
        assert g.outcome() is None
    g.push("g1-h2")
    assert g.repetitions() == 3
    out = g.outcome()
    assert out is not None and out.result == "1/2-1/2" and out.reason == "threefold repetition"
    g.pop()
    assert g.outcome() is None


def test_english_repetition_is_a_draw_only_when_claimed() -> None:
    """WCDF rules (docs/rules/english.md#draws): a threefold repetition lets a player claim the draw; play
    may go on."""
    g = Game("english", "W:WK30:BK4")
    with pytest.raises(GameOverError, match="no draw can be claimed now"):
        g.claim_draw()
    for text in ("30-26", "4-8", "26-30", "8-4", "30-26", "4-8", "26-30", "8-4"):
        g.push(text)
    assert g.repetitions() == 3 and g.outcome() is None
    claimable = g.claimable_draw()
    assert claimable is not None and claimable.reason == "threefold repetition"
    g.push("30-25")                               # not claimed: the game goes on, and the claim lapses
    assert g.outcome() is None and g.claimable_draw() is None
    g.pop()
    out = g.claim_draw()
    assert out.result == "1/2-1/2" and out.reason == "threefold repetition, claimed"
    assert g.outcome() == out and g.claimable_draw() is None
    with pytest.raises(GameOverError, match="the game is over"):
        g.claim_draw()
    with pytest.raises(GameOverError, match="the game is over"):
        g.push("30-25")


def test_draw_claims_are_an_option() -> None:
    g = Game(get_variant("english", draw_claims=[]), "W:WK29:BK4")
    for text in ("29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29", "8-4"):
        g.push(text)
    assert g.outcome() is not None and g.claimable_draw() is None
    with pytest.raises(UnknownVariantError,
                       match=r"option draw_claims expects a list of repetition, no_progress"):
        get_variant("international", draw_claims=["endgame"])


def test_italian_needs_four_repetitions() -> None:
    g = Game("italian", "W:WK29:BK4")
    cycle = ["29-25", "4-8", "25-29", "8-4"]
    for text in cycle * 2:
        g.push(text)
    assert g.repetitions() == 3 and g.outcome() is None
    for text in cycle:
        g.push(text)
    out = g.outcome()
    assert out is not None and out.reason == "fourfold repetition"


def test_international_25_king_moves_each() -> None:
    g = Game(get_variant("international", repetition=1000), "W:WK46,K50,31:BK5,K1,20")
    shuffle(g, 49)
    g.push(quiet_king_move(g))
    out = g.outcome()
    assert out is not None and out.reason == "25 king moves each"


def test_man_move_resets_no_progress_counter() -> None:
    g = Game(get_variant("international", repetition=1000), "W:WK46,K50,36:BK5,K1,15")
    shuffle(g, 40)
    g.push(next(m for m in g.board.legal_moves if g.board.piece_at(m.from_square).king is False))
    shuffle(g, 49)
    assert g.outcome() is None


def test_international_16_and_5_move_endgames() -> None:
    g = Game(get_variant("international", repetition=1000), "W:WK47,K50,K45:BK3")
    shuffle(g, 31)
    g.push(quiet_king_move(g))
    out = g.outcome()
    assert out is not None and out.reason == "16-move endgame rule"
    g2 = Game(get_variant("international", repetition=1000), "W:WK47:BK3")
    shuffle(g2, 10)
    assert g2.outcome() is not None and g2.outcome().reason == "5-move endgame rule"


@pytest.mark.parametrize(("vid", "fen", "plies", "reason"), [
    ("brazilian", "W:WKa1,Kc1,c3:BKh8,Kf8,f6", 40, "20 king moves each"),
    ("english", "W:WK29,K30,21:BK1,K2,12", 80, "40 moves each without capture or man move"),
    ("czech", "W:WKa1,Kc1,c3:BKh8,Kf8,f6", 30, "15 moves each without capture or man move"),
    ("spanish", "W:WK1,K2,9:BK32,K31,24", 100, "50 moves each without capture or man move"),
])
def test_no_progress_counts(vid: str, fen: str, plies: int, reason: str) -> None:
    g = Game(get_variant(vid, repetition=1000), fen)
    shuffle(g, plies - 1)
    assert g.outcome() is None and g.claimable_draw() is None
    g.push(quiet_king_move(g))
    claimed = "no_progress" in g.variant.draw_claims            # English: WCDF's 40-move rule is a claim
    out = g.claimable_draw() if claimed else g.outcome()
    assert out is not None and out.result == "1/2-1/2" and out.reason == reason
    assert (g.outcome() is None) == claimed


def test_spanish_no_progress_is_an_option() -> None:
    g = Game(get_variant("spanish", repetition=1000, no_progress=20), "W:WK1,K2,9:BK32,K31,24")
    shuffle(g, 40)
    assert g.outcome() is not None


def test_turkish_king_versus_single_man() -> None:
    out = Game("turkish", "W:WKa1:Bh7").outcome()
    assert out is not None and out.winner == Color.WHITE and out.reason == "king versus single man"
    assert Game("turkish", "W:Wa2:Bh7").outcome() is None


def test_agreement_resignation_and_refusal_after_end() -> None:
    g = Game("english")
    g.push("9-13" if g.board.turn == Color.BLACK else "22-18")
    assert g.resign(Color.WHITE).result == "0-1"
    with pytest.raises(GameOverError, match="over"):  # item 18: a RulesError, as every rules-core refusal
        g.push("22-18")
    g.pop()
    assert g.outcome() is None
    assert g.agree_draw().reason == "agreement"
    assert len(g.moves) == 0
