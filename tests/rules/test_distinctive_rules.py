"""One hand-built position per distinctive rule of the rules pages (docs/rules): only a correct
implementation passes.

Positions are written in algebraic coordinates (a1 = White's near left corner) and translated to each
variant's numbering; expected moves are physical (from, to, captured set) keys. Each test states the rule
(the page and section it tests) and, where useful, the contrasting variant that must answer differently.
"""

from __future__ import annotations

from collections import Counter

import pytest
from _rulestest import board, find, k, keys

import rules

W, B = rules.Color.WHITE, rules.Color.BLACK


# --- Spanish family (docs/rules/spanish.md, spanish-traditional.md, spanish-german.md, spanish-nordic.md) ---
# Light-corner board: d3 man can take the man c4 (to b5) or the king e4 (to f5); both capture one piece.
SPANISH_QUALITY = ("W", ["d3"], ["c4", "Ke4"])


@pytest.mark.parametrize("variant", ["spanish", "portuguese"])
def test_spanish_quality_most_kings(variant: str) -> None:
    """docs/rules/spanish.md#capture-precedence (2), portuguese.md: among equally long captures the one taking
    more kings is compulsory."""
    assert keys(board(variant, *SPANISH_QUALITY)) == {k("d3", "f5", "e4")}


def test_spanish_traditional_has_no_quality_rule() -> None:
    """docs/rules/spanish-traditional.md#capture-precedence: "it does not matter whether he captures men or
    kings"."""
    assert keys(board("spanish-traditional", *SPANISH_QUALITY)) == {k("d3", "f5", "e4"), k("d3", "b5", "c4")}


@pytest.mark.parametrize("variant", ["spanish", "portuguese", "spanish-traditional"])
def test_spanish_quantity_before_quality(variant: str) -> None:
    """docs/rules/spanish.md#capture-precedence (1): two men (c4, c6) beat one king (e4)."""
    assert keys(board(variant, "W", ["d3"], ["c4", "c6", "Ke4"])) == {k("d3", "d7", "c4", "c6")}


@pytest.mark.parametrize("variant", ["spanish", "portuguese"])
def test_spanish_man_crowned_mid_capture_stops(variant: str) -> None:
    """docs/rules/spanish.md#crowning: a man jumping onto the last row stops there, crowned, though the king
    could take f7."""
    b = board(variant, "W", ["c6"], ["d7", "f7"])
    assert keys(b) == {k("c6", "e8", "d7")}
    (move,) = list(b.legal_moves)
    assert move.promotion
    b.push(move)
    assert b.piece_at(move.to_square) == rules.Piece(W, True)


def test_spanish_king_lands_anywhere_beyond() -> None:
    """docs/rules/spanish.md#capturing: the Spanish flying king may stop on any empty square beyond the
    captured piece."""
    got = keys(board("spanish", "W", ["Kh1"], ["f3"]))
    assert got == {k("h1", sq, "f3") for sq in ("e4", "d5", "c6", "b7", "a8")}


def test_spanish_german_king_stops_right_behind_last_piece() -> None:
    """docs/rules/spanish-german.md#capturing: after the final jump the king must stop immediately behind the
    last captured piece."""
    assert keys(board("spanish-german", "W", ["Ka1"], ["c3"])) == {k("a1", "d4", "c3")}


def test_spanish_german_intermediate_landing_is_free() -> None:
    """docs/rules/spanish-german.md#capturing: intermediate landings are free (e5, not d4, to reach f4); only
    the final one is fixed (g3)."""
    assert keys(board("spanish-german", "W", ["Ka1"], ["c3", "f4"])) == {k("a1", "g3", "c3", "f4")}


def test_spanish_nordic_man_long_forward_capture() -> None:
    """docs/rules/spanish-nordic.md#capturing: the man captures like a king but only forward (f6 from c3);
    never backward (b2)."""
    position = ("W", ["c3", "i9"], ["f6", "b2"])
    assert keys(board("spanish-nordic", *position)) == {k("c3", "g7", "f6"), k("c3", "h8", "f6")}
    # International men capture short, forward and backward: only b2 can be taken.
    assert keys(board("international", *position)) == {k("c3", "a1", "b2")}


