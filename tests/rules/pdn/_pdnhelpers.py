"""Shared paths and small helpers of the PDN tests (data lives in tests/data, in the repository)."""

from __future__ import annotations

import io
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from rules.pdn import PdnGame, PdnReader
from rules.pdn.encoding import DecodedLines

DATA = Path(__file__).resolve().parents[2] / "data"
CORPUS = DATA / "pdn-corpus"
SUCCEED = sorted((CORPUS / "succeed").glob("*.pdn"))
FAIL = sorted((CORPUS / "fail").glob("*.pdn"))


def read_file(path: Path, *, validate: bool = False, variant: str | None = None) -> list[PdnGame]:
    """All games of a PDN file, decoded the way the CLI does."""
    with path.open("rb") as handle:
        return list(PdnReader(DecodedLines(handle), validate=validate, variant=variant))


def read_text(text: str, *, validate: bool = False, variant: str | None = None) -> list[PdnGame]:
    """All games of a PDN string."""
    return list(PdnReader(io.StringIO(text), validate=validate, variant=variant))


def steps(work: Callable[[], object]) -> int:
    """How many lines of Python `work` runs: a measure of time that does not depend on the machine's load."""
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> Callable[..., object]:
        nonlocal count
        count += 1
        return trace

    sys.settrace(trace)
    try:
        work()
    finally:
        sys.settrace(None)
    return count


def peak_memory(work: Callable[[], object]) -> int:
    """The most memory (bytes, as tracemalloc counts it) allocated at once while `work` runs."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
