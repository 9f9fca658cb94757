"""The board's voice put together: the Announcer's phrases rendered in the configured language and said by
a Speaker (espeak-ng with the configured voice, rate and volume, unless another Speaker is given)."""

from __future__ import annotations

from collections.abc import Callable

from firmware_bridge.speaker import EspeakNg, Speaker, VoiceSettings
from i18n import LANGUAGES, Translator, translator

from . import events as ev
from .announcer import Announcer
from .config import Config

__all__ = ["Speech", "voice_settings"]


def voice_settings(config: Config) -> VoiceSettings:
    """The espeak-ng voice of the config: ``speech_voice``, or the language's own; its rate and volume."""
    voice = config.speech_voice.strip() or LANGUAGES[config.language].voice
    return VoiceSettings(voice, config.speech_rate, config.speech_volume)


class Speech:
    """Hears every event (``hear``) and says what the Announcer makes of it, in ``config.language``.
    ``on_unavailable(reason)`` is told once, from the Speaker's thread, that the board cannot speak."""

    def __init__(self, config: Config, speaker: Speaker | None = None,
                 on_unavailable: Callable[[str], None] | None = None) -> None:
        self.announcer = Announcer(blind=config.blind_mode)
        self.translator: Translator = translator(config.language)
        self.speaker = speaker or Speaker(EspeakNg(), voice_settings(config))
        if on_unavailable is not None:
            self.speaker.on_unavailable = on_unavailable

    def start(self) -> None:
        """Begin speaking (a board that cannot speak finds out now)."""
        self.speaker.start()

    def hear(self, event: ev.Event) -> list[str]:
        """Say what ``event`` calls for; returns the texts said (rendered)."""
        return [self.say(a.text, a.topic) for a in self.announcer.hear(event)]

    def say(self, text: str, topic: str = "") -> str:
        """Say ``text`` (a phrase is rendered in the board's language) at once; returns what was said."""
        said = self.translator.render(text)
        self.speaker.say(said, topic)
        return said

    def close(self) -> None:
        """Stop speaking (what is queued is dropped)."""
        self.speaker.close()

    def __repr__(self) -> str:
        return f"Speech({self.translator.language}, {self.speaker!r})"
