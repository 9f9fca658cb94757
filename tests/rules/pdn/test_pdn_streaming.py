"""Reading a 10,000-game file streams: traced memory stays flat (games are read one at a time)."""

from __future__ import annotations

import tracemalloc

from _pdnhelpers import CORPUS

from rules.pdn import PdnReader


def test_memory_stays_flat_on_a_10000_game_file(tmp_path) -> None:
    # real games (Cat.B1: international problems with FEN set-ups), repeated to 10,000 games
    text = (CORPUS / "succeed" / "Cat.B1.pdn").read_text(encoding="utf-8").strip() + "\n\n"
    per_copy = text.count("[Event ")
    big = tmp_path / "big.pdn"
    copies = 10_000 // per_copy + 1
    big.write_text(text * copies, encoding="utf-8")
    size = big.stat().st_size

    peaks: dict[int, int] = {}
    count = moves = 0
    tracemalloc.start()
    try:
        with big.open(encoding="utf-8") as handle:
            for game in PdnReader(handle):
                count += 1
                moves += len(game.moves)
                assert not game.errors
                if count in (1000, 10_000):
                    peaks[count] = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert count == per_copy * copies >= 10_000
    assert moves > 50_000
    assert peaks[10_000] < size / 20  # far below the file size: nothing accumulates
    assert peaks[10_000] <= peaks[1000] * 1.25 + 16_384  # flat between game 1,000 and game 10,000
