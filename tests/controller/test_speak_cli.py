"""`dboard speak` with real espeak-ng: in every language a WAV that is not silent, longer for a longer text,
and the text printed is the announcement the board makes of the move."""

from __future__ import annotations

import array
import wave
from pathlib import Path

import pytest

from controller.announcer import move_words
from controller.cli import main
from i18n import LANGUAGES, translator


def speak(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[str, array.array[int]]:
    """Run ``dboard speak ARGS --wav FILE``: what it printed and the WAV's samples."""
    config, wav_path = tmp_path / "config.toml", tmp_path / "speech.wav"
    config.write_text("")
    assert main(["speak", "--config", str(config), *args, "--wav", str(wav_path)]) == 0
    with wave.open(str(wav_path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1 and wav.getframerate() > 8000
        samples = array.array("h", wav.readframes(wav.getnframes()))
    return capsys.readouterr().out.strip(), samples


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_language_says_a_move_into_a_wav_that_is_not_silent(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], language: str) -> None:
    text, samples = speak(tmp_path, capsys, "--language", language, "--variant", "international",
                          "--move", "32-28")
    assert text == translator(language).render(move_words("32", "28"))
    assert max(map(abs, samples)) > 1000
    longer_text, longer = speak(tmp_path, capsys, "--language", language, "--variant", "international",
                                "--move", "32x23x14")
    assert longer_text == translator(language).render(move_words("32", "14", 2))
    assert len(longer) > len(samples) * 1.2


def test_a_move_is_said_as_it_is_in_the_position(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = speak(tmp_path, capsys, "--variant", "international", "--fen", "B:W28:B42", "--move", "42-47")
    assert text == "42 to 47 and crowns"
    text, _ = speak(tmp_path, capsys, "--variant", "russian", "--move", "c3-d4")
    assert text == "c 3 to d 4"


def test_a_move_not_of_the_variant_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wav = tmp_path / "x.wav"
    assert main(["speak", "--variant", "international", "--move", "99-28", "--wav", str(wav)]) == 1
    assert "'99' is not a playing square" in capsys.readouterr().err
    assert not wav.exists()
