"""The exercise progress file (controller/exercises.py) read whatever is in it: exact types or one line
naming the field, the damaged file moved aside under a free name so that it never blocks a start again."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.durable import DAMAGED_INFIX
from controller.exercises import PROGRESS_FILE, ExerciseProgress

JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False)
                    | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                                max_size=3),
                    max_leaves=20)
ENTRY = st.fixed_dictionaries({}, optional={"solved": st.lists(st.text(max_size=6), max_size=3) | JSON,
                                            "tries": st.dictionaries(st.text(max_size=6),
                                                                     st.integers(0, 9) | JSON) | JSON})
PROGRESS = st.dictionaries(st.text(max_size=6), st.dictionaries(st.text(max_size=6), ENTRY | JSON) | JSON)
HOSTILE = st.one_of(
    PROGRESS.map(json.dumps).map(str.encode),
    JSON.map(json.dumps).map(str.encode),
    st.binary(max_size=40),
    st.integers(1, 3000).map(lambda n: b'{"p": ' * n + b"1" + b"}" * n),
    st.sampled_from([b'{"p": {"english": {"tries": []}}}', b'{"p": {"english": {"tries": {"e1": "many"}}}}',
                     b'{"p": {"english": {"solved": 5}}}', b'{"p": {"english": "x"}}', b'{"p": {"e": NaN}}',
                     b'{"p": {"english": {"tries": {"e1": ' + b"9" * 5000 + b"}}}}", b"\xef\xbb\xbf{}"]),
)


def damaged(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{PROGRESS_FILE}{DAMAGED_INFIX}*"))


def well_typed(data: dict[str, Any]) -> bool:
    return all(isinstance(entry["solved"], list) and all(isinstance(s, str) for s in entry["solved"])
               and all(isinstance(k, str) and type(v) is int for k, v in entry["tries"].items())
               for variants in data.values() for entry in variants.values())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(HOSTILE)
def test_any_progress_file_is_read_or_moved_aside_and_never_blocks_a_start(tmp_path: Path,
                                                                           raw: bytes) -> None:
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / PROGRESS_FILE
    path.write_bytes(raw)
    progress = ExerciseProgress(path)
    if progress.notice is None:
        assert well_typed(progress.data) and path.read_bytes() == raw and not damaged(folder)
    else:
        assert "\n" not in progress.notice and progress.data == {}
        (aside,) = damaged(folder)
        assert aside.read_bytes() == raw and not path.exists()
    again = ExerciseProgress(path)   # the next start: nothing in the way
    assert again.notice is None
    again.record("Ann", "english", "english-01", solved=True)
    again.record("Ann", "english", "english-01", solved=True)
    assert ExerciseProgress(path).data["Ann"]["english"] == {"solved": ["english-01"],
                                                             "tries": {"english-01": 2}}


def test_each_wrong_field_is_named(tmp_path: Path) -> None:
    cases = {'{"p": {"english": {"tries": []}}}': "p.english.tries: expected an object, got a list []",
             '{"p": {"english": {"tries": {"e1": "many"}}}}':
                 "p.english.tries.e1: expected a whole number, got a text 'many'",
             '{"p": {"english": {"solved": 5}}}': "p.english.solved: expected a list, got a number 5",
             '{"p": {"english": "x"}}': "p.english: expected an object, got a text 'x'"}
    for number, (text, field) in enumerate(cases.items()):
        path = tmp_path / f"{number}" / PROGRESS_FILE
        path.parent.mkdir()
        path.write_text(text)
        notice = ExerciseProgress(path).notice
        assert notice is not None and f"{path}: {field}" in notice, notice
        assert notice.endswith("starting afresh.") and damaged(path.parent)[0].name in notice


def test_a_fifo_or_a_directory_in_its_place_is_moved_aside_at_once(tmp_path: Path) -> None:
    for kind, make in (("a FIFO", os.mkfifo), ("a directory", os.mkdir)):
        folder = tmp_path / kind.split()[-1]
        folder.mkdir()
        make(folder / PROGRESS_FILE)
        progress = ExerciseProgress(folder / PROGRESS_FILE)   # a FIFO would hang a plain read
        assert progress.notice is not None and f"is {kind}, not a regular file" in progress.notice
        assert not (folder / PROGRESS_FILE).exists() and len(damaged(folder)) == 1
