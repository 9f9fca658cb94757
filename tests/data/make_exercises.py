"""Make the exercise collections (engine/exercises/<variant>.json) from the real games in tests/data.

Every position of every game's main line is a candidate, and so is every position of a continuation the
engine plays from a game's position past the opening (level 3, seeded by game and ply): real openings and
middle games, carried on to the shots and endings that weaker play runs into; the games as played come
first. A candidate becomes an exercise when `engine.exercises.judge` finds a kind for it at the stated depth
and at the depth below, and its check is quick (at most MAX_NODES nodes: the suite checks every exercise).
Run from the repository (the same files come out on any machine: depths and node counts, never times, decide):
    .venv/bin/python tests/data/make_exercises.py [VARIANT ...]
"""

from __future__ import annotations

import json
import random
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

from engine import Engine
from engine.exercises import Exercise, collection_path, judge
from rules import Board
from rules.pdn import read_games
from rules.pdn.validate import start_board, variant_of

DATA = Path(__file__).resolve().parent
CORPUS = "pdn-corpus/succeed/"
SOURCES: dict[str, list[tuple[str, str | None]]] = {
    "international": [("international-sijbrands-andreiko-1973.pdn", None),
                      ("international-vanderwal-wiersma-1983.pdn", None),
                      ("international-zundert-computer-2022.pdn", None)],
    "english": [(CORPUS + "Tricks traps and shots.pdn", "english"), (CORPUS + "OCA_2.0.pdn", "english"),
                (CORPUS + "gem.pdn", "english"), (CORPUS + "goulds.pdn", "english")],
    "russian": [(CORPUS + "ussr1947.pdn", "russian"), ("russian-150-openings.pdn", None)],
    "brazilian": [("brazilian-openings.pdn", None)],
    "turkish": [("turkish-ffloof-engine-games.pdn", None)],
    "spanish": [("spanish-bbzero-games.pdn", None)],
    "italian": [(CORPUS + "Campionato Assoluto 2005.pdn", "italian"), ("italian-published-games.pdn", None),
                ("italian-11-ballots.pdn", None)],
}
QUOTA = {"shot": 10, "only": 10, "ending": 8}
PER_GAME = 3
"""At most this many exercises from one game (and its continuations); more where a variant has few games."""
GAMES_WANTED = 40
DEPTH = {8: 4, 10: 3}
"""Stated depth by board size (plies): shallow enough that checking the whole collection takes seconds."""
TURKISH_DEPTH = 3
MAX_NODES = 4000
"""A candidate whose check searches more nodes is passed over (the suite checks every exercise; counted in
nodes, not seconds, so that the choice does not depend on the machine's load)."""
LEVEL = 3
CONTINUE_FROM = 12
"""Continuations start past the opening (or at the end of a game that is only an opening)."""


def _games(variant: str) -> Iterator[tuple[str, str, list[Board]]]:
    """(game key, source text, the positions of its main line) for every game of the variant's sources."""
    for name, default in SOURCES[variant]:
        games = read_games((DATA / name).read_text(encoding="utf-8", errors="replace"), validate=True,
                           variant=default)
        for game in games:
            if game.errors or variant_of(game, default).id != variant:
                continue
            board = start_board(game, variant_of(game, default))
            positions = [board.copy()]
            for node in game.moves:
                board.push(node.move)
                positions.append(board.copy())
            label = f" ({game.label()})" if game.label() else ""
            yield f"{name}#{game.number}", f"tests/data/{name}, game {game.number}{label}", positions


def candidates(variant: str) -> Iterator[tuple[Board, str, str]]:
    """(position, game key, source text): first every position of every game as played, then the engine's
    continuations from every sixth position past the opening (CONTINUE_FROM) and from each game's end."""
    games = list(_games(variant))
    for key, where, positions in games:
        for ply, board in enumerate(positions):
            yield board, key, f"{where}, after ply {ply}"
    for key, where, positions in games:
        last = len(positions) - 1
        for ply in [*range(CONTINUE_FROM, last, 6), last]:
            seed = zlib.crc32(f"{key}:{ply}".encode())
            yield from _continue(positions[ply], key, f"{where}, after ply {ply}", seed)


def _continue(board: Board, key: str, where: str, seed: int) -> Iterator[tuple[Board, str, str]]:
    rng = random.Random(seed)
    board = board.copy()
    engine = Engine(board.variant)
    played: list[str] = []
    for _ in range(120):
        if board.is_game_over():
            return
        move = engine.choose_move(board, LEVEL, rng=rng, time_limit=600)   # the depth decides
        played.append(board.move_text(move))
        board.push(move)
        yield board.copy(), key, f"{where}, then the engine (level {LEVEL}): {' '.join(played)}"


def make(variant: str) -> list[Exercise]:
    depth = TURKISH_DEPTH if variant == "turkish" else DEPTH[Board(variant).variant.height]
    engine = Engine(variant)
    found: list[Exercise] = []
    per_kind = dict.fromkeys(QUOTA, 0)
    per_game: dict[str, int] = {}
    games = sum(len(read_games((DATA / name).read_text(encoding="utf-8", errors="replace")))
                for name, _ in SOURCES[variant])
    cap = max(PER_GAME, GAMES_WANTED // games)
    seen: set[str] = set()
    for board, key, source in candidates(variant):
        if all(per_kind[k] >= QUOTA[k] for k in QUOTA):
            break
        fen = board.fen()
        board = Board(variant, fen)   # the exercise is the position alone: no history, no draw counts
        if fen in seen or per_game.get(key, 0) >= cap or len(board.legal_moves) < 2:
            continue
        seen.add(fen)
        quick = judge(board, depth - 1, engine)
        wanted = [k for k in quick.kinds if per_kind[k] < QUOTA[k]]
        if not wanted:
            continue
        verdict = judge(board, depth, engine)
        if engine.searcher.nodes > MAX_NODES or verdict.best != quick.best:
            continue
        kinds = [k for k in wanted if k in verdict.kinds]
        if not kinds:
            continue
        kind = min(kinds, key=lambda k: per_kind[k] - QUOTA[k])
        line = engine.searcher._pv_text(board, engine.searcher.table_line(board, verdict.best, depth))
        per_kind[kind] += 1
        per_game[key] = per_game.get(key, 0) + 1
        found.append(Exercise(f"{variant}-{len(found) + 1:02d}", variant, kind, fen,
                              board.move_text(verdict.best), depth, tuple(line), source))
        print(f"{variant}: {len(found)} {kind} {fen} {found[-1].solution}", file=sys.stderr)
    return found


def main(argv: list[str]) -> int:
    for variant in argv or list(SOURCES):
        exercises = make(variant)
        data = {"variant": variant,
                "source": "made by tests/data/make_exercises.py from the games named in each exercise",
                "exercises": [e.to_json() for e in exercises]}
        collection_path(variant).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n",
                                            encoding="utf-8")
        kinds = {k: sum(e.kind == k for e in exercises) for k in QUOTA}
        print(f"{variant}: {len(exercises)} exercises {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
