"""Property tests (hypothesis): random playouts in every variant keep the board's invariants."""

from __future__ import annotations

import random

from _rulestest import playout
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules

W, B = rules.Color.WHITE, rules.Color.BLACK
VARIANTS = st.sampled_from(rules.VARIANT_IDS)
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROFILE = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _snapshot(board: rules.Board) -> tuple[object, ...]:
    return (board.fen(), board.key(), board.pieces(), board.turn, len(board.move_stack),
            board.men(W), board.men(B), board.kings(W), board.kings(B))


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=1, max_value=80))
def test_push_pop_restores_exactly(variant: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = rules.Board(variant)
    history = []
    for _ in range(plies):
        moves = sorted(board.legal_moves, key=lambda m: (m.from_square, m.to_square, m.captures))
        if not moves:
            break
        history.append(_snapshot(board))
        move = rng.choice(moves)
        board.push(move)
        assert board.peek() == move
    while history:
        popped = board.pop()
        assert _snapshot(board) == history.pop()
        assert popped in board.legal_moves


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=0, max_value=120))
def test_playout_invariants(variant: str, seed: int, plies: int) -> None:
    rng = random.Random(seed)
    board = rules.Board(variant)
    geo = board.variant.geometry
    playing = set(geo.squares)
    for _ in range(plies):
        men = {c: board.men(c) for c in (W, B)}
        kings = {c: board.kings(c) for c in (W, B)}
        all_sets = [men[W], men[B], kings[W], kings[B]]
        # No two pieces on one square, and only on playing squares.
        assert sum(len(s) for s in all_sets) == len(board.occupied()) == len(board.pieces())
        assert set().union(*all_sets) == set(board.occupied()) <= playing
        legal = list(board.legal_moves)
        assert len(board.legal_moves) == len(legal) == board.legal_moves.count()
        assert bool(board.legal_moves) == bool(legal)
        assert board.has_capture() == any(m.is_capture for m in legal)
        if board.has_capture():
            assert all(m.is_capture for m in legal), "captures are compulsory in every listed variant"
        if not legal:
            assert board.is_game_over()
            break
        move = rng.choice(sorted(legal, key=lambda m: (m.from_square, m.to_square, m.captures)))
        mover, other = board.turn, board.turn.opponent
        piece = board.piece_at(move.from_square)
        assert piece is not None and piece.color == mover
        assert move.path[0] == move.from_square and move.path[-1] == move.to_square
        if move.is_removal:   # Konane's opening (docs/rules/hawaii.md#moving): the mover takes its piece off
            count = len(board.occupied())
            board.push(move)
            assert board.piece_at(move.from_square) is None and len(board.occupied()) == count - 1
            assert board.turn == other
            continue
        assert all(board.piece_at(c) is not None and board.piece_at(c).color == other for c in move.captures)
        assert len(set(move.captures)) == len(move.captures)
        before = {c: (len(men[c]), len(kings[c])) for c in (W, B)}
        board.push(move)
        after = {c: (len(board.men(c)), len(board.kings(c))) for c in (W, B)}
        # Piece counts never rise; the opponent loses exactly the captured pieces.
        assert sum(after[mover]) == sum(before[mover])
        assert sum(after[other]) == sum(before[other]) - len(move.captures)
        # Kings only appear by a promotion move, one at a time, for the mover.
        assert after[other][1] <= before[other][1]
        assert after[mover][1] == before[mover][1] + (1 if move.promotion else 0)
        assert move.promotion == (not piece.king and board.piece_at(move.to_square).king)
        assert board.piece_at(move.to_square).color == mover
        assert board.turn == other


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=0, max_value=100))
def test_fen_round_trip_and_hash(variant: str, seed: int, plies: int) -> None:
    board = playout(variant, plies, seed)
    again = rules.Board(variant, board.fen())
    assert again.pieces() == board.pieces()
    assert again.turn == board.turn
    assert again.key() == board.key(), "incremental hash differs from a fresh board's hash"
    assert again.fen() == board.fen()
    assert {(m.from_square, m.to_square, frozenset(m.captures)) for m in again.legal_moves} == {
        (m.from_square, m.to_square, frozenset(m.captures)) for m in board.legal_moves}


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=0, max_value=100))
def test_move_text_round_trip(variant: str, seed: int, plies: int) -> None:
    board = playout(variant, plies, seed)
    for move in board.legal_moves:
        text = board.move_text(move)
        parsed = board.parse_move(text)
        assert (parsed.from_square, parsed.to_square, frozenset(parsed.captures)) == (
            move.from_square, move.to_square, frozenset(move.captures)), text


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=0, max_value=100))
def test_capture_paths_cover_legal_captures(variant: str, seed: int, plies: int) -> None:
    board = playout(variant, plies, seed)
    paths = list(board.capture_paths())
    identities = {(m.from_square, m.to_square, frozenset(m.captures))
                  for m in board.legal_moves if m.is_capture}
    assert {(p.from_square, p.to_square, frozenset(p.captures)) for p in paths} == identities
    assert len(paths) >= len(identities)


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=0, max_value=60))
def test_copy_is_independent(variant: str, seed: int, plies: int) -> None:
    board = playout(variant, plies, seed)
    before = _snapshot(board)
    clone = board.copy()
    assert _snapshot(clone) == before
    legal_before = list(board.legal_moves)
    moves = list(clone.legal_moves)
    if moves:
        clone.push(moves[0])
        list(clone.legal_moves)  # fill the clone's caches
    assert _snapshot(board) == before
    assert list(board.legal_moves) == legal_before
    if legal_before:
        board.push(legal_before[0])
        board.pop()
        assert _snapshot(board) == before


