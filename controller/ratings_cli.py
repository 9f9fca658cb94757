"""`dboard ratings`: the players' Glicko-2 ratings, read from the data directory `dboard play` uses."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.ratings import RATINGS_FILE, RatingStore

from . import config as config_module
from .datadir import DataDirLock


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard ratings`` subcommand."""
    p = sub.add_parser("ratings", help="list the players' Glicko-2 ratings",
                       description="The players' Glicko-2 ratings per variant, from DATA_DIR/ratings.sqlite3 "
                                   "(data_dir of the config file unless --data-dir or --db says otherwise).")
    p.add_argument("--config", type=Path, help=f"config file (default {config_module.DEFAULT_PATH})")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--data-dir", metavar="DIR", help="read DIR/ratings.sqlite3")
    where.add_argument("--db", type=Path, metavar="FILE", help="read this ratings database")
    p.add_argument("--add", metavar="NAME", help="create a player profile first")
    p.set_defaults(func=run)


def database(args: argparse.Namespace) -> Path:
    """The ratings file: --db, else --data-dir, else the config's data_dir (as `dboard play` uses it)."""
    if args.db is not None:
        return args.db
    data_dir = args.data_dir if args.data_dir else config_module.load(args.config).data_dir
    return Path(data_dir).expanduser() / RATINGS_FILE


def run(args: argparse.Namespace) -> int:
    """List every player's ratings, players without a rated game too (after adding one with --add, holding
    the data directory's lock)."""
    path = database(args)
    if not args.add and not path.is_file():   # a listing opens no database: it would create one
        if args.db is not None:
            print(f"dboard ratings: error: no ratings database {path} (--db names an existing file; "
                  "--add NAME creates one)", file=sys.stderr)
            return 1
        print(f"no ratings yet in {path}")
        return 0
    if args.add:
        with DataDirLock(path.parent, "dboard ratings --add"), RatingStore(path) as store:
            added = store.add_player(args.add)
            print(f"player {args.add!r} {'added to' if added else 'already exists in'} {store.path}")
    with RatingStore(path) as store:
        rows = [(r.player, r.variant, f"{r.rating.rating:7.1f}", f"{r.rating.rd:6.1f}",
                 f"{r.rating.volatility:8.5f}", r.games) for r in store.table()]
        rows += [(name, "-", "-", "-", "-", 0) for name in store.unrated_players()]
        if not rows:
            print(f"no ratings yet in {store.path}")
            return 0
        print(f"{'player':<20} {'variant':<20} {'rating':>7} {'RD':>6} {'vol':>8} {'games':>5}")
        for player, variant, rating, rd, volatility, games in sorted(rows, key=lambda row: row[0]):
            print(f"{player:<20} {variant:<20} {rating:>7} {rd:>6} {volatility:>8} {games:5d}")
    return 0
