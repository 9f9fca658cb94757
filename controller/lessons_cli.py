"""`dboard exercises` (the collections and a player's progress) and `dboard replay` (a game's blunder check).

On the board itself, `dboard play` takes `exercise [VARIANT] [ID]`, `replay FILE [GAME]`, `forward`, `back`,
`hint` and `stop` at its prompt, and the web page has an Exercises panel and a Replay button in the library.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

from engine.exercises import KINDS, load, load_file, variants_with_exercises
from engine.limits import SearchLimits
from engine.review import PlyReview, review
from rules.pdn.cli import diagram

from . import config as config_module
from .exercises import PROGRESS_FILE, ExerciseProgress
from .replay import load_game, read_record


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``dboard exercises`` and ``dboard replay``."""
    p = sub.add_parser("exercises", help="list the exercises of a variant and a player's progress",
                       description="The exercise collection of a variant (checked by the engine as it is "
                                   "read), with the exercises the player solved (DATA_DIR/exercises.json).")
    p.add_argument("--variant", default=None, help="variant (default: the config's)")
    p.add_argument("--player", default=None, help="player profile (default: the config's)")
    p.add_argument("--config", type=Path, help=f"config file (default {config_module.DEFAULT_PATH})")
    p.add_argument("--data-dir", metavar="DIR", help="read DIR/exercises.json")
    p.add_argument("--show", metavar="ID", help="print this exercise's position and task")
    p.add_argument("--solution", action="store_true", help="with --show: print the solution and its line")
    p.add_argument("--check", type=Path, metavar="FILE", help="check an exercise file (JSON) and say why not")
    p.set_defaults(func=run_exercises)
    r = sub.add_parser("replay", help="check a game move by move with the engine (blunder check)",
                       description="Validate a PDN game and print every move with the engine's score after "
                                   "it and, where the game went wrong, the better move. To replay it on the "
                                   "board, use `replay FILE` at the prompt of `dboard play`.")
    r.add_argument("file", type=Path, help="PDN file")
    r.add_argument("--game", type=int, default=1, help="which game of the file (1 = the first)")
    r.add_argument("--variant", default=None, help="variant of games without a GameType tag")
    r.add_argument("--depth", type=int, default=6, help="search depth per position (default 6)")
    r.add_argument("--time", type=float, default=0.5, help="seconds per position at most (default 0.5)")
    r.set_defaults(func=run_replay)


_SOURCE = re.compile(r"(?:tests/data/)?(?:.*/)?(?P<collection>[^/]+?)(?:\.pdn)?, game (?P<game>\d+)"
                     r"(?: \((?P<tags>.*)\))?(?:, (?P<where>.*))?")
_TAG = re.compile(r"""(?P<name>Event|White|Black) (?P<value>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""")


def source_words(source: str) -> str:
    """Where an exercise comes from, in words: the game (event, players), the ply, and the collection of
    games it is in, not the data file that holds them: "tests/data/international-sijbrands-andreiko-1973.pdn,
    game 1 (Event 'Tweekamp Wereldkampioenschap', White 'Sijbrands, Ton', Black 'Andreiko, Andris'), after ply
    65" reads "Tweekamp Wereldkampioenschap: Sijbrands, Ton - Andreiko, Andris, after ply 65 (game 1 of the
    collection international-sijbrands-andreiko-1973)" (the web page shows the source as stored)."""
    m = _SOURCE.fullmatch(source)
    if m is None:
        return source
    tags = {t["name"]: ast.literal_eval(t["value"]) for t in _TAG.finditer(m["tags"] or "")}
    players = " - ".join(tags[k] for k in ("White", "Black") if k in tags)
    game = ": ".join(part for part in (tags.get("Event", ""), players) if part)
    where = f", {m['where']}" if m["where"] else ""
    collection = f"game {m['game']} of the collection {m['collection']}"
    return f"{game}{where} ({collection})" if game else f"{collection}{where}"


def run_exercises(args: argparse.Namespace) -> int:
    if args.check is not None:
        collection = load_file(args.check)
        print(f"{args.check}: {len(collection)} exercises of {collection.variant}, every one confirmed")
        return 0
    config = config_module.load(args.config)
    variant = args.variant or config.variant
    player = args.player or config.player
    collection = load(variant)
    if args.show:
        exercise = collection.get(args.show)
        print(f"{exercise.id}: {exercise.task}")
        print(f"source: {source_words(exercise.source)}")
        print(diagram(exercise.board()))
        if args.solution:
            print(f"solution {exercise.solution} (depth {exercise.depth}); line {' '.join(exercise.line)}")
        return 0
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else config.data_path
    solved = set(ExerciseProgress(data_dir / PROGRESS_FILE).solved(player, collection.variant))
    print(f"{collection.variant}: {len(collection)} exercises, {len(solved)} solved by {player} "
          f"(also: {', '.join(v for v in variants_with_exercises() if v != collection.variant)})")
    for exercise in collection.exercises:
        mark = "solved" if exercise.id in solved else ""
        print(f"{exercise.id:<18} {KINDS[exercise.kind]:<20} {exercise.task.split(':')[0]:<14} {mark}")
    return 0


def run_replay(args: argparse.Namespace) -> int:
    text = read_record(args.file)
    game, start, moves = load_game(text, args.game, args.file.name, args.variant)
    print(f"{game.label() or args.file.name}: {len(moves)} plies, {start.variant.name}, result {game.result}")
    limits = SearchLimits(depth=args.depth, time=args.time)
    board = start.copy()

    def show(item: PlyReview) -> None:
        print(f"{item.ply:4d}. {item.describe()}", flush=True)

    items = review(board, moves, limits, on_ply=show)
    marked = [i for i in items if i.verdict]
    print(f"{sum(i.verdict == 'blunder' for i in marked)} blunders, "
          f"{sum(i.verdict == 'mistake' for i in marked)} mistakes")
    return 0
