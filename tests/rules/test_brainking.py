"""BrainKing's seven games, one position per rule of their rules pages (docs/rules/corner.md, one-way.md,
parachute.md, gothic.md, dameo.md, alquerque.md, hawaii.md); each test names the rule's section of the
rules specification (3.16 the Czech family, 3.19 Gothic, 3.20 Dameo, 3.21 Alquerque, 3.22 Konane).

Positions are written in algebraic coordinates and expected moves are physical (from, to, captured set)
keys, as in test_distinctive_rules.py.
"""

from __future__ import annotations

import pytest
from _rulestest import board, fen, find, k, keys

import rules

W, B = rules.Color.WHITE, rules.Color.BLACK


def squares(b: rules.Board, color: rules.Color) -> set[str]:
    """The algebraic names of a color's pieces."""
    g = b.variant.geometry
    return {g.algebraic(sq) for sq in b.men(color) | b.kings(color)}


def names(text: str) -> set[str]:
    return set(text.split())


# --- 3.16 Corner checkers (docs/rules/corner.md) --------------------------------------------------------
def test_corner_setup_fills_the_corner_triangles() -> None:
    """3.16.1: White on the triangle at h1, Black on the triangle at a8, the long diagonal a1-h8 empty."""
    b = rules.Board("corner")
    assert squares(b, W) == names("g1 h2 e1 f2 g3 h4 c1 d2 e3 f4 g5 h6")
    assert squares(b, B) == names("b8 a7 d8 c7 b6 a5 f8 e7 d6 c5 b4 a3")
    diagonal = {b.variant.geometry.parse_square(s) for s in names("a1 b2 c3 d4 e5 f6 g7 h8")}
    assert not b.occupied() & diagonal
    assert b.turn == W


def test_corner_crowns_only_on_the_two_corner_squares() -> None:
    """3.16.1: a man is crowned only on a7/b8 (White), g1/h2 (Black); on d8 it stays a man and is stuck."""
    b = board("corner", "W", ["c7"], ["h8"])
    to_b8, to_d8 = find(b, "c7", "b8"), find(b, "c7", "d8")
    assert to_b8.promotion and not to_d8.promotion
    b.push(to_d8)
    b.push(find(b, "h8", "g7"))
    assert keys(b) == set(), "a man on a non-crowning far-row square can no longer move"
    black = board("corner", "B", ["a1"], ["f2", "g3"])
    assert find(black, "f2", "g1").promotion and not find(black, "f2", "e1").promotion
    assert find(black, "g3", "h2").promotion


def test_corner_crowning_by_capture_stops() -> None:
    """3.16.1: reaching a7 by a capture crowns the man and ends the move (men capture only forward)."""
    b = board("corner", "W", ["c5"], ["b6", "h8"])
    (move,) = b.legal_moves
    assert keys(b) == {k("c5", "a7", "b6")} and move.promotion


def test_corner_option_crowns_the_whole_far_row() -> None:
    """3.16 (conflict C13): the option far_row_crowns also crowns on the rest of the far row."""
    variant = rules.get_variant("corner", far_row_crowns=True)
    b = rules.Board(variant, fen(variant, "W", ["c7"], ["h8"]))
    assert find(b, "c7", "d8").promotion and find(b, "c7", "b8").promotion


def test_corner_plays_czech_captures() -> None:
    """3.16: Czech rules - men capture forward only; a king that can capture must; no maximum rule."""
    b = board("corner", "B", ["b2", "f2", "a7"], ["c3", "Kh4"])
    assert keys(b) == {k("h4", "e1", "f2")}
    free = board("corner", "W", ["c3"], ["d4", "f6", "b4", "b2"])
    assert keys(free) == {k("c3", "a5", "b4"), k("c3", "g7", "d4", "f6")}


# --- 3.16 One Way checkers (docs/rules/one-way.md) ------------------------------------------------------
def test_one_way_setup_side_by_side() -> None:
    """3.16.2: Black on files a-d, White on e-h, both on the dark squares of ranks 1-6; ranks 7-8 empty."""
    b = rules.Board("one-way")
    assert squares(b, B) == names("a1 c1 b2 d2 a3 c3 b4 d4 a5 c5 b6 d6")
    assert squares(b, W) == names("e1 g1 f2 h2 e3 g3 f4 h4 e5 g5 f6 h6")