def test_transposition_shares_key_and_turn_matters() -> None:
    """Equal positions reached by different move orders share a key; the side to move is part of it."""
    a, b = rules.Board("international"), rules.Board("international")
    for text in ("31-26", "20-24", "32-27"):
        a.push(a.parse_move(text))
    for text in ("32-27", "20-24", "31-26"):
        b.push(b.parse_move(text))
    assert a.key() == b.key() and a.pieces() == b.pieces()
    assert a.key() != rules.Board("international").key()
    white = rules.Board("international", "W:W31-50:B1-20")
    black = rules.Board("international", "B:W31-50:B1-20")
    assert white.key() != black.key()


@PROFILE
@given(variant=VARIANTS, seed=SEEDS, plies=st.integers(min_value=1, max_value=60))
def test_moves_of_other_positions_are_rejected(variant: str, seed: int, plies: int) -> None:
    board = playout(variant, plies, seed)
    if not board.move_stack:
        return
    last = board.pop()
    foreign = [m for m in board.legal_moves if m != last]
    board.push(last)
    legal = set(board.legal_moves)
    for m in foreign:
        if m not in legal:
            try:
                board.push(m)
            except rules.IllegalMoveError:
                continue
            raise AssertionError(f"{m} accepted in {board.fen()}")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=VARIANTS, seed=SEEDS)
def test_random_games_end_consistently(variant: str, seed: int) -> None:
    """Games driven through rules.Game end with a coherent Outcome; pop() re-opens a finished game."""
    rng = random.Random(seed)
    game = rules.Game(variant)
    for _ in range(300):
        outcome = game.outcome()
        if outcome is not None:
            assert outcome.result in ("1-0", "0-1", "1/2-1/2")
            assert (outcome.winner is None) == (outcome.result == "1/2-1/2")
            if outcome.winner is not None and "no legal move" in outcome.reason:
                assert not game.board.legal_moves
                loser_to_move = game.board.variant.id != "giveaway"
                assert (outcome.winner == game.board.turn.opponent) == loser_to_move
            if game.moves:
                game.pop()
                assert game.outcome() is None  # the position before the last move was not finished
            return
        moves = sorted(game.board.legal_moves, key=lambda m: (m.from_square, m.to_square, m.captures))
        assert moves
        game.push(rng.choice(moves))


