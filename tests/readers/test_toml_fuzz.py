"""Every TOML file the product reads (the board's config, the hall's config, a board profile) under
generated hostile files: deep nesting, wrong types, huge numbers, other scripts' digits, bytes that are not
UTF-8 (a lone surrogate's encoding among them), NUL, a file cut anywhere, special files. Each read gives its
own one-line error naming the file, or a clean result; never another exception (issue 30)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller import config as board_config
from firmware_bridge.profile import ProfileError, load_profile
from hall import config as hall_config

SOUND_BOARD = b'variant = "english"\nlevel = 3\nsettle_ms = 250\nweb_port = 8080\nmasked_squares = ""\n'
SOUND_HALL = b'port = 8090\nbroker = "localhost:1883"\nevent = "Club night"\n'
SOUND_PROFILE = b'rows = 8\ncols = 8\nbackend = "simulated"\n[leds]\nbrightness = 0.5\n'
SPOILERS = [
    b"[" * 3000, b"a = " + b"[" * 500 + b"]" * 500, b"{x = {y = {z = 1}}}", b"level = " + b"9" * 5000,
    b"level = 1e400", b"level = nan", b"level = \xe0\xa5\xa9", b"level = \xd9\xa3", b"level = \xc2\xb2",
    b"variant = \"\xed\xa0\x80\"", b"\xff\xfe", b"\x00", b"level = \"3\"", b"level = [3]", b"level = {a = 1}",
    b"variant = 3", b"settle_ms = -1", b"web_port = 99999999999999999999", b"rows = 0", b"cols = 1000000",
    b"[[variant]]", b"port = true", b'"\\ud800" = 1', b"a.b.c.d.e.f = 1", b'masked_squares = "r99c99"',
]
READERS = [
    (SOUND_BOARD, lambda path: board_config.load(path), board_config.ConfigError),
    (SOUND_HALL, lambda path: hall_config.load(path), hall_config.HallConfigError),
    (SOUND_PROFILE, load_profile, ProfileError),
]


@pytest.mark.parametrize("which", range(len(READERS)))
@pytest.mark.parametrize("spoil", SPOILERS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cut=st.integers(0, 200), at=st.integers(0, 200), noise=st.binary(max_size=40))
def test_a_hostile_toml_file_is_one_error_naming_it_or_a_clean_read(which: int, cut: int, spoil: bytes,
                                                                    at: int, noise: bytes) -> None:
    sound, read, error = READERS[which]
    lines = sound.split(b"\n")
    at %= len(lines)
    spoiled = b"\n".join([*lines[:at], spoil, *lines[at:]])
    for text in (spoiled, spoiled[:cut], spoiled + b"\n" + noise, noise):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "file.toml"
            path.write_bytes(text)
            try:
                read(path)
            except error as exc:
                message = str(exc)
                assert "file.toml" in message and "\n" not in message, message
                assert message.isprintable(), message


def test_special_files_are_refused_by_every_toml_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    for _, read, error in READERS:
        for path in (fifo, folder, zero):
            try:
                read(path)
            except error as exc:
                assert path.name in str(exc), exc
            else:
                raise AssertionError(f"{path} was read")