def test_one_way_both_colors_move_and_capture_towards_rank_8() -> None:
    """3.16.2: Black's men move and capture up the board too, and are crowned on rank 8."""
    b = board("one-way", "B", ["h6", "b4"], ["a3", "c3"])
    assert keys(b) == {k("a3", "c5", "b4"), k("c3", "a5", "b4")}
    steps = board("one-way", "B", ["h6"], ["b6", "c7"])
    assert keys(steps) == {k("b6", "a7"), k("c7", "b8"), k("c7", "d8")}
    assert find(steps, "c7", "d8").promotion and not find(steps, "b6", "a7").promotion
    white = board("one-way", "W", ["e5"], ["d6", "a1"])
    assert keys(white) == {k("e5", "c7", "d6")}


# --- 3.16 Parachute checkers (docs/rules/parachute.md) ---------------------------------------------------
def test_parachute_setup() -> None:
    """3.16.3: 8 men on ranks 2-3 (6-7) and 4 parachutists on the opponent's first row."""
    b = rules.Board("parachute")
    assert squares(b, W) == names("b2 d2 f2 h2 a3 c3 e3 g3 b8 d8 f8 h8")
    assert squares(b, B) == names("a1 c1 e1 g1 b6 d6 f6 h6 a7 c7 e7 g7")
    assert not b.kings(W) and not b.kings(B)


def test_parachutist_captures_once_and_becomes_a_man() -> None:
    """3.16.3: a parachutist's only move is a capture of a piece on rank 7 (2), landing right behind it; it is
    then an ordinary man and the move ends (C14: no further jump, though d6 could take on)."""
    b = board("parachute", "W", ["b8", "h2"], ["c7", "e5", "g7"])
    assert keys(b) == {k("b8", "d6", "c7")}
    b.push(find(b, "b8", "d6", "c7"))
    b.push(find(b, "g7", "h6"))
    assert k("d6", "f4", "e5") not in keys(b), "as a man it captures forward only"
    assert k("d6", "e7") in keys(b), "and moves forward like a man"
    black = board("parachute", "B", ["f2", "h8"], ["g1"])
    assert keys(black) == {k("g1", "e3", "f2")}


def test_parachutist_has_no_quiet_move_and_no_capture_priority() -> None:
    """3.16.3: a parachutist never simply moves; it is not a king for the king's capture priority."""
    assert keys(board("parachute", "W", ["b8", "h2"], ["a7"])) == {k("h2", "g3")}
    b = board("parachute", "W", ["Ka1", "b8"], ["c7", "c3", "h8"])
    assert {frm for frm, _, _ in keys(b)} == {"a1"}
    free = board("parachute", "W", ["b8", "e5"], ["c7", "f6", "g1"])
    assert keys(free) == {k("b8", "d6", "c7"), k("e5", "g7", "f6")}


def test_parachutist_multi_jump_option() -> None:
    """3.16.3 (conflict C14): with parachutist_multi_jump the capture goes on like a checkers king's."""
    variant = rules.get_variant("parachute", parachutist_multi_jump=True)
    b = rules.Board(variant, fen(variant, "W", ["b8"], ["c7", "e5", "a1"]))
    assert keys(b) == {k("b8", "f4", "c7", "e5")}
    (move,) = b.legal_moves
    b.push(move)
    assert b.piece_at(move.to_square) == rules.Piece(W, False)


# --- 3.19 Gothic checkers (docs/rules/gothic.md) ---------------------------------------------------------
def test_gothic_setup_on_all_squares() -> None:
    """3.19.1: all 64 squares; 16 men each on ranks 1-2 and 7-8; White starts."""
    b = rules.Board("gothic")
    assert len(b.variant.geometry.squares) == 64
    assert {s[1] for s in squares(b, W)} == {"1", "2"} and len(squares(b, W)) == 16
    assert {s[1] for s in squares(b, B)} == {"7", "8"} and len(squares(b, B)) == 16
    assert b.turn == W


def test_gothic_men_move_and_capture_in_five_directions() -> None:
    """3.19.2: forward, diagonally forward, sideways - never backward - for moves and captures alike."""
    assert keys(board("gothic", "W", ["d4"], ["a8"])) == {
        k("d4", "d5"), k("d4", "c5"), k("d4", "e5"), k("d4", "c4"), k("d4", "e4")}
    b = board("gothic", "W", ["d4"], ["c4", "d5", "e5", "d3", "e3", "h8"])
    assert keys(b) == {k("d4", "b4", "c4"), k("d4", "d6", "d5"), k("d4", "f6", "e5")}


