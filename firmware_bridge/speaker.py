"""The board's voice out loud: a ``Speaker`` says texts one after another through a ``SpeechBackend``, the
real one espeak-ng (to the audio output, or to a WAV file), the recording one for tests (it keeps what would
be said, as gpiozero's mock pins keep what was set).

Announcements never overlap: they wait in a queue, spoken by one worker thread. An announcement with a
``topic`` replaces a queued one of that topic and cuts one of that topic being spoken (a stale clock warning
gives way to the new one). When the backend cannot speak (espeak-ng missing, no audio device) the Speaker
says so once (its ``on_unavailable``, and the log) and from then on says nothing: the game plays on.
"""

from __future__ import annotations

import logging
import subprocess
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

__all__ = ["ESPEAK", "CannotSpeak", "EspeakNg", "RecordingBackend", "Speaker", "SpeechBackend", "Utterance",
           "VoiceSettings"]

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
"""The program (Debian and Raspberry Pi OS package ``espeak-ng``)."""


@dataclass(frozen=True)
class VoiceSettings:
    """How to speak: the espeak-ng voice (``en-gb``, ``nl``), words a minute, amplitude (100: its own)."""

    voice: str = "en-gb"
    rate: int = 160
    volume: int = 100


@dataclass(frozen=True)
class Utterance:
    """One announcement: its text and the topic a newer one of the same topic replaces it by ('' none)."""

    text: str
    topic: str = ""


class CannotSpeak(Exception):
    """The backend cannot speak at all (no program, no audio device, no such voice); the message says why."""


class SpeechBackend(Protocol):
    """What speaks a text: ``speak`` blocks until it is said (or cut) and raises CannotSpeak when it cannot;
    ``cut`` (from another thread) stops what ``speak`` is saying now."""

    def speak(self, text: str, voice: VoiceSettings) -> None: ...

    def cut(self) -> None: ...


