"""The journal heals itself (issue 20): a torn, damaged or foreign record is never believed nor appended to;
the longest valid prefix is kept, the damaged journal set aside whole, and the old format still resumes."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from journals import begin, bodies, line_spans, old_format, play, records, reseal, restart, states_after

from controller.durable import DAMAGED_INFIX
from controller.journal import JOURNAL_NAME, MAX_JOURNAL_BYTES, Journal, game_of, scan, scan_bytes


@pytest.fixture
def quick_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of journals are written here: the bytes matter, not their way to the platter (when the
    fsyncs happen is tested in test_durable.py and test_record.py), so fsync returns at once."""
    import os

    monkeypatch.setattr(os, "fsync", lambda fd: None)


def _game(directory: Path, plies: int = 6, variant: str = "english") -> bytes:
    record = begin(directory, variant)
    play(record, plies)
    assert record.journal is not None
    record.journal.close()
    return (directory / JOURNAL_NAME).read_bytes()


def _damaged_copies(directory: Path) -> list[Path]:
    return sorted(directory.glob(f"{JOURNAL_NAME}{DAMAGED_INFIX}*"))


def _texts(state: object) -> list[str]:
    return [r.text for r in state.records] if state is not None else []  # type: ignore[attr-defined]


@pytest.mark.parametrize("tail", ["cut", "zero-filled", "garbage"])
@pytest.mark.usefixtures("quick_disk")
def test_every_torn_tail_of_the_last_two_records_is_cut_back_before_two_more_moves(
        tmp_path: Path, tail: str) -> None:
    """Issue 20 item 1: a power cut (or a full card) mid-append left the last record torn, the next confirmed
    move was appended onto the torn bytes and lost, and one move later the journal no longer read. Now at
    every byte offset of the last two records: the valid prefix is kept, the torn tail is set aside, two more
    moves are journaled after the prefix, and a restart finds every confirmed move exactly once."""
    data = _game(tmp_path / "game")
    spans = line_spans(data)
    states = states_after(tmp_path / JOURNAL_NAME, data)
    rng = random.Random(tail)
    directory = tmp_path / "board"
    for offset in range(spans[-2][0], len(data)):
        if tail == "cut":
            damaged = data[:offset]
        elif tail == "zero-filled":
            damaged = data[:offset] + bytes(len(data) - offset)
        else:
            damaged = data[:offset] + rng.randbytes(rng.randint(1, 40))
        for old in directory.glob("*"):
            old.unlink()
        directory.mkdir(exist_ok=True)
        (directory / JOURNAL_NAME).write_bytes(damaged)
        kept = sum(1 for _, end in spans if end <= offset)
        opened, record = restart(directory)   # the board starts
        assert record is not None and opened.state == states[kept], offset
        if damaged != data[:offset] or offset not in (start for start, _ in spans):
            [copy] = _damaged_copies(directory)
            assert copy.read_bytes() == damaged, "the damaged journal is kept whole"
        else:   # cut exactly between two records: nothing is damaged
            assert opened.scan.damage is None and not _damaged_copies(directory)
        more = play(record, 2, seed=offset)
        assert record.journal is not None
        record.journal.close()
        again = scan(directory / JOURNAL_NAME)   # the board restarted
        assert again.damage is None, (offset, again.damage)
        assert _texts(again.state) == _texts(states[kept]) + more, offset


def test_a_failed_append_leaves_no_bytes_behind_and_the_retry_lands_on_the_prefix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20 item 1 (disk full mid-record): the write that fails half-way is cut back at once; had it not
    been, the next append still starts where the valid journal ends."""
    import os

    record = begin(tmp_path)
    play(record, 2)
    journal = record.journal
    assert journal is not None
    size = journal.path.stat().st_size
    real_pwrite = os.pwrite

    def half_then_full(fd: int, data: bytes, offset: int) -> int:
        real_pwrite(fd, bytes(data[:len(data) // 2]), offset)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "pwrite", half_then_full)
    with pytest.raises(ValueError, match="can't save the move: the card is full"):
        play(record, 1)
    assert journal.path.stat().st_size == size and len(record.plies) == 2
    def cannot_cut(fd: int, length: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "ftruncate", cannot_cut)
    with pytest.raises(ValueError, match="the card is full"):
        play(record, 1)
    assert journal.path.stat().st_size > size   # torn bytes the cut-back could not remove...
    monkeypatch.undo()
    play(record, 1)                             # ...are cut off before the retry is written
    found = scan(journal.path)
    assert found.damage is None and len(found.state.records) == 3


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def _reseal_at(data: bytes, index: int, change: dict | None = None, insert: dict | None = None) -> bytes:
    """Change fields of line ``index``'s record (``...`` removes one), or insert a record before it, and redo
    every checksum: damage that only the checks of the record itself can find."""
    entries = records(data)
    if insert is not None:
        entries.insert(index, insert)
    else:
        changed = {**entries[index], **(change or {})}
        entries[index] = {k: v for k, v in changed.items() if v is not ...}
    return reseal(bodies(entries))


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x04]) + data[at + 1:]


def _other_legal_move(data: bytes, index: int) -> str:
    """A legal move other than the one line ``index`` records, in the position before it."""
    from rules import Game

    entries = records(data)
    settings = entries[0]["settings"]
    game = Game(settings["variant"], fen=settings["fen"])
    for entry in entries[1:index]:
        game.push(entry["text"])
    texts = sorted(game.board.move_text(m) for m in game.board.legal_moves)
    return next(t for t in texts if t != entries[index]["text"])


def _foreign_line(tmp: Path, index: int) -> bytes:
    """Line ``index`` of another game's journal (a valid line of its own checksum chain)."""
    other = begin(tmp / "other")
    play(other, 6, seed=1)
    return _lines((tmp / "other" / JOURNAL_NAME).read_bytes())[index]