def test_gothic_kings_short_in_eight_directions() -> None:
    """3.19.3: a king moves one square and captures short in all eight directions."""
    assert len(keys(board("gothic", "W", ["Kd4"], ["a8"]))) == 8
    b = board("gothic", "W", ["Kd4"], ["e5", "c3", "d5", "a8"])
    assert keys(b) == {k("d4", "f6", "e5"), k("d4", "b2", "c3"), k("d4", "f4", "d5", "e5")}


def test_gothic_captures_free_choice_complete_and_crowning_stops() -> None:
    """3.19.4: capture compulsory, free choice (no maximum), the chain completed; a man reaching the last row
    is crowned and the move ends."""
    b = board("gothic", "W", ["c4", "g2"], ["c5", "c7", "f2", "a1"])
    assert keys(b) == {k("c4", "c8", "c5", "c7"), k("g2", "e2", "f2")}
    assert find(b, "c4", "c8", "c5", "c7").promotion
    stop = board("gothic", "W", ["c6"], ["c7", "d8", "a1"])
    assert keys(stop) == {k("c6", "c8", "c7")}


# --- 3.20 Dameo (docs/rules/dameo.md) -------------------------------------------------------------------
def test_dameo_pyramid_setup() -> None:
    """3.20.1: 18 men each in a pyramid; White a1-h1, b2-g2, c3-f3; White starts."""
    b = rules.Board("dameo")
    assert squares(b, W) == names("a1 b1 c1 d1 e1 f1 g1 h1 b2 c2 d2 e2 f2 g2 c3 d3 e3 f3")
    assert squares(b, B) == names("a8 b8 c8 d8 e8 f8 g8 h8 b7 c7 d7 e7 f7 g7 c6 d6 e6 f6")
    assert b.turn == W


def test_dameo_men_step_straight_or_diagonally_forward() -> None:
    """3.20.2: one square straight or diagonally forward; not sideways or back."""
    assert keys(board("dameo", "W", ["d4"], ["a8"])) == {k("d4", "d5"), k("d4", "c5"), k("d4", "e5")}


def test_dameo_linear_move() -> None:
    """3.20.2: the rear man of a line of own men along a forward direction jumps to the square in front."""
    b = board("dameo", "W", ["d2", "d3", "d4", "e3", "f4"], ["a8"])
    linear = {key for key in keys(b) if key[0] in ("d2", "d3", "e3")}
    assert {k("d2", "d5"), k("d2", "g5"), k("d3", "d5"), k("e3", "c5"), k("e3", "g5")} <= linear
    blocked = board("dameo", "W", ["d2", "d3", "Kd4"], ["d5", "a8"])
    assert k("d2", "d5") not in keys(blocked) and k("d2", "d4") not in keys(blocked), "kings break the line"
    taken = board("dameo", "W", ["d3", "d4"], ["d5", "a8"])
    assert k("d3", "d5") not in keys(taken), "the square in front is taken"
    crown = board("dameo", "W", ["e6", "e7"], ["a1"])
    assert find(crown, "e6", "e8").promotion


def test_dameo_kings_move_like_a_queen() -> None:
    """3.20.3: a king moves any distance in eight directions, never over a piece of its own."""
    b = board("dameo", "W", ["Ka1", "c3"], ["h8"])
    reach = names("a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1 b2")
    assert {to for frm, to, _ in keys(b) if frm == "a1"} == reach


def test_dameo_captures_orthogonal_only() -> None:
    """3.20.4: men capture short forward, sideways and backward, never diagonally; kings capture along ranks
    and files at a distance, landing on any empty square beyond."""
    b = board("dameo", "W", ["d4"], ["e4", "d5", "c5", "d3", "a8"])
    assert keys(b) == {k("d4", "f4", "e4"), k("d4", "d6", "d5"), k("d4", "d2", "d3")}
    king = board("dameo", "W", ["Kb2"], ["b5", "e5", "d4", "a8"])
    assert keys(king) == {k("b2", "b6", "b5"), k("b2", "b7", "b5"), k("b2", "b8", "b5")}


def test_dameo_king_must_land_to_continue() -> None:
    """3.20.4: a king with several landing squares must take one from which it can go on capturing."""
    b = board("dameo", "W", ["Ka1"], ["a3", "c6", "h8"])
    assert keys(b) == {k("a1", "d6", "a3", "c6"), k("a1", "e6", "a3", "c6"), k("a1", "f6", "a3", "c6"),
                       k("a1", "g6", "a3", "c6"), k("a1", "h6", "a3", "c6")}


