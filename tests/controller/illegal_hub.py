"""A Hub-protocol engine that answers every search with an illegal move (for the fallback test)."""

from __future__ import annotations

import sys


def main() -> int:
    """Speak just enough Hub to be started, then answer `go` with a move no position allows."""
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "hub":
            print("id name=liar version=1", flush=True)
            print("wait", flush=True)
        elif words[0] == "init":
            print("ready", flush=True)
        elif words[0] == "go":
            print("done move=1-32", flush=True)
        elif words[0] == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
