"""The engine worker process: progress, results, immediate stop, hints through it."""

from __future__ import annotations

import threading
from pathlib import Path

from engine.endgame import TABLE_SPAN, TABLE_WIN, WIN, EndgameTables, Signature, table_dir
from engine.hint import hint, hint_in_worker
from engine.worker import EngineWorker, WorkerResult, game_line
from rules import Board, get_variant
from rules.native import available


def test_worker_search_progress_result_and_stop() -> None:
    progress = []
    got = threading.Event()
    with EngineWorker(on_progress=progress.append, on_result=lambda r: got.set()) as worker:
        board = Board("english")
        first = worker.start_search(board.fen(), "english", level=10, time=None, depth=3)
        result = worker.wait(first, timeout=60)
        assert result is not None and not result.stopped and result.error is None
        assert result.move in board.legal_moves and result.depth == 3
        assert got.wait(5)
        assert [p.depth for p in progress if p.search_id == first] == [1, 2, 3]
        assert worker.results.get(timeout=5).search_id == first
        # A long search is cancelled at once by stop(); a new search may start right after.
        long = worker.start_search(
            Board("international").fen(), "international", level=10, time=None, depth=40
        )
        worker.stop()
        stopped = worker.wait(long, timeout=30)
        assert stopped is not None and stopped.stopped
        third = worker.start_search(board.fen(), "english", level=1, time=0.2)
        assert worker.start_search(board.fen(), "english", level=3, time=0.2) == third + 1
        last = worker.wait(third + 1, timeout=60)
        assert last is not None and last.move in board.legal_moves and not last.stopped
        assert worker.wait(third, timeout=30).stopped  # superseded by the newer search
        bad = worker.start_search("nonsense", "english", level=5, time=0.1)
        failed = worker.wait(bad, timeout=30)
        assert failed is not None and failed.move is None and failed.error
        assert worker.alive
    assert not worker.alive


def test_hint_in_process_and_in_worker_agree_on_legality() -> None:
    board = Board("russian")
    direct = hint(board, 0.2)
    assert direct is not None and direct.move in board.legal_moves and direct.move_text in str(direct)
    with EngineWorker() as worker:
        remote = hint_in_worker(worker, board, 0.2)
    assert remote is not None and remote.move in board.legal_moves


def test_worker_process_death_ends_the_pending_search_with_an_error() -> None:
    import os
    import signal

    with EngineWorker() as worker:
        search_id = worker.start_search(
            Board("international").fen(), "international", level=10, time=None, depth=40
        )
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGKILL)
        result = worker.wait(search_id, timeout=30)
        assert result is not None and result.move is None
        assert result.error is not None and "died (exit code -9)" in result.error
        assert not worker.alive


def test_game_line_gives_the_worker_the_history_the_draw_rules_need() -> None:
    """English K v K+man: White, a man down, can repeat the position. With the game's moves the worker sees
    the repetition (a draw, score 0) and takes it; from the bare FEN it sees no such thing."""
    board = Board("english", "W:WK30:BK4,12")
    for text in ("30-26", "4-8", "26-30", "8-4"):
        board.push(board.parse_move(text))
    fen, moves = game_line(board)
    assert fen == "W:WK30:BK4,12" and moves == ("30-26", "4-8", "26-30", "8-4")
    rebuilt = Board("english", fen)
    for text in moves:
        rebuilt.push(rebuilt.parse_move(text))
    assert rebuilt.fen() == board.fen()
    assert game_line(board, plies=2) == (Board("english", "W:WK26:BK8,12").fen(), ("26-30", "8-4"))
    with EngineWorker() as worker:
        def search(line: tuple[str, tuple[str, ...]] | None) -> WorkerResult:
            result = worker.wait(worker.start_search(board.fen(), "english", time=None, depth=4, line=line),
                                 timeout=60)
            assert result is not None
            return result

        with_history, bare, wrong = search((fen, moves)), search(None), search((fen, ("30-25",)))
    assert with_history.move_text == "30-26" and with_history.score == 0
    assert bare.score < 0
    assert (wrong.move_text, wrong.score) == (bare.move_text, bare.score)   # a line that does not lead here


def test_the_worker_plays_by_the_variant_options() -> None:
    """Turkish with promotion_mid_capture=stop (docs/rules/turkish.md#crowning): the only legal capture
    stops on d8, where by default it goes on to f8; the worker's engine must know the option."""
    from rules import get_variant

    stop = get_variant("turkish", promotion_mid_capture="stop")
    board = Board(stop, "W:Wd6:Bd7,e8,a2")
    with EngineWorker() as worker:
        for level in (1, 10):
            result = worker.wait(worker.start_search(board.fen(), stop, level=level, time=0.2), timeout=60)
            assert result is not None and result.move_text == "d6xd8"
        plain = worker.wait(worker.start_search(board.fen(), "turkish", level=1, time=0.2), timeout=60)
        assert plain is not None and plain.move_text == "d6xf8"


def test_the_worker_searches_on_the_threads_it_is_given() -> None:
    """Issue 32: config ``engine_threads`` reaches the worker's engine (Lazy SMP): a legal move at the depth
    asked, and the helper thread's nodes counted besides the main thread's (the pure-Python search, the
    fallback, has one thread whatever the setting)."""
    board = Board("international")
    results = []
    for threads in (1, 2):
        with EngineWorker(threads=threads) as worker:
            result = worker.wait(worker.start_search(board.fen(), "international", level=10, time=None,
                                                     depth=6), timeout=60)
            assert result is not None and result.error is None and result.move in board.legal_moves
            results.append(result)
    assert results[0].depth == results[1].depth == 6
    assert (results[1].nodes > results[0].nodes) is available()


def test_the_worker_probes_the_endgame_tables_saved_in_the_data_dir(tmp_path: Path) -> None:
    """Issue 32: the tables `dboard endgame build` saved in the board's data directory are probed by the
    engine the game plays against; without them the same ending is only evaluated."""
    variant = get_variant("english")
    tables = EndgameTables(variant, table_dir(tmp_path, variant))
    for signature in (Signature(0, 1, 1, 0), Signature(1, 0, 0, 1)):
        tables.ensure(signature)
    fen = "B:W28:BK5"   # Black, to move, wins (the table says so)
    assert tables.value(Board(variant, fen)) == WIN
    scores = {}
    for name, data_dir in (("tables", tmp_path), ("none", None)):
        with EngineWorker(data_dir=data_dir) as worker:
            search = worker.start_search(fen, "english", level=10, time=None, depth=4)
            result = worker.wait(search, timeout=60)
            assert result is not None and result.error is None
            scores[name] = result.score
    assert scores["tables"] >= TABLE_WIN - TABLE_SPAN > scores["none"]