def test_dameo_captured_pieces_stay_until_the_end() -> None:
    """3.20.5: no piece is jumped twice and captured pieces block a king's line until the move ends."""
    b = board("dameo", "W", ["Ka4"], ["c4", "e6", "d7", "c3", "h1"])
    assert keys(b) == {k("a4", to, "c4", "e6", "d7") for to in ("a7", "b7", "c7")}, "c4 blocks the c-file"
    turkish = board("turkish", "W", ["Ka4"], ["c4", "e6", "d7", "c3", "h1"])
    assert all("c3" in captured for _, _, captured in keys(turkish)), "where pieces leave at once it does not"
    circle = board("dameo", "W", ["Kb2"], ["b4", "d6", "f4", "d2", "h8"])
    assert k("b2", "b2", "b4", "d6", "f4", "d2") in keys(circle), "round the square, crossing b2 again"


def test_dameo_majority_capture() -> None:
    """3.20.6: the capture of the most pieces is compulsory; kings count as men."""
    b = board("dameo", "W", ["d4"], ["Ke4", "d5", "d7", "a8"])
    assert keys(b) == {k("d4", "d8", "d5", "d7")}


def test_dameo_crowned_only_at_the_end_of_the_move() -> None:
    """3.20.7: a man reaching the far row during a capture goes on as a man; crowned only if it ends there."""
    b = board("dameo", "W", ["c6"], ["c7", "d8", "f8", "a1"])
    (move,) = b.legal_moves
    assert keys(b) == {k("c6", "g8", "c7", "d8", "f8")} and move.promotion
    back = board("dameo", "W", ["c6"], ["c7", "b8", "a7", "h1"])
    (down,) = back.legal_moves
    assert keys(back) == {k("c6", "a6", "c7", "b8", "a7")} and not down.promotion


def test_dameo_threefold_repetition_draws() -> None:
    """3.20.8: threefold repetition is a draw (automatic)."""
    game = rules.Game("dameo", fen("dameo", "W", ["Ka1"], ["Kh8"]))
    for text in ["a1-a2", "h8-h7", "a2-a1", "h7-h8"] * 2:
        game.push(text)
    outcome = game.outcome()
    assert outcome is not None and outcome.winner is None and "repetition" in outcome.reason


# --- 3.21 Alquerque (docs/rules/alquerque.md) -----------------------------------------------------------
def test_alquerque_board_and_setup() -> None:
    """3.21.1: 25 points; diagonal lines only through points with an even coordinate sum; the set-up."""
    b = rules.Board("alquerque")
    g = b.variant.geometry
    assert len(g.squares) == 25
    assert squares(b, W) == names("a1 b1 c1 d1 e1 a2 b2 c2 d2 e2 d3 e3")
    assert squares(b, B) == names("a4 b4 c4 d4 e4 a5 b5 c5 d5 e5 a3 b3")
    assert b.turn == W


def test_alquerque_steps_along_the_lines() -> None:
    """3.21.2: one step forward, diagonally forward (on a diagonal line) or sideways; never backward."""
    assert keys(board("alquerque", "W", ["c3"], ["a5"])) == {
        k("c3", "c4"), k("c3", "b4"), k("c3", "d4"), k("c3", "b3"), k("c3", "d3")}
    assert keys(board("alquerque", "W", ["b3"], ["a5"])) == {k("b3", "b4"), k("b3", "a3"), k("b3", "c3")}
    assert keys(board("alquerque", "B", ["a1"], ["b2"])) == {
        k("b2", "b1"), k("b2", "c1"), k("b2", "a2"), k("b2", "c2")}


def test_alquerque_far_row_no_steps_no_promotion() -> None:
    """3.21.2: a piece on the far row can no longer step (it may capture) and is never crowned."""
    b = board("alquerque", "W", ["b4"], ["e4"])
    move = find(b, "b4", "b5")
    assert not move.promotion
    b.push(move)
    b.push(find(b, "e4", "e3"))
    assert keys(b) == set()
    capture = board("alquerque", "W", ["c5"], ["d5", "a1"])
    assert keys(capture) == {k("c5", "e5", "d5")}