# --- International / Polish (docs/rules/international.md, polish.md) ----------------------------------------
# King a1 takes c3 (land e5), f4 (land g3), f2 (land e1); from e1 the line d2-c3-b4 crosses c3 again.
REMOVAL_POSITION = ("W", ["Ka1"], ["c3", "f4", "f2", "b4"])


def test_international_captured_pieces_block_until_end() -> None:
    """docs/rules/international.md#capturing: captured c3 stays on the board until the move ends, so b4 cannot
    be reached through it."""
    assert keys(board("international", *REMOVAL_POSITION)) == {k("a1", "e1", "c3", "f4", "f2")}


def test_polish_immediate_removal_reopens_square() -> None:
    """docs/rules/polish.md#capturing: each captured piece leaves at once; the king re-crosses c3 and also
    takes b4."""
    assert keys(board("polish", *REMOVAL_POSITION)) == {k("a1", "a5", "c3", "f4", "f2", "b4")}


def test_international_passing_promotion_stays_man() -> None:
    """docs/rules/international.md#crowning / FMJD 4.15: a man passing d10 mid-capture continues backward (e9)
    and is not crowned."""
    b = board("international", "W", ["b8"], ["c9", "e9"])
    assert keys(b) == {k("b8", "f8", "c9", "e9")}
    (move,) = list(b.legal_moves)
    assert not move.promotion
    b.push(move)
    assert b.piece_at(move.to_square) == rules.Piece(W, False)


def test_international_man_ending_on_crown_row_is_crowned_without_king_powers() -> None:
    """docs/rules/international.md#crowning: from d10 only a king could go on (g7 at distance): the man stops
    and is crowned."""
    b = board("international", "W", ["b8"], ["c9", "g7"])
    assert keys(b) == {k("b8", "d10", "c9")}
    (move,) = list(b.legal_moves)
    assert move.promotion


# --- Russian / Brazilian (docs/rules/russian.md, brazilian.md) ----------------------------------------------
def test_russian_promote_and_continue_as_king() -> None:
    """docs/rules/russian.md#crowning: crowned on d8 mid-capture, the new king takes f6 at distance in the
    same move."""
    b = board("russian", "W", ["b6"], ["c7", "f6"])
    assert keys(b) == {k("b6", "g5", "c7", "f6"), k("b6", "h4", "c7", "f6")}
    for move in b.legal_moves:
        assert move.promotion
        b.push(move)
        assert b.piece_at(move.to_square) == rules.Piece(W, True)
        b.pop()


def test_brazilian_same_position_stops_on_crown_row() -> None:
    """docs/rules/brazilian.md#crowning: pass-through rules; the man cannot go on from d8 as a man, so it
    stops and is crowned."""
    b = board("brazilian", "W", ["b6"], ["c7", "f6"])
    assert keys(b) == {k("b6", "d8", "c7")}


def test_russian_free_choice_of_capture() -> None:
    """docs/rules/russian.md#capture-precedence: no maximum rule - the one-piece capture is as legal as the
    two-piece one."""
    got = keys(board("russian", "W", ["c3"], ["d4", "f6", "b4"]))
    assert got == {k("c3", "g7", "d4", "f6"), k("c3", "a5", "b4")}
    assert keys(board("brazilian", "W", ["c3"], ["d4", "f6", "b4"])) == {k("c3", "g7", "d4", "f6")}


# --- Italian (docs/rules/italian.md#capture-precedence) -----------------------------------------------------
def test_italian_quantity() -> None:
    """Italian precedence 1: the two-piece capture (c4, c6) beats the one-piece capture (e4)."""
    assert keys(board("italian", "W", ["d3"], ["c4", "c6", "e4"])) == {k("d3", "d7", "c4", "c6")}


def test_italian_capture_with_king() -> None:
    """Italian precedence 2: man d3 and king f3 can each take one piece: the king must capture."""
    assert keys(board("italian", "W", ["d3", "Kf3"], ["c4", "g4"])) == {k("f3", "h5", "g4")}