def _at(data: bytes, line: int, offset: int = 0) -> int:
    return line_spans(data)[line][0] + offset


def _overwrite(data: bytes, at: int, new: bytes) -> bytes:
    return data[:at] + new + data[at + len(new):]


def _relined(data: bytes, order: list[int], foreign: bytes | None = None) -> bytes:
    """The journal's lines in ``order`` (-1: the ``foreign`` line)."""
    lines = _lines(data)
    return b"".join(lines[i] if i >= 0 else foreign or b"" for i in order)


# name -> (damage(data, tmp) -> damaged bytes, how many lines of the original are kept). The journal has 7
# lines: the start and 6 moves (index 0-6). The 23 kinds the issue tried, and a few more.
DAMAGE = {
    "cut mid-record": (lambda d, t: d[:_at(d, 6, 30)], 6),
    "last newline missing": (lambda d, t: d[:-1], 6),
    "zero-filled extension": (lambda d, t: d + bytes(4096), 7),
    "garbage without a newline": (lambda d, t: d + b"\x8f\x13garbage", 7),
    "full card then power cut": (lambda d, t: d + _lines(_game(t / "longer", plies=7))[7][:50], 7),
    "two garbage lines at the end": (lambda d, t: d + b"garbage\nmore garbage\n", 7),
    "bad UTF-8": (lambda d, t: _overwrite(d, _at(d, 4, 20), b"\xff\xfe"), 4),
    "zeroed block": (lambda d, t: _overwrite(d, _at(d, 3, 40), bytes(200)), 3),
    "zeroed header": (lambda d, t: _overwrite(d, 0, bytes(_at(d, 1))), 0),
    "torn header": (lambda d, t: d[:_at(d, 1) // 2], 0),
    "empty file": (lambda d, t: b"", 0),
    "first checksum lost": (lambda d, t: d[9:], 0),
    "unknown record type": (lambda d, t: _reseal_at(d, 5, insert={"type": "pause", "seconds": 3}), 5),
    "bit flip": (lambda d, t: _flip(d, _at(d, 5, 25)), 5),
    "bit flip in a checksum": (lambda d, t: _flip(d, _at(d, 5, 3)), 5),
    "illegal move": (lambda d, t: _reseal_at(d, 5, {"text": "1-2"}), 5),
    "record without its position (KeyError 'fen')": (lambda d, t: _reseal_at(d, 5, {"fen": ...}), 5),
    "null move text (AttributeError)": (lambda d, t: _reseal_at(d, 5, {"text": None}), 5),
    "another legal move": (lambda d, t: _text_swapped(d, 5), 5),
    "another legal move, checksums redone": (lambda d, t: _reseal_at(d, 5, {"text": _other_legal_move(d, 5)}),
                                             5),
    "wrong position, checksums redone": (lambda d, t: _reseal_at(d, 5, {"fen": records(d)[3]["fen"]}), 5),
    "invented takeback line": (lambda d, t: d + b'{"type":"takeback","plies":4}\n', 7),
    "invented takeback, checksums redone": (lambda d, t: _reseal_at(d, 7, insert={"type": "takeback",
                                                                                  "plies": 9}), 7),
    "duplicated line": (lambda d, t: _relined(d, [0, 1, 2, 3, 4, 5, 5, 6]), 6),
    "two lines swapped": (lambda d, t: _relined(d, [0, 1, 2, 3, 5, 4, 6]), 4),
    "line deleted": (lambda d, t: _relined(d, [0, 1, 2, 3, 5, 6]), 4),
    "line of another journal": (lambda d, t: _relined(d, [0, 1, 2, 3, 4, -1, 6], _foreign_line(t, 5)), 5),
    "bad settings, checksums redone": (lambda d, t: _reseal_at(d, 0, {"settings": {"variant": "chess"}}), 0),
    "second start, checksums redone": (lambda d, t: _reseal_at(d, 3, insert=records(d)[0]), 3),
    "clocks of nulls, checksums redone": (lambda d, t: _reseal_at(d, 5, {"clocks": [None, None]}), 5),
    "end with a bad result, checksums redone": (lambda d, t: _reseal_at(d, 7, insert={
        "type": "end", "result": "2-0", "reason": "resignation"}), 7),
}


def _text_swapped(data: bytes, index: int) -> bytes:
    """Line ``index``'s move text changed into another legal move, nothing else (its checksum now wrong)."""
    start, end = line_spans(data)[index]
    entry = records(data)[index]
    line = data[start:end].replace(json.dumps(entry["text"]).encode(),
                                   json.dumps(_other_legal_move(data, index)).encode())
    return data[:start] + line + data[end:]


@pytest.mark.parametrize("name", list(DAMAGE))
@pytest.mark.usefixtures("quick_disk")
def test_damage_keeps_the_valid_prefix_sets_the_journal_aside_and_says_so(tmp_path: Path, name: str) -> None:
    """Issue 20 items 4-6: every kind of damage found, 10 of which stopped `dboard play` and 5 of which were
    believed, and none reported: the board starts with exactly the records before the damage, the damaged
    journal is kept whole and named in the message, and the repaired journal takes the next move."""
    damage, kept = DAMAGE[name]
    data = _game(tmp_path / "game")
    states = states_after(tmp_path / JOURNAL_NAME, data)
    damaged = damage(data, tmp_path)
    directory = tmp_path / "board"
    directory.mkdir()
    (directory / JOURNAL_NAME).write_bytes(damaged)
    opened, record = restart(directory)
    assert opened.state == states[kept], opened.scan.damage
    [copy] = _damaged_copies(directory)
    assert copy.read_bytes() == damaged
    message = opened.message()
    assert message is not None and str(copy) in message
    if kept:
        assert f"kept the game up to ply {kept - 1}" in message or kept == 1
        assert record is not None
        play(record, 1)
        assert _texts(scan(directory / JOURNAL_NAME).state) == [*_texts(states[kept]), record.plies[-1].text]
    else:
        assert record is None and not (directory / JOURNAL_NAME).exists()
        assert "nothing could be kept" in message or "was empty" in message


def test_an_old_journal_resumes_and_is_rewritten_with_checksums_before_the_next_move(tmp_path: Path) -> None:
    """A game in progress survives the upgrade: a journal of the first release (no checksums) resumes, and is
    rewritten (atomically, with checksums) before anything is appended."""
    data = _game(tmp_path / "game")
    directory = tmp_path / "board"
    directory.mkdir()
    (directory / JOURNAL_NAME).write_bytes(old_format(data))
    assert not scan(directory / JOURNAL_NAME).checksummed
    opened, record = restart(directory)
    assert record is not None and opened.message() is None and not _damaged_copies(directory)
    assert (directory / JOURNAL_NAME).read_bytes() == data   # the same records, checksummed
    play(record, 1)
    found = scan(directory / JOURNAL_NAME)
    assert found.checksummed and found.damage is None and len(found.state.records) == 7


def test_a_damaged_old_journal_keeps_its_valid_prefix(tmp_path: Path) -> None:
    old = old_format(_game(tmp_path / "game"))
    spans = line_spans(old)
    directory = tmp_path / "board"
    directory.mkdir()
    damaged = old[:spans[4][0]] + b'{"type":"move","text":null}\n' + old[spans[4][0]:]
    (directory / JOURNAL_NAME).write_bytes(damaged)
    opened, record = restart(directory)
    assert record is not None and len(record.plies) == 3
    assert opened.message() is not None and _damaged_copies(directory)[0].read_bytes() == damaged


# --- random damage -------------------------------------------------------------------------------------

@st.composite
def damage_ops(draw: st.DrawFn, size: int) -> list[tuple]:
    ops = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "set", "cut", "delete", "insert", "zero", "repeat"]))
        at = draw(st.integers(0, max(0, size - 1)))
        ops.append((kind, at, draw(st.integers(1, 80)), draw(st.binary(min_size=1, max_size=40)),
                    draw(st.integers(0, 7))))
    return ops