def _full_capture_text(geo: rules.Geometry, move: rules.Move) -> list[str]:
    """Squares of an ambiguous capture per 4.3: each turning square, or, where the line goes straight on,
    the square immediately behind the captured piece."""

    def step(a: int, b: int) -> tuple[int, int]:
        (r1, c1), (r2, c2) = geo.rc(a), geo.rc(b)
        return ((r2 > r1) - (r2 < r1), (c2 > c1) - (c2 < c1))

    out = [geo.name(move.path[0])]
    for i in range(1, len(move.path) - 1):
        before, after = step(move.path[i - 1], move.path[i]), step(move.path[i], move.path[i + 1])
        if before != after:
            out.append(geo.name(move.path[i]))
        else:
            r, c = geo.rc(move.captures[i - 1])
            behind = geo.square_at(r + before[0], c + before[1])
            assert behind is not None
            out.append(geo.name(behind))
    out.append(geo.name(move.path[-1]))
    return out


def _random_fen(variant: str, rng: random.Random) -> str:
    geo = rules.get_variant(variant).geometry
    cells = sorted(geo.squares)
    rng.shuffle(cells)
    top = geo.height - 1
    blocks = {"W": [], "B": []}
    for side in "WB":
        for _ in range(rng.randint(1, 8)):
            sq = cells.pop()
            row = geo.rc(sq)[0]
            king = rng.random() < 0.5 or (side == "W" and row == top) or (side == "B" and row == 0)
            blocks[side].append(("K" if king else "") + geo.name(sq))
    return f"{rng.choice('WB')}:W{','.join(blocks['W'])}:B{','.join(blocks['B'])}"


@PROFILE
@given(variant=VARIANTS, seed=SEEDS)
def test_move_text_lists_intermediate_squares_only_when_ambiguous(variant: str, seed: int) -> None:
    """docs/rules/README.md#notation: from-to only, unless another legal capture shares from/to with other
    captures."""
    rng = random.Random(seed)
    var = rules.get_variant(variant)
    for _ in range(20):
        board = rules.Board(variant, _random_fen(variant, rng))
        moves = list(board.legal_moves)
        for m in moves:
            text = board.move_text(m)
            sep = var.capture_separator if m.is_capture else "-"
            parts = text.split(sep)
            assert all(parts), text
            assert parts[0] == var.geometry.name(m.from_square), text
            assert parts[-1] == var.geometry.name(m.to_square), text
            ambiguous = any(o is not m and (o.from_square, o.to_square) == (m.from_square, m.to_square)
                            for o in moves)
            if ambiguous:  # every intermediate landing square (a single jump has none: from-to)
                assert parts == _full_capture_text(var.geometry, m), (board.fen(), text)
            else:
                assert len(parts) == 2, text
            parsed = board.parse_move(text)
            assert (parsed.from_square, parsed.to_square, set(parsed.captures)) == (
                m.from_square, m.to_square, set(m.captures))


def test_ambiguous_capture_texts_round_trip_czech() -> None:
    """Two a7-g1 captures: the short one's full text (a7xc5xg1) is not a text of the long one."""
    board = rules.Board("czech", "W:WKa7,Kg7:Bb2,d2,f2,c3,b4,e5,b6,Kh8")
    geo = board.variant.geometry
    by_text = {board.move_text(m): m for m in board.legal_moves}
    assert {"a7xc5xg1", "a7xc5xa3xc1xe3xg1"} <= set(by_text)
    assert {geo.name(c) for c in by_text["a7xc5xg1"].captures} == {"b6", "f2"}
    for text, move in by_text.items():
        parsed = board.parse_move(text)
        assert (parsed.from_square, parsed.to_square, set(parsed.captures)) == (
            move.from_square, move.to_square, set(move.captures)), text


@PROFILE
@given(variant=VARIANTS, seed=SEEDS)
def test_push_applies_exactly_the_move(variant: str, seed: int) -> None:
    """Every legal move of random positions: the piece lands on to_square (crowned iff promotion), the
    captured squares empty, nothing else changes; pop() restores the position."""
    rng = random.Random(seed)
    for _ in range(10):
        board = rules.Board(variant, _random_fen(variant, rng))
        before_fen, before = board.fen(), board.pieces()
        for m in list(board.legal_moves):
            mover = before[m.from_square]
            board.push(m)
            expected = {sq: p for sq, p in before.items() if sq != m.from_square and sq not in m.captures}
            expected[m.to_square] = rules.Piece(mover.color, mover.king or m.promotion)
            assert board.pieces() == expected, (before_fen, m)
            board.pop()
            assert board.fen() == before_fen and board.pieces() == before
