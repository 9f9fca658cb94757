"""Write turkish-ffloof-engine-games.pdn from the engine-match logs of github.com/ffloof/TurkishDraughts.

Each log (Round1/<White>_vs_<Black>.csv in that repository) lists, one line per ply, the board after the
move: 8 ranks from rank 8 down to rank 1, files a-h, `w`/`b` men, `W`/`B` kings, `-` empty. The moves are
read off the differences between consecutive boards (the square a piece left, the square it reached, the
pieces that vanished); no rules engine is used, so validating the result against rules/ is a real check.
Usage: python tests/data/make_turkish_pdn.py DIR_WITH_CSV_FILES > tests/data/turkish-ffloof-engine-games.pdn
"""

from __future__ import annotations

import sys
from pathlib import Path

FILES = "abcdefgh"
START = ("--------", "bbbbbbbb", "bbbbbbbb", "--------", "--------", "wwwwwwww", "wwwwwwww", "--------")
ORTHOGONAL = ((0, 1), (0, -1), (1, 0), (-1, 0))


def board_of(rows: tuple[str, ...] | list[str]) -> dict[tuple[int, int], str]:
    """Map (file 0-7, rank 1-8) -> piece letter for the occupied squares of a logged board."""
    return {(f, 8 - r): ch for r, row in enumerate(rows) for f, ch in enumerate(row) if ch != "-"}


def name(sq: tuple[int, int]) -> str:
    return f"{FILES[sq[0]]}{sq[1]}"


def capture_path(before: dict, frm: tuple[int, int], to: tuple[int, int], taken: set, king: bool,
                 forward: int) -> list[tuple[int, int]] | None:
    """Landing squares of a jump sequence from `frm` to `to` taking exactly `taken` (immediate removal,
    no 180-degree turn); men jump short forward/sideways, kings fly in the four directions."""
    occupied = {sq for sq in before if sq != frm}

    def search(pos, left, occ, last_dir, path):
        if not left:
            return path if pos == to else None
        dirs = ORTHOGONAL if king else ((0, forward), (1, 0), (-1, 0))
        for d in dirs:
            if last_dir is not None and d == (-last_dir[0], -last_dir[1]):
                continue
            x, y = pos[0] + d[0], pos[1] + d[1]
            if king:
                while 0 <= x < 8 and 1 <= y <= 8 and (x, y) not in occ:
                    x, y = x + d[0], y + d[1]
            victim = (x, y)
            if victim not in left:
                continue
            lx, ly = x + d[0], y + d[1]
            while 0 <= lx < 8 and 1 <= ly <= 8 and (lx, ly) not in occ - {victim}:
                found = search((lx, ly), left - {victim}, occ - {victim}, d, [*path, (lx, ly)])
                if found:
                    return found
                if not king:
                    break
                lx, ly = lx + d[0], ly + d[1]
        return None

    return search(frm, frozenset(taken), frozenset(occupied), None, [frm])


def move_of(before: dict, after: dict, colour: str) -> str:
    """The PDN text of the move that turned `before` into `after`, played by `colour` ('w' or 'b')."""
    mine = {sq for sq, p in before.items() if p.lower() == colour}
    now = {sq for sq, p in after.items() if p.lower() == colour}
    taken = {sq for sq, p in before.items() if p.lower() != colour and sq not in after}
    left = mine - now
    reached = now - mine
    if len(left) != 1 or len(reached) != 1:
        raise ValueError(f"not one piece moved: left {sorted(left)}, reached {sorted(reached)}")
    frm, to = left.pop(), reached.pop()
    if not taken:
        return f"{name(frm)}-{name(to)}"
    forward = 1 if colour == "w" else -1
    path = capture_path(before, frm, to, taken, before[frm].isupper(), forward)
    if path is None:
        raise ValueError(f"no jump path {name(frm)} to {name(to)} taking {sorted(map(name, taken))}")
    return "x".join(name(sq) for sq in path)


def game_text(path: Path) -> str:
    """One PDN game from one log file."""
    rows = [line.split(",")[2] for line in path.read_text().splitlines()[1:] if line.strip()]
    boards = [board_of(START)] + [board_of(r.split()) for r in rows]
    moves = [move_of(boards[i - 1], boards[i], "w" if i % 2 else "b") for i in range(1, len(boards))]
    last = boards[-1]
    loser = "b" if len(moves) % 2 else "w"
    result = ("1-0" if loser == "b" else "0-1") if not any(p.lower() == loser for p in last.values()) else "*"
    white, black = path.stem.split("_vs_")
    tags = [("Event", "ffloof/TurkishDraughts engine tournament, Round 1"), ("Site", "?"),
            ("White", white), ("Black", black), ("Result", result), ("GameType", "30"),
            ("Source", f"github.com/ffloof/TurkishDraughts {path.parent.name}/{path.name}")]
    body = []
    for n in range(0, len(moves), 2):
        body.append(f"{n // 2 + 1}. " + " ".join(moves[n:n + 2]))
    words = " ".join([*body, result]).split(" ")
    out, line = [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > 79:
            out.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    out.append(line)
    return "\n".join([*(f'[{k} "{v}"]' for k, v in tags), "", *out, ""])


def main(argv: list[str]) -> int:
    src = Path(argv[1])
    texts = [game_text(p) for p in sorted(src.glob("*.csv"))]
    sys.stdout.write("\n".join(texts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