def _apply(data: bytes, ops: list[tuple]) -> bytes:
    for kind, at, length, junk, bit in ops:
        at = min(at, max(0, len(data) - 1))
        if not data:
            data = junk
        elif kind == "flip":
            data = data[:at] + bytes([data[at] ^ (1 << bit)]) + data[at + 1:]
        elif kind == "set":
            data = data[:at] + junk[:1] + data[at + 1:]
        elif kind == "cut":
            data = data[:at]
        elif kind == "delete":
            data = data[:at] + data[at + length:]
        elif kind == "insert":
            data = data[:at] + junk + data[at:]
        elif kind == "zero":
            data = data[:at] + bytes(len(data[at:at + length])) + data[at + length:]
        else:
            data = data[:at] + data[at:at + length] + data[at:]
    return data


def _first_difference(a: bytes, b: bytes) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


@pytest.fixture(scope="module")
def sound_journal(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, list]:
    directory = tmp_path_factory.mktemp("sound")
    record = begin(directory)
    play(record, 10, seed=3)
    record.take_back(2)
    play(record, 3, seed=5)
    record.finish("1-0", "resignation")
    assert record.journal is not None
    record.journal.close()
    data = (directory / JOURNAL_NAME).read_bytes()
    return data, states_after(directory / JOURNAL_NAME, data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_resumes_exactly_what_was_written_before_it(
        sound_journal: tuple[bytes, list], data: st.DataObject) -> None:
    """Whatever the damage, reading never fails; what it resumes is the journal's state after the lines that
    lie wholly before the first damaged byte: a prefix of what was confirmed, and never a record it did not
    write."""
    original, states = sound_journal
    damaged = _apply(original, data.draw(damage_ops(len(original))))
    found = scan_bytes(Path(JOURNAL_NAME), damaged)
    intact = _first_difference(original, damaged)
    kept = sum(1 for _, end in line_spans(original) if end <= intact)
    assert found.state == states[kept]
    if found.state is not None:   # the Game it hands to the board is the kept records' own
        game = found.state.take_game()
        assert game is not None
        expected = game_of(game.variant, found.state.header["settings"]["fen"], found.state.records)
        assert game.board.fen() == expected.board.fen() and game.moves == expected.moves


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_random_damage_of_an_old_journal_never_stops_the_start(
        sound_journal: tuple[bytes, list], data: st.DataObject) -> None:
    """Without checksums the old format cannot tell every change, but it never fails to read, and what it
    resumes replays: the moves it keeps are moves of the game, in order."""
    original = old_format(sound_journal[0])
    damaged = _apply(original, data.draw(damage_ops(len(original))))
    found = scan_bytes(Path(JOURNAL_NAME), damaged)
    if found.state is not None:
        kept = [(r.text, r.fen) for r in found.state.records]
        standing = [[(r.text, r.fen) for r in state.records] for state in sound_journal[1] if state]
        assert any(plies[:len(kept)] == kept for plies in standing), kept


def test_reading_changes_nothing(tmp_path: Path) -> None:
    data = _game(tmp_path) + b"torn"
    (tmp_path / JOURNAL_NAME).write_bytes(data)
    assert Journal(tmp_path).read() is not None
    assert scan(tmp_path / JOURNAL_NAME).damage is not None
    assert (tmp_path / JOURNAL_NAME).read_bytes() == data and not _damaged_copies(tmp_path)


def test_a_journal_that_cannot_be_read_is_set_aside_whole(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing card (an input/output error reading the journal) does not stop the board either."""
    import errno

    data = _game(tmp_path)
    real = Path.read_bytes

    def failing(self: Path) -> bytes:
        if self.name == JOURNAL_NAME:
            raise OSError(errno.EIO, "Input/output error", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", failing)
    opened, record = restart(tmp_path)
    monkeypatch.undo()
    assert record is None
    message = opened.message()
    assert message is not None and "(it cannot be read: the card failed (input/output error))" in message
    [copy] = _damaged_copies(tmp_path)
    assert copy.read_bytes() == data and not (tmp_path / JOURNAL_NAME).exists()


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory", "huge"])
def test_a_journal_that_is_no_file_is_set_aside_without_hanging_or_filling_memory(tmp_path: Path,
                                                                                  kind: str) -> None:
    """A FIFO would hang the read, a link to /dev/zero would grow without bound (issue 30 item 9): each is
    damaged from its first line, moved aside whole, and the next game journals afresh."""
    path = tmp_path / JOURNAL_NAME
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dev-zero":
        path.symlink_to("/dev/zero")
    elif kind == "directory":
        path.mkdir()
    else:
        with open(path, "wb") as handle:
            handle.truncate(MAX_JOURNAL_BYTES + 1)   # sparse: no disk used
    found = scan(path)
    assert found.exists and found.state is None and found.damage is not None
    size = MAX_JOURNAL_BYTES
    expected = {"fifo": "it is a FIFO, not a regular file", "dev-zero": "it is a device, not a regular file",
                "directory": "it is a directory, not a regular file",
                "huge": f"it has {size + 1} bytes, more than the {size} it may have"}
    assert found.damage.reason == expected[kind]
    opened, record = restart(tmp_path)
    assert record is None and opened.damaged_copy is not None and not path.exists()