def test_italian_most_kings() -> None:
    """Italian precedence 3: the king takes the king e4 rather than the man g4."""
    assert keys(board("italian", "W", ["Kf3"], ["g4", "Ke4"])) == {k("f3", "d5", "e4")}


def test_italian_earliest_king() -> None:
    """Italian precedence 4: two captures of two pieces with one king each; the king-first one wins."""
    b = board("italian", "W", ["Kd3"], ["Kc4", "c6", "e4", "Kg6"])
    assert keys(b) == {k("d3", "d7", "c4", "c6")}
    # Without the order rule (precedence option) both two-piece captures are legal.
    no_order = rules.get_variant("italian", precedence=("max_pieces", "capture_with_king", "max_kings"))
    b2 = rules.Board(no_order, b.fen())
    assert keys(b2) == {k("d3", "d7", "c4", "c6"), k("d3", "h7", "e4", "g6")}


def test_italian_men_cannot_capture_kings() -> None:
    """docs/rules/italian.md#capturing: the man d3 may not take the king c4; it only has its simple move."""
    assert keys(board("italian", "W", ["d3"], ["Kc4"])) == {k("d3", "e4")}
    assert keys(board("italian", "W", ["d3"], ["Kc4", "e4"])) == {k("d3", "f5", "e4")}


# --- Czech (docs/rules/czech.md) ----------------------------------------------------------------------------
def test_czech_king_priority() -> None:
    """docs/rules/czech.md#capture-precedence: a king can capture (g3), so the man capture a3xc5 is illegal;
    landings are free."""
    got = keys(board("czech", "W", ["Kh2", "a3"], ["g3", "b4"]))
    assert got == {k("h2", sq, "g3") for sq in ("f4", "e5", "d6", "c7", "b8")}


def test_czech_no_maximum_rule_among_men() -> None:
    """docs/rules/czech.md#capture-precedence: without a capturing king, any capture may be chosen (one piece
    or two)."""
    got = keys(board("czech", "W", ["c3"], ["d4", "f6", "b4"]))
    assert got == {k("c3", "g7", "d4", "f6"), k("c3", "a5", "b4")}


# --- Thai (docs/rules/thai.md) ------------------------------------------------------------------------------
def test_thai_king_lands_immediately_behind() -> None:
    """docs/rules/thai.md#capturing: the flying king captures at distance but must land right behind the piece
    (e5 only)."""
    assert keys(board("thai", "W", ["Ka1"], ["d4"])) == {k("a1", "e5", "d4")}


def test_thai_immediate_removal_and_reversal() -> None:
    """docs/rules/thai.md#capturing: removal is immediate and a 180-degree turn is allowed: the king re-
    crosses e3 / c5."""
    got = keys(board("thai", "W", ["Ka1"], ["c3", "e3", "c5"]))
    assert got == {k("a1", "b6", "c3", "e3", "c5"), k("a1", "f2", "c3", "c5", "e3")}


def test_thai_men_capture_forward_only() -> None:
    """docs/rules/thai.md#capturing: men capture forward only (d4), never backward (b2)."""
    assert keys(board("thai", "W", ["c3"], ["d4", "b2"])) == {k("c3", "e5", "d4")}


# --- Turkish (docs/rules/turkish.md) ------------------------------------------------------------------------
def test_turkish_men_move_forward_and_sideways() -> None:
    """docs/rules/turkish.md#moving: men step straight forward or sideways, never backward or diagonally."""
    assert keys(board("turkish", "W", ["d4"], ["a8"])) == {k("d4", "d5"), k("d4", "c4"), k("d4", "e4")}


def test_turkish_men_capture_sideways() -> None:
    """docs/rules/turkish.md#capturing: men capture forward and sideways, not backward (d3)."""
    got = keys(board("turkish", "W", ["d4"], ["e4", "d5", "d3"]))
    assert got == {k("d4", "f4", "e4"), k("d4", "d6", "d5")}


