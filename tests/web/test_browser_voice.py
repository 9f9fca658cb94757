"""Issue 31: the board's voice in the browser, on request: the page asks the board (espeak-ng, real) for a
WAV of what it announces, in the page's language; a text too long or not printable is refused."""

from __future__ import annotations

import io
import wave
from pathlib import Path

import httpx
from playwright.sync_api import Playwright
from web_harness import browser, by_hand, click_square, live_server, open_page, square

from web.speech import MAX_SPOKEN


def frames(wav: bytes) -> tuple[int, bytes]:
    with wave.open(io.BytesIO(wav)) as w:
        return w.getnframes(), w.readframes(w.getnframes())


def test_the_board_speaks_a_text_as_a_wav_in_the_language(tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live:
        short = httpx.get(f"{live.url}api/speech.wav", params={"text": "9-13", "lang": "nl"}, timeout=20)
        said = "Wit speelt 22-18, zwart 9-13 en wit 23-19"
        long = httpx.get(f"{live.url}api/speech.wav", params={"text": said, "lang": "nl"}, timeout=20)
        assert short.status_code == long.status_code == 200 and short.headers["content-type"] == "audio/wav"
        (n_short, pcm), (n_long, _) = frames(short.content), frames(long.content)
        assert n_long > n_short > 0 and any(pcm)
        for bad in ("x" * (MAX_SPOKEN + 1), "", "a\x00b"):
            refused = httpx.get(f"{live.url}api/speech.wav", params={"text": bad}, timeout=20)
            assert refused.status_code == 400 and "printable" in refused.text


def test_the_page_asks_for_the_voice_of_each_move_when_speak_is_on(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="person", human_color="both") as live, \
            browser(pw) as context:
        page = open_page(context, live.url)
        page.select_option("#language", "de")
        page.wait_for_selector("html[lang='de']")
        page.wait_for_selector("#board .sq")
        page.check("#speak")
        by_hand(page)
        with page.expect_response(lambda r: "/api/speech.wav" in r.url) as spoken:
            click_square(page, *square("english", "9"))
            click_square(page, *square("english", "13"))
            page.fill("#type-move-text", "9-13")
            page.keyboard.press("Enter")
        response = spoken.value
        assert response.status == 200 and "lang=de" in response.url and "9-13" in response.url
        page.reload()
        page.wait_for_selector("#board .sq")
        assert page.is_checked("#speak")   # remembered
