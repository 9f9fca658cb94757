"""The board's voice in the browser, on request: a short text spoken by espeak-ng into a WAV the page plays
(the page's own words, in its language); one rendering at a time, so a page cannot load the board's CPU."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from firmware_bridge.speaker import CannotSpeak, EspeakNg, VoiceSettings
from i18n import LANGUAGES

__all__ = ["MAX_SPOKEN", "SpeechError", "WavVoice"]

MAX_SPOKEN = 400
"""The longest text spoken (a sentence the board says is shorter; the whole position read out fits)."""


class SpeechError(ValueError):
    """A text that will not be spoken: too long, not printable, or the board cannot speak; says why."""


class WavVoice:
    """Renders texts as WAV bytes with espeak-ng, one at a time."""

    def __init__(self, program: EspeakNg | None = None) -> None:
        self._espeak = program or EspeakNg()
        self._turn = asyncio.Lock()

    async def wav(self, text: str, language: str) -> bytes:
        """``text`` spoken in ``language`` (one of i18n's) as a WAV file's bytes; SpeechError if not."""
        text = " ".join(text.split())
        if not text or len(text) > MAX_SPOKEN or not text.isprintable():
            raise SpeechError(f"a text to speak is 1 to {MAX_SPOKEN} printable characters, got {len(text)}")
        voice = VoiceSettings(LANGUAGES[language].voice)
        async with self._turn:
            return await asyncio.to_thread(self._render, text, voice)

    def _render(self, text: str, voice: VoiceSettings) -> bytes:
        with tempfile.TemporaryDirectory(prefix="dboard-speech-") as tmp:
            path = Path(tmp) / "said.wav"
            try:
                self._espeak.render(text, voice, path)
            except CannotSpeak as exc:
                raise SpeechError(str(exc)) from None
            return path.read_bytes()