def test_turkish_king_no_u_turn() -> None:
    """docs/rules/turkish.md#capturing: no 180-degree turn between captures, so each capture takes one piece
    only."""
    got = keys(board("turkish", "W", ["Kd4"], ["d6", "d2"]))
    assert got == {k("d4", "d7", "d6"), k("d4", "d8", "d6"), k("d4", "d1", "d2")}


def test_turkish_immediate_removal_reopens_line() -> None:
    """docs/rules/turkish.md#capturing: c4 is removed at once, so the king coming down the c-file crosses it
    to take c3."""
    got = keys(board("turkish", "W", ["Ka4"], ["c4", "e6", "d7", "c3"]))
    assert got == {k("a4", "c2", "c4", "e6", "d7", "c3"), k("a4", "c1", "c4", "e6", "d7", "c3")}


def test_turkish_king_versus_single_man_wins() -> None:
    """docs/rules/turkish.md#end-of-the-game: one king against a single man is a win for the king's side."""
    game = rules.Game("turkish", board("turkish", "W", ["Kd4"], ["a7"]).fen())
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == W and outcome.result == "1-0"


# --- Giveaway (docs/rules/giveaway.md#end-of-the-game) and the ordinary no-move rule ------------------------
BLOCKED = ("W", ["a1"], ["b2", "c3"])


def test_no_legal_move_loses_in_english() -> None:
    b = board("english", *BLOCKED)
    assert not b.legal_moves
    assert b.is_game_over() and b.winner() == B


def test_no_legal_move_wins_in_giveaway() -> None:
    b = board("giveaway", *BLOCKED)
    assert not b.legal_moves
    assert b.is_game_over() and b.winner() == W
    game = rules.Game("giveaway", b.fen())
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == W and outcome.result == "1-0"


def test_giveaway_side_without_pieces_wins() -> None:
    b = rules.Board("giveaway", "W:W:B1,2")
    assert b.winner() == W
    assert rules.Board("english", "W:W:B1,2").winner() == B


# --- Draw rules through rules.Game --------------------------------------------------------------------------
def _quiet_king_moves(game: rules.Game) -> list[rules.Move]:
    b = game.board
    kings = b.kings(b.turn)
    out = []
    for m in b.legal_moves:
        if m.is_capture or m.from_square not in kings:
            continue
        b.push(m)
        safe = not b.has_capture() and any(x.from_square in b.kings(b.turn) for x in b.legal_moves)
        b.pop()
        if safe:
            out.append(m)
    return out


def _king_shuffle(game: rules.Game, plies: int, seen: Counter[int]) -> None:
    """Play `plies` quiet king moves, never letting a position occur a third time (checked here).

    A depth-first search with backtracking when the construction gets stuck; an early game end is a
    failure (it is never backtracked over).
    """
    def search(left: int) -> bool:
        if left == 0:
            return True
        assert game.outcome() is None, f"game ended early at {game.board.fen()}: {game.outcome()}"

        def cost(m: rules.Move) -> tuple[int, int, int]:
            game.board.push(m)
            c = seen[game.board.key()]
            game.board.pop()
            return c, m.from_square, m.to_square

        for m in sorted(_quiet_king_moves(game), key=cost):
            game.push(m)
            seen[game.board.key()] += 1
            if seen[game.board.key()] <= 2 and search(left - 1):
                return True
            seen[game.board.key()] -= 1
            game.pop()
        return False

    assert search(plies), f"construction stuck at {game.board.fen()}"


# (variant, position, moves each) - kings shuffle, men never move, nothing is ever capturable.
COUNTER_RULES = [
    ("international", ("W", ["Kc5", "a1", "c1", "e1"], ["Kh6", "b10", "d10", "f10"]), 25),
    ("brazilian", ("W", ["Kc3", "a1", "c1"], ["Ke7", "h8", "f8"]), 20),
    ("spanish", ("W", ["Kd3", "h1", "f1"], ["Ke6", "a8", "c8"]), 50),
    ("czech", ("W", ["Kc3", "a1", "c1"], ["Ke7", "h8", "f8"]), 15),
    ("english", ("W", ["Kc3", "a1"], ["Ke7", "h8"]), 40),
    ("italian", ("W", ["Kd3", "h1"], ["Ke6", "a8"]), 40),
]