class EspeakNg:
    """espeak-ng in a process of its own per text: the text on its standard input (never a shell, never an
    argument, so a text starting with ``-`` is text). To the audio output, or ``render`` to a WAV file."""

    def __init__(self, program: str = ESPEAK) -> None:
        self.program = program
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._cut = False

    def command(self, voice: VoiceSettings, *extra: str) -> list[str]:
        """The command line for ``voice``, with ``extra`` options (``-w FILE``, ``--stdout``)."""
        return [self.program, "-v", voice.voice, "-s", str(voice.rate), "-a", str(voice.volume), *extra]

    def speak(self, text: str, voice: VoiceSettings) -> None:
        """Say ``text`` on the audio output and wait until it is said. espeak-ng without an audio device exits
        0 but prints ALSA's complaints and ``error: ...`` on its standard error: that is CannotSpeak too."""
        self._run(text, self.command(voice))

    def render(self, text: str, voice: VoiceSettings, path: Path) -> None:
        """Write ``text`` spoken as a WAV file at ``path`` (no audio device needed)."""
        self._run(text, self.command(voice, "-w", str(path)))

    def cut(self) -> None:
        with self._lock:
            if self._process is not None and self._process.poll() is None:
                self._cut = True
                self._process.terminate()

    def _run(self, text: str, argv: list[str]) -> None:
        try:
            with self._lock:
                self._cut = False
                self._process = process = subprocess.Popen(
                    argv, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as exc:
            raise CannotSpeak(f"{self.program} cannot be run ({exc.strerror or exc}): install the "
                              f"{ESPEAK} package") from None
        _, err = process.communicate(text.encode("utf-8"))
        with self._lock:
            self._process, cut = None, self._cut
        if cut:
            return
        problem = _problem(process.returncode, err.decode("utf-8", "replace"))
        if problem is not None:
            raise CannotSpeak(problem)


def _problem(returncode: int, stderr: str) -> str | None:
    """Why espeak-ng did not speak, from its exit code and standard error (None: it spoke)."""
    errors = [line.strip() for line in stderr.splitlines() if line.strip().lower().startswith("error")]
    if returncode == 0 and not errors:
        return None
    detail = errors[-1] if errors else (stderr.strip().splitlines() or [f"exit code {returncode}"])[-1]
    if any("pcm" in line.lower() for line in stderr.splitlines()):
        detail = f"no audio device ({detail})"
    return f"{ESPEAK}: {detail}"


@dataclass
class RecordingBackend:
    """The stand-in for the physical world's loudspeaker: keeps every text it was given to say, in order
    (``spoken``), and how many times it was cut. ``fail`` makes it fail as a board without audio does."""

    spoken: list[str] = field(default_factory=list)
    cuts: int = 0
    fail: str | None = None

    def speak(self, text: str, voice: VoiceSettings) -> None:
        if self.fail is not None:
            raise CannotSpeak(self.fail)
        if text:
            self.spoken.append(text)

    def cut(self) -> None:
        self.cuts += 1


class Speaker:
    """Says texts in order through ``backend``, one worker thread, never two at once (see the module).

    ``on_unavailable(reason)`` is called once, from the worker thread, when the backend cannot speak.
    """

    def __init__(self, backend: SpeechBackend, voice: VoiceSettings | None = None,
                 on_unavailable: Callable[[str], None] | None = None) -> None:
        self.backend = backend
        self.voice = voice or VoiceSettings()
        self.on_unavailable = on_unavailable
        self.unavailable: str | None = None
        """Why the board cannot speak, once it found out (from then on nothing is said)."""
        self._queue: deque[Utterance] = deque()
        self._speaking: Utterance | None = None
        self._cutting = False   # the one being said is being cut already
        self._cond = threading.Condition()
        self._closed = False
        self._thread: threading.Thread | None = None

    def start(self, probe: bool = True) -> None:
        """Begin speaking; ``probe`` first opens the audio output with nothing to say, so a board that cannot
        speak says so at once rather than at its first announcement."""
        if self._thread is not None:
            return
        if probe:
            self._queue.appendleft(Utterance(""))
        self._thread = threading.Thread(target=self._work, name="speaker", daemon=True)
        self._thread.start()

    def say(self, text: str, topic: str = "") -> None:
        """Queue ``text``; with a ``topic``, queued ones of that topic are dropped and one being said cut."""
        with self._cond:
            if self._closed or self.unavailable is not None:
                return
            if topic:
                self._queue = deque(u for u in self._queue if u.topic != topic)
                if self._speaking is not None and self._speaking.topic == topic and not self._cutting:
                    self._cutting = True
                    self.backend.cut()
            self._queue.append(Utterance(text, topic))
            self._cond.notify_all()

    def wait(self, timeout: float = 10.0) -> bool:
        """Wait until everything queued is said (True), or ``timeout`` seconds (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and self._speaking is None, timeout)

    def close(self) -> None:
        """Stop: what is being said is cut, what is queued dropped. Safe to call twice."""
        with self._cond:
            self._closed = True
            self._queue.clear()
            if self._speaking is not None:
                self.backend.cut()
            self._cond.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._closed)
                if self._closed:
                    return
                self._speaking = utterance = self._queue.popleft()
                self._cutting = False
            try:
                self.backend.speak(utterance.text, self.voice)
            except CannotSpeak as exc:
                self._give_up(str(exc))
            except Exception:   # a backend's own bug: logged, the next announcement tried
                log.exception("speaking %r failed", utterance.text)
            finally:
                with self._cond:
                    self._speaking = None
                    self._cond.notify_all()

    def _give_up(self, reason: str) -> None:
        with self._cond:
            if self.unavailable is not None:
                return
            self.unavailable = reason
            self._queue.clear()
        log.warning("the board cannot speak: %s", reason)
        if self.on_unavailable is not None:
            self.on_unavailable(reason)

    def __repr__(self) -> str:
        return f"Speaker({self.backend!r}, {self.voice}, unavailable={self.unavailable!r})"
