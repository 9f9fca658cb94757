"""`dboard journal [DATA_DIR | FILE]`: what the journal of the game in progress holds, line by line, with its
checksums and the damage found, for a person looking into a problem. Nothing is changed."""

from __future__ import annotations

import argparse
from pathlib import Path

from rules.options import format_text

from . import config as config_module
from .durable import DAMAGED_INFIX
from .journal import JOURNAL_NAME, JournalLine, Scan, scan_bytes
from .settings import GameSettings


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``dboard journal`` subcommand."""
    p = sub.add_parser("journal", help="show what the journal of the game in progress holds",
                       description="Print the journal of the data directory (the config's data_dir unless "
                                   f"DATA_DIR is given) or a journal file ({JOURNAL_NAME}, or a damaged copy "
                                   "set aside): the game, each record with its checksum, and any damage. "
                                   "Nothing is changed.")
    p.add_argument("data_dir", nargs="?", type=Path, metavar="DATA_DIR|FILE",
                   help=f"the data directory to read (its {JOURNAL_NAME}), or a journal file itself")
    p.add_argument("--config", type=Path, help=f"config file (default {config_module.DEFAULT_PATH})")
    p.set_defaults(func=run)


def describe_line(line: JournalLine) -> str:
    """One record in words: ``move 9-13 (black)``, ``takeback 2``, ``end 1-0 (resignation)``."""
    entry = line.entry
    kind = entry["type"]
    if kind == "start":
        settings = entry["settings"]
        fen = f" from {settings['fen']}" if settings.get("fen") else ""
        return f"start {settings['variant']}{fen}"
    if kind in ("move", "forced"):
        return f"{kind} {entry['text']} ({entry['by']})"
    if kind == "takeback":
        return f"takeback {entry['plies']}"
    return f"end {entry['result']} ({entry['reason']})"


def _player(settings: GameSettings, color: str) -> str:
    if settings.plays(color) == "person":
        return "person"
    return "external engine" if settings.opponent == "external" else f"computer level {settings.level}"


def report(found: Scan, data: bytes) -> list[str]:
    """The printout of a journal's scan (``data`` is the file's bytes, for the damaged line's preview)."""
    form = "checksummed" if found.checksummed else "the first release's format, no checksums"
    out = [f"journal: {found.path} ({found.size} bytes, {form})"]
    state = found.state
    if state is not None:
        settings = GameSettings.from_json(state.header["settings"])
        players = ", ".join(f"{color}: {_player(settings, color)}" for color in ("white", "black"))
        options = format_text(settings.variant.option_values())
        out.append(f"game: {settings.variant.id}{' ' + options if options else ''}, {players}, "
                   f"started {state.header.get('started', '?')}, "
                   f"library file {state.header.get('pdn', '(named when saved)')}")
    for line in found.lines:
        crc = f"{line.crc:08x}" if line.crc is not None else "-" * 8
        out.append(f"{line.number:6d}  {crc}  {describe_line(line)}")
    damage = found.damage
    if damage is not None:
        preview = data[found.valid_bytes:found.valid_bytes + 60]
        kept = len(found.lines)
        out.append(f"damage: line {damage.line}: {damage.reason}; a start keeps lines 1-{kept} and sets the "
                   f"journal aside, {damage.dropped()}: {preview!r}")
    if state is not None:
        plies = len(state.records)
        where = f"ended {state.ended['result']} ({state.ended['reason']})" if state.ended else "in progress"
        out.append(f"standing: {plies} {'ply' if plies == 1 else 'plies'}, {where}")
    return out


def journal_path(given: Path) -> Path:
    """The journal a DATA_DIR|FILE argument names: the file itself, else DIR/journal.jsonl (a file said
    "[Errno 20] Not a directory")."""
    path = given.expanduser()
    return path if path.is_file() else path / JOURNAL_NAME


def run(args: argparse.Namespace) -> int:
    """Print the journal of DATA_DIR (or the journal FILE); exit 0 (1 when there is no journal there)."""
    given = args.data_dir if args.data_dir is not None else config_module.load(args.config).data_path
    if not Path(given).expanduser().exists():
        print(f"no journal: {given} does not exist (expected a data directory, holding {JOURNAL_NAME}, "
              "or a journal file)")
        print("nothing was changed")
        return 1
    path = journal_path(Path(given))
    copies = [] if path.name != JOURNAL_NAME else sorted(path.parent.glob(f"{JOURNAL_NAME}{DAMAGED_INFIX}*"))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        print(f"no journal in {path.parent}")
        data = None
    if data is not None:
        print("\n".join(report(scan_bytes(path, data), data)))
    for copy in copies:
        print(f"damaged journal kept aside: {copy} ({copy.stat().st_size} bytes)")
    print("nothing was changed")
    return 0 if data is not None else 1