@pytest.mark.parametrize(("variant", "position", "each"), COUNTER_RULES, ids=[c[0] for c in COUNTER_RULES])
def test_move_count_draw(variant: str, position: tuple[str, list[str], list[str]], each: int) -> None:
    game = rules.Game(variant, board(variant, *position).fen())
    seen = Counter([game.board.key()])
    _king_shuffle(game, 2 * each - 1, seen)
    assert game.outcome() is None and game.claimable_draw() is None
    _king_shuffle(game, 1, seen)
    outcome = ended_or_claimable(game, claimed="no_progress" in game.variant.draw_claims)
    assert outcome.result == "1/2-1/2" and outcome.winner is None
    assert "repetition" not in outcome.reason


def ended_or_claimable(game: rules.Game, claimed: bool) -> rules.Outcome:
    """The draw that holds now: automatic (the game is over) or, for a claim rule, claimable only."""
    if claimed:
        assert game.outcome() is None
        draw = game.claimable_draw()
    else:
        assert game.claimable_draw() is None
        draw = game.outcome()
    assert draw is not None
    return draw


def test_move_count_resets_on_man_move() -> None:
    """International: a man move restarts the 25-king-moves count."""
    game = rules.Game("international", board("international", "W", ["Kc5", "a1", "c1", "e1"],
                                             ["Kh6", "b10", "d10", "f10"]).fen())
    seen = Counter([game.board.key()])
    _king_shuffle(game, 48, seen)
    game.push(find(game.board, "a1", "b2"))
    _king_shuffle(game, 3, seen)
    assert game.outcome() is None


def _shuffle_back_and_forth(game: rules.Game, cycles: int) -> None:
    """Both kings step out and back `cycles` times, repeating the start position each cycle."""
    for _ in range(cycles):
        there = []
        for _side in range(2):
            m = _quiet_king_moves(game)[0]
            game.push(m)
            there.append(m)
        for m in there:
            back = next(x for x in game.board.legal_moves
                        if x.from_square == m.to_square and x.to_square == m.from_square)
            game.push(back)


@pytest.mark.parametrize(("variant", "position", "limit"), [
    ("international", ("W", ["Kc5", "a1", "c1", "e1"], ["Kh6", "b10", "d10", "f10"]), 3),
    ("english", ("W", ["Kc3", "a1", "c1"], ["Kf6", "h8", "f8"]), 3),
    ("spanish", ("W", ["Kd3", "h1", "f1"], ["Ke6", "a8", "c8"]), 3),
    ("portuguese", ("W", ["Kd3", "h1", "f1"], ["Ke6", "a8", "c8"]), 3),
    ("czech", ("W", ["Kc3", "a1", "c1"], ["Ke7", "h8", "f8"]), 3),
    ("italian", ("W", ["Kd3", "h1", "f1"], ["Ke6", "a8", "c8"]), 4),
    ("russian", ("W", ["Kc3", "a1", "c1"], ["Ke7", "h8", "f8"]), 3),
    ("thai", ("W", ["Kc3", "a1", "c1"], ["Ke7", "h8", "f8"]), 3),
    ("turkish", ("W", ["Ka1", "c3", "d3"], ["Kh8", "e6", "f6"]), 3),
])
def test_repetition_draw(variant: str, position: tuple[str, list[str], list[str]], limit: int) -> None:
    game = rules.Game(variant, board(variant, *position).fen())
    start = game.board.key()
    # Each cycle returns to the start position: after `limit - 2` cycles it has occurred limit - 1 times.
    _shuffle_back_and_forth(game, limit - 2)
    assert game.board.key() == start
    assert game.outcome() is None and game.claimable_draw() is None
    _shuffle_back_and_forth(game, 1)
    assert game.board.key() == start
    outcome = ended_or_claimable(game, claimed="repetition" in game.variant.draw_claims)
    assert outcome.result == "1/2-1/2" and "repetition" in outcome.reason
    game.pop()
    assert game.outcome() is None and game.claimable_draw() is None


