"""`dboard stats`: the game library's statistics per variant, player, engine level and opening, as text tables
or one table as CSV (the same figures as the web page's Statistics tab)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from controller import config as config_module

from .library import GameLibrary
from .stats import TABLES, LibraryStats, StatsError, library_stats

TITLES = {"variants": "By variant", "players": "By player", "levels": "Against the engine's levels",
          "openings": "Most common openings (first three moves)"}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard stats`` subcommand."""
    p = sub.add_parser("stats", help="statistics of the game library (per variant, player, engine level)",
                       description="Statistics of the saved games in DATA_DIR (data_dir of the config file "
                                   "unless --data-dir says otherwise): results by variant and by player, "
                                   "average length, most common openings, results against each engine level.")
    p.add_argument("--config", type=Path, help=f"config file (default {config_module.DEFAULT_PATH})")
    p.add_argument("--data-dir", metavar="DIR", help="read the games saved under DIR")
    p.add_argument("--csv", metavar="TABLE", help=f"print one table as CSV: {', '.join(TABLES)}")
    p.add_argument("--output", "-o", type=Path, metavar="FILE",
                   help="write the CSV to FILE (default: stdout)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the statistics (or write one CSV table); a file left out is named on stderr."""
    data_dir = Path(args.data_dir if args.data_dir else config_module.load(args.config).data_dir).expanduser()
    if not data_dir.is_dir():
        print(f"dboard stats: error: no data directory {str(data_dir)!r}", file=sys.stderr)
        return 2
    stats = library_stats(GameLibrary(data_dir))
    for problem in stats.problems:
        print(f"dboard stats: left out: {problem}", file=sys.stderr)
    if args.csv is None:
        sys.stdout.write(text(stats, data_dir))
        return 0
    try:
        table = stats.csv(args.csv)
    except StatsError as exc:
        print(f"dboard stats: error: {exc}", file=sys.stderr)
        return 2
    if args.output is None:
        sys.stdout.write(table)
        return 0
    try:
        args.output.write_text(table, encoding="utf-8")
    except OSError as exc:
        print(f"dboard stats: error: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"wrote {len(stats.rows(args.csv))} rows to {args.output}")
    return 0


def text(stats: LibraryStats, data_dir: Path) -> str:
    """Every table aligned in columns, each under its title."""
    if not stats.variants:
        return f"no saved games in {data_dir}\n"
    out = []
    for table in TABLES:
        rows = stats.rows(table)
        if rows:
            out += [TITLES[table], *columns(rows), ""]
    return "\n".join(out)


def columns(rows: list[dict[str, Any]]) -> list[str]:
    """Rows as lines aligned under their keys (numbers to the right)."""
    keys = list(rows[0])
    cells = [keys] + [[str(row[k]) for k in keys] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(keys))]
    numeric = [all(isinstance(row[k], int | float) for row in rows) for k in keys]
    def aligned(line: list[str]) -> str:
        fields = zip(line, widths, numeric, strict=True)
        return "  ".join(c.rjust(w) if num else c.ljust(w) for c, w, num in fields).rstrip()
    return [aligned(line) for line in cells]
