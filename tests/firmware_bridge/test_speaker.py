"""The Speaker: announcements in order and never two at once, a newer one of a topic replacing a stale one,
and a board that cannot speak (real espeak-ng on this machine, which has no sound card) saying so once."""

from __future__ import annotations

import array
import threading
import wave
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from firmware_bridge.speaker import CannotSpeak, EspeakNg, RecordingBackend, Speaker, VoiceSettings


@dataclass
class SlowLoudspeaker(RecordingBackend):
    """A loudspeaker that takes as long as the test says to say each text: ``gate`` lets one finish."""

    gate: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(0))
    started: threading.Event = field(default_factory=threading.Event)
    cut_now: threading.Event = field(default_factory=threading.Event)

    def speak(self, text: str, voice: VoiceSettings) -> None:
        self.started.set()
        while not self.cut_now.is_set() and not self.gate.acquire(timeout=0.01):
            pass
        if self.cut_now.is_set():   # a cut (set before the gate opens) wins
            self.cut_now.clear()
            self.spoken.append(f"{text} (cut)")
            return
        super().speak(text, voice)

    def cut(self) -> None:
        super().cut()
        self.cut_now.set()


def test_announcements_are_said_in_order_one_at_a_time() -> None:
    backend = RecordingBackend()
    speaker = Speaker(backend)
    speaker.start()
    for text in ("32 to 28", "19 to 23", "28 takes 19"):
        speaker.say(text)
    assert speaker.wait()
    assert backend.spoken == ["32 to 28", "19 to 23", "28 takes 19"]
    speaker.close()


def test_a_newer_announcement_of_a_topic_replaces_the_queued_one_and_cuts_the_one_being_said() -> None:
    backend = SlowLoudspeaker()
    speaker = Speaker(backend)
    speaker.start(probe=False)
    speaker.say("White has 30 seconds left", topic="clock")
    assert backend.started.wait(5)
    speaker.say("32 to 28")
    speaker.say("White has 20 seconds left", topic="clock")   # cuts the one being said
    speaker.say("White has 10 seconds left", topic="clock")   # replaces the queued one
    for _ in range(3):
        backend.gate.release()
    assert speaker.wait()
    assert backend.spoken == ["White has 30 seconds left (cut)", "32 to 28", "White has 10 seconds left"]
    assert backend.cuts == 1
    speaker.close()


def test_a_backend_that_cannot_speak_is_said_once_and_then_nothing_is_said() -> None:
    backend = RecordingBackend(fail="no audio device")
    heard: list[str] = []
    speaker = Speaker(backend, on_unavailable=heard.append)
    speaker.start()
    assert speaker.wait()
    for text in ("32 to 28", "19 to 23"):
        speaker.say(text)
    assert speaker.wait()
    assert heard == ["no audio device"] and speaker.unavailable == "no audio device" and backend.spoken == []
    speaker.close()


def test_espeak_ng_without_an_audio_device_is_found_out_at_start_and_said_once() -> None:
    """This machine has no sound card: espeak-ng exits 0 but says ALSA found no PCM device."""
    heard: list[str] = []
    speaker = Speaker(EspeakNg(), on_unavailable=heard.append)
    speaker.start()
    assert speaker.wait()
    speaker.say("32 to 28")
    speaker.say("19 to 23")
    assert speaker.wait()
    assert len(heard) == 1 and "no audio device" in heard[0]
    speaker.close()


def test_a_missing_espeak_ng_names_the_package_to_install() -> None:
    with pytest.raises(CannotSpeak, match="install the espeak-ng package"):
        EspeakNg("espeak-ng-not-here").speak("32 to 28", VoiceSettings())


def test_an_unknown_voice_cannot_speak() -> None:
    with pytest.raises(CannotSpeak, match="voice does not exist"):
        EspeakNg().render("32 to 28", VoiceSettings("zzz"), Path("/dev/null"))


def samples(path: Path) -> array.array[int]:
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1
        return array.array("h", wav.readframes(wav.getnframes()))


def test_a_wav_is_not_silent_and_a_longer_text_is_longer(tmp_path: Path) -> None:
    short, long = tmp_path / "short.wav", tmp_path / "long.wav"
    backend = EspeakNg()
    backend.render("32 to 28", VoiceSettings(), short)
    backend.render("32 to 28. 19 to 23. 28 takes 19. 14 takes 23 and crowns.", VoiceSettings(), long)
    quiet, loud = samples(short), samples(long)
    assert max(map(abs, quiet)) > 1000
    assert len(loud) > 2 * len(quiet)


def test_rate_and_volume_reach_espeak_ng(tmp_path: Path) -> None:
    slow, fast, soft = tmp_path / "slow.wav", tmp_path / "fast.wav", tmp_path / "soft.wav"
    backend = EspeakNg()
    backend.render("32 to 28", VoiceSettings(rate=100), slow)
    backend.render("32 to 28", VoiceSettings(rate=300), fast)
    backend.render("32 to 28", VoiceSettings(rate=100, volume=20), soft)
    assert len(samples(slow)) > 1.5 * len(samples(fast))
    assert max(map(abs, samples(soft))) * 2 < max(map(abs, samples(slow)))