def test_agreement_and_resignation() -> None:
    game = rules.Game("english")
    assert game.outcome() is None
    assert game.resign(B).winner == W
    game2 = rules.Game("english")
    assert game2.agree_draw().result == "1/2-1/2"


# --- further capture-sequence rules (docs/rules/README.md#terms: continuation, removal) ---------------------
@pytest.mark.parametrize("variant", ["russian", "brazilian"])
def test_flying_king_must_land_where_it_can_continue(variant: str) -> None:
    """docs/rules/russian.md#capturing: after c3 the king must land on e5 (from where f4 can be taken), not on
    d4/f6/g7/h8."""
    got = keys(board(variant, "W", ["Ka1"], ["c3", "f4"]))
    assert got == {k("a1", "g3", "c3", "f4"), k("a1", "h2", "c3", "f4")}


def test_english_king_circuit_is_one_move_with_two_paths() -> None:
    """docs/rules/english.md#capturing: the clockwise and anticlockwise circuits round c3-c5-e5-e3 are one
    move, two paths."""
    b = board("english", "W", ["Kd2"], ["c3", "c5", "e5", "e3"])
    assert keys(b) == {k("d2", "d2", "c3", "c5", "e5", "e3")}
    assert len(b.capture_paths()) == 2
    assert rules.perft(b, 1) == 1 and rules.perft(b, 1, keep_duplicates=True) == 2
    (move,) = list(b.legal_moves)
    before = b.fen()
    b.push(move)
    assert b.pieces() == {move.from_square: rules.Piece(W, True)}, "the king must end where it started"
    b.pop()
    assert b.fen() == before


def test_international_capture_ending_on_start_square() -> None:
    """The capturing king returns to its start square (38) after a circuit; it must still be there."""
    b = rules.Board("international", "W:WK38:B32,22,23,33,1")
    geo = b.variant.geometry
    circuit = [m for m in b.legal_moves if m.from_square == m.to_square]
    assert len(circuit) == 1 and {geo.name(c) for c in circuit[0].captures} == {"22", "23", "32", "33"}
    b.push(circuit[0])
    assert b.fen() == "B:WK38:B1"


@pytest.mark.parametrize(("option", "expected"), [
    (None, {k("d6", "f8", "d7", "e8")}),  # default: continue as a man, crowned at the end
    ("stop", {k("d6", "d8", "d7")}),
    ("continue_as_king", {k("d6", sq, "d7", "e8") for sq in ("f8", "g8", "h8")}),
])
def test_turkish_promotion_mid_capture_options(option: str | None, expected: set[object]) -> None:
    """docs/rules/turkish.md#crowning (an option): a man reaching rank 8 mid-capture; e8 can be taken sideways
    from d8."""
    variant = rules.get_variant("turkish", **({} if option is None else {"promotion_mid_capture": option}))
    b = rules.Board(variant, board("turkish", "W", ["d6"], ["d7", "e8", "a2"]).fen())
    assert keys(b) == expected
    for move in b.legal_moves:
        assert move.promotion


def test_thai_man_crowned_mid_capture_stops() -> None:
    """docs/rules/thai.md#crowning: a man reaching the back rank during a capture stops there (the king could
    take e7)."""
    b = board("thai", "W", ["b6"], ["c7", "e7"])
    assert keys(b) == {k("b6", "d8", "c7")}
    assert next(iter(b.legal_moves)).promotion


def test_spanish_nordic_long_capture_onto_crown_row() -> None:
    """docs/rules/spanish-nordic.md#crowning: the man may land on any square beyond f8; landing on the crown
    row h10 crowns and stops."""
    b = board("spanish-nordic", "W", ["e7"], ["f8", "i9"])
    assert keys(b) == {k("e7", "g9", "f8"), k("e7", "h10", "f8")}
    promoted = {b.variant.geometry.rc(m.to_square): m.promotion for m in b.legal_moves}
    assert promoted == {(8, 6): False, (9, 7): True}


def test_giveaway_captures_still_compulsory() -> None:
    """docs/rules/giveaway.md#capturing: English rules in every respect but the objective - the capture must
    be played."""
    assert keys(board("giveaway", "W", ["c3", "h2"], ["d4"])) == {k("c3", "e5", "d4")}


