"""Shared paths and small helpers of the PDN tests (data lives in tests/data, in the repository)."""

from __future__ import annotations

import io
from pathlib import Path

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
