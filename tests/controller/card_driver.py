"""Runs ``dboard ARGS`` with the fault-injecting card wrapper installed: ``card_driver.py BASE CONTROL ARGS``
(the tests write "full" or "read-only" into CONTROL to make the card at BASE fail)."""

from __future__ import annotations

import sys
from pathlib import Path

from card import FaultCard

from controller.cli import main

if __name__ == "__main__":
    FaultCard(Path(sys.argv[1]), Path(sys.argv[2])).install()
    sys.exit(main(sys.argv[3:]))