def test_czech_king_priority_between_kings_is_free() -> None:
    """docs/rules/czech.md#capture-precedence: when several kings can capture, any king capture may be chosen
    (no maximum rule)."""
    got = keys(board("czech", "W", ["Ka1", "Kh2"], ["c3", "g3", "f6"]))
    # a1 takes c3 then f6 further along the same line; h2 takes g3, must land on e5 (rule 3) and then
    # takes c3 (to b2, a1 is occupied) or f6 (to g7/h8).
    assert got == {k("a1", "g7", "c3", "f6"), k("a1", "h8", "c3", "f6"), k("h2", "b2", "g3", "c3"),
                   k("h2", "g7", "g3", "f6"), k("h2", "h8", "g3", "f6")}


# --- rules where the sources disagree: options (docs/rules/README.md#options) -------------------------------
def test_polish_reversal_after_immediate_removal() -> None:
    """docs/rules/polish.md#options: Polish allows a 180-degree turn (default): after f6 the king comes back
    over e5 for c3."""
    position = ("W", ["Ke5"], ["f6", "c3"])
    both = {k("e5", sq, "f6", "c3") for sq in ("b2", "a1", "g7", "h8", "i9", "j10")}
    singles = ({k("e5", sq, "f6") for sq in ("g7", "h8", "i9", "j10")}
               | {k("e5", sq, "c3") for sq in ("b2", "a1")})
    assert keys(board("polish", *position)) == both
    assert keys(board("international", *position)) == singles
    no_turn = rules.get_variant("polish", allow_180=False)
    assert keys(rules.Board(no_turn, board("polish", *position).fen())) == singles


def test_thai_without_reversal_option() -> None:
    """docs/rules/thai.md#options: with allow_180=False (mindsports) the two reversing captures stop after two
    pieces."""
    fen_text = board("thai", "W", ["Ka1"], ["c3", "e3", "c5"]).fen()
    got = keys(rules.Board(rules.get_variant("thai", allow_180=False), fen_text))
    assert got == {k("a1", "f2", "c3", "e3"), k("a1", "b6", "c3", "c5")}


def test_thai_first_player_option() -> None:
    """docs/rules/thai.md#options: Black starts by default (PDN 31,B); the option lets White start."""
    assert rules.Board("thai").turn == B
    assert rules.Board(rules.get_variant("thai", first=W)).turn == W


@pytest.mark.parametrize(("variant", "position", "expected"), [
    ("english", ("W", ["b6"], ["c7", "e7"]), k("b6", "d8", "c7")),
    ("czech", ("W", ["b6"], ["c7", "f6"]), k("b6", "d8", "c7")),
    ("italian", ("W", ["c6"], ["d7", "f7"]), k("c6", "e8", "d7")),
])
def test_crowning_ends_the_move(variant: str, position: tuple[str, list[str], list[str]],
                                expected: object) -> None:
    """docs/rules/english.md#crowning (and italian.md, czech.md): a man crowned by a capture stops even
    though the new king could capture on."""
    b = board(variant, *position)
    assert keys(b) == {expected}
    assert next(iter(b.legal_moves)).promotion


# --- FMJD endgame rules (docs/rules/international.md#draws) -------------------------------------------------
@pytest.mark.parametrize(("white", "each", "reason_part"), [
    (["Ka3", "Kc1", "Ke1"], 16, "16"),      # three kings against one king: 16 moves each
    (["Ka3", "Kc1"], 5, "5"),               # two kings against one king: 5 moves each
    (["Ka3", "c1"], 5, "5"),                # king and man against one king
])
def test_international_endgame_move_limits(white: list[str], each: int, reason_part: str) -> None:
    game = rules.Game("international", board("international", "W", white, ["Kf10"]).fen())
    seen = Counter([game.board.key()])
    _king_shuffle(game, 2 * each - 1, seen)
    assert game.outcome() is None
    _king_shuffle(game, 1, seen)
    outcome = game.outcome()
    assert outcome is not None and outcome.result == "1/2-1/2" and reason_part in outcome.reason