def test_alquerque_first_jump_in_a_move_direction_later_any() -> None:
    """3.21.3: the first jump goes forward, diagonally forward or sideways; later jumps any way, even back."""
    assert keys(board("alquerque", "W", ["c3"], ["c2", "a5"])) == {
        k("c3", "c4"), k("c3", "b4"), k("c3", "d4"), k("c3", "b3"), k("c3", "d3")}
    b = board("alquerque", "W", ["c1"], ["c2", "d2", "a5"])
    assert keys(b) == {k("c1", "e1", "c2", "d2"), k("c1", "e3", "d2")}
    (back,) = [m for m in b.legal_moves if len(m.captures) == 2]
    assert [b.variant.geometry.algebraic(s) for s in back.path] == ["c1", "c3", "e1"]


def test_alquerque_captures_compulsory_continued_no_maximum() -> None:
    """3.21.3: a capture must be made and continued; no rule to take the most."""
    b = board("alquerque", "W", ["a1", "e1"], ["a2", "e2", "e4", "c1"])
    assert keys(b) == {k("a1", "a3", "a2"), k("e1", "e5", "e2", "e4")}


def test_alquerque_no_move_loses() -> None:
    """3.21.4: the player without a legal move (or without pieces) loses."""
    game = rules.Game("alquerque", fen("alquerque", "B", ["c5"], ["a1"]))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == W


# --- 3.22 Hawaii checkers = Konane (docs/rules/hawaii.md) ---------------------------------------------------
def test_konane_full_board_setup() -> None:
    """3.22.1: White on the 32 dark squares (a1 dark), Black on the 32 light ones; Black starts."""
    b = rules.Board("hawaii")
    g = b.variant.geometry
    assert all(sum(g.rc(sq)) % 2 == 0 for sq in b.men(W)) and len(b.men(W)) == 32
    assert all(sum(g.rc(sq)) % 2 == 1 for sq in b.men(B)) and len(b.men(B)) == 32
    assert b.turn == B and rules.get_variant("konane") is b.variant


def test_konane_opening_removals() -> None:
    """3.22.2: Black removes a8, h1, d5 or e4; White then one of hers orthogonally next to the hole."""
    b = rules.Board("hawaii")
    assert keys(b) == {k(s, s, s) for s in ("a8", "h1", "d5", "e4")}
    removal = find(b, "d5", "d5", "d5")
    assert removal.is_removal and not removal.promotion
    b.push(removal)
    assert b.piece_at(removal.from_square) is None and len(b.occupied()) == 63
    assert keys(b) == {k(s, s, s) for s in ("d4", "d6", "c5", "e5")}
    b.push(find(b, "e5", "e5", "e5"))
    assert len(b.occupied()) == 62 and all(m.captures and not m.is_removal for m in b.legal_moves)
    corner = rules.Board("hawaii")
    corner.push(find(corner, "a8", "a8", "a8"))
    assert keys(corner) == {k("a7", "a7", "a7"), k("b8", "b8", "b8")}


def test_konane_straight_jumps_that_may_stop() -> None:
    """3.22.3: every move is an orthogonal jump; the piece goes on only straight on and may stop after any."""
    b = board("hawaii", "B", ["d4", "d6", "e3"], ["d3", "h8"])
    assert keys(b) == {k("d3", "d5", "d4"), k("d3", "d7", "d4", "d6"), k("d3", "f3", "e3")}
    bent = board("hawaii", "B", ["d4", "e5"], ["d3", "h8"])
    assert keys(bent) == {k("d3", "d5", "d4")}, "no turn after a jump"


def test_konane_no_promotion_and_no_move_loses() -> None:
    """3.22.4: no promotion; the player who cannot capture on his turn loses."""
    b = board("hawaii", "W", ["a6"], ["a7"])
    assert keys(b) == {k("a6", "a8", "a7")} and not find(b, "a6", "a8", "a7").promotion
    game = rules.Game("hawaii", fen("hawaii", "B", ["a1", "c1"], ["h8"]))
    outcome = game.outcome()
    assert outcome is not None and outcome.winner == W and outcome.reason == "no legal move"


@pytest.mark.parametrize("variant_id", ["corner", "one-way", "parachute", "gothic", "dameo", "alquerque",
                                        "hawaii"])
def test_moves_round_trip_through_their_text(variant_id: str) -> None:
    """Every legal move of a short game is written and read back as itself (removals as d5xd5)."""
    b = rules.Board(variant_id)
    for _ in range(12):
        moves = list(b.legal_moves)
        if not moves:
            break
        for m in moves:
            assert b.parse_move(b.move_text(m)) == m
        b.push(moves[len(moves) // 2])
