"""Issue 18 item 4 in real Chromium: the Statistics tab after a few games recorded by the board - its tables,
a CSV download, the results-over-time and rating-history plots drawn as SVG."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from playwright.sync_api import Page, Playwright
from test_library import LONG_NAMES
from web_harness import (
    arranged,
    beyond_viewport,
    broken_words,
    browser,
    line_counts,
    live_server,
    open_page,
    wait_plies,
)

from controller import commands as cmd
from controller.cli import main

RATED = "() => [...document.querySelectorAll('#messages li')].filter((li) => /Your english rating/" \
        ".test(li.textContent)).length === {}"


def resign_against_the_engine(page: Page, games: int) -> None:
    """The person (Black, who moves first in English) resigns at once; the rating is updated."""
    arranged(page)
    page.click("#btn-resign")
    page.click("#btn-resign-yes")
    page.wait_for_selector("#result[data-result]")
    page.wait_for_function(RATED.format(games))


def test_the_statistics_page_after_a_few_recorded_games(pw: Playwright, tmp_path: Path) -> None:
    with live_server(tmp_path, variant="english", opponent="engine", human_color="black", level=2,
                     settle_ms=0) as live, browser(pw) as context:
        page = open_page(context, live.url)
        resign_against_the_engine(page, 1)
        live.send(cmd.NewGame("english", "black", "engine", 3))
        page.wait_for_selector("#result", state="hidden")
        resign_against_the_engine(page, 2)
        live.send(cmd.NewGame("english", "both", "person", 3))
        page.wait_for_selector("#result", state="hidden")
        arranged(page)
        for text in ("11-15", "23-19", "8-11"):
            live.play(text)
        wait_plies(page, 3)
        live.send(cmd.OfferDraw("white"))
        live.send(cmd.AcceptDraw("black"))
        page.wait_for_selector("#result[data-result]")

        broken = tmp_path / "journal" / "games" / "broken.pdn"   # bad input: named, not fatal
        broken.write_bytes(b'[Event "x"]\n\xff')
        page.click("#tab-stats")
        page.wait_for_selector("#stats-variants td[data-col='variant']")
        assert page.text_content("#stats-problems li") == (
            "journal/games/broken.pdn: not UTF-8 text (byte 0xff at offset 12); its games are left out")
        row = {td.get_attribute("data-col"): td.text_content()
               for td in page.query_selector_all("#stats-variants tbody tr td")}
        assert (row["variant"], row["games"], row["white_wins"], row["black_wins"], row["draws"]) == (
            "english", "3", "2", "0", "1")
        assert (row["white_pct"], row["draw_pct"], row["average_moves"]) == ("66.7", "33.3", "0.5")
        levels = [[td.text_content() for td in tr.query_selector_all("td")]
                  for tr in page.query_selector_all("#stats-levels tbody tr")]
        assert levels == [["2", "1", "0", "0", "1", "0.0"], ["3", "1", "0", "0", "1", "0.0"]]
        assert page.text_content("#stats-openings td[data-col='opening']") == "11-15 23-19 8-11"

        results = page.locator("figure.results[data-player='player']")   # the profile, as in its ratings
        assert results.locator("circle.dot.loss").count() == 2
        assert page.locator("figure.results").count() == 1   # the people's, not the engine levels'
        ratings = page.locator("figure.ratings[data-variant='english']")
        assert ratings.locator("g.series[data-player='player'] circle.dot").count() == 2
        points = ratings.locator("g.series polyline").get_attribute("points").split()
        assert len(points) == 2 and float(points[1].split(",")[1]) > float(points[0].split(",")[1])  # it fell

        with page.expect_download() as download:
            page.click("#stats-players a.download")
        assert download.value.suggested_filename == "dboard-players.csv"
        rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text(encoding="utf-8"))))
        person = next(r for r in rows if (r["player"], r["variant"]) == ("player", "all"))
        assert (person["games"], person["losses"], person["score_pct"]) == ("2", "2", "0.0")
        base = live.url.split("?")[0].rstrip("/")
        missing = page.request.get(f"{base}/api/stats/moves.csv")
        assert missing.status == 404 and missing.text().startswith("no statistics table 'moves'")
        unknown = page.request.get(f"{base}/api/rules/checkerz")
        assert unknown.status == 404 and "checkerz" in unknown.json()["error"]


CSP_WATCH = """() => { window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(
        `${e.violatedDirective}: ${e.sourceFile}:${e.lineNumber}`)); }"""


def test_item16_the_statistics_page_breaks_no_rule_of_its_own_csp(pw: Playwright, tmp_path: Path) -> None:
    """Issue 28 item 16: the rating plot's legend is colored by a class, not by an inline style (CSP)."""
    with live_server(tmp_path, variant="english", opponent="engine", human_color="black", level=2,
                     settle_ms=0) as live, browser(pw) as context:
        errors: list[str] = []
        page = context.pages[0] if context.pages else context.new_page()
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.add_init_script(f"({CSP_WATCH})()")
        page = open_page(context, live.url)
        resign_against_the_engine(page, 1)
        page.click("#tab-stats")
        legend = page.locator("figure.ratings[data-variant='english'] .legend[data-player='player']")
        legend.wait_for()
        line = page.locator("figure.ratings g.series[data-player='player'] polyline")
        stroke = line.evaluate("(e) => getComputedStyle(e).stroke")
        assert legend.evaluate("(e) => getComputedStyle(e).color") == stroke == "rgb(111, 177, 255)"
        loss = page.locator("figure.results circle.dot.loss")
        assert loss.evaluate("(e) => getComputedStyle(e).fill") == "rgb(224, 92, 92)"
        assert page.evaluate("() => window.cspViolations") == []
        assert errors == []


LIBRARY = LONG_NAMES + """
[Event "Blitz"]
[Date "2026.11.28"]
[White "Bob"]
[Black "Cid"]
[Result "1/2-1/2"]
[Variant "spanish"]

1. c3-d4 f6-e5 2. d4xf6 g7xe5 1/2-1/2
"""


def test_item17_the_statistics_tables_fit_a_phone(pw: Playwright, tmp_path: Path) -> None:
    """Issue 28 item 17: at 390 px the tables were cut off at the right; now each scrolls inside its panel,
    its headers on one line and no word or move broken."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "club.pdn").write_text(LIBRARY, encoding="utf-8")
    with live_server(tmp_path, opponent="person") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.set_viewport_size({"width": 390, "height": 844})
        page.click("#tab-stats")
        for table in ("variants", "players", "levels", "openings"):
            page.wait_for_selector(f"#stats-{table} td")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert beyond_viewport(page, "#stats", 390) == []
        heads = line_counts(page, "#stats-body th")
        assert len(heads) == 9 + 8 + 6 + 6 and set(heads) == {1}
        assert broken_words(page, "#stats-body td") == []
        assert set(line_counts(page, "#stats-openings td[data-col='opening']")) == {1}
        scroller = page.locator("#stats-variants .table-scroll")
        assert scroller.evaluate("(e) => e.scrollWidth > e.clientWidth")   # wider than a phone: it scrolls
        scroller.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
        last = page.locator("#stats-variants th[data-col='average_moves']").bounding_box()
        assert last is not None and last["x"] + last["width"] <= 390   # the last column is reached


BLACK_WINS_AND_ONE_UNFINISHED = """[Event "Club"]
[Date "2026.11.03"]
[White "Ann"]
[Black "Bob"]
[Result "0-1"]
[GameType "20"]

1. 31-27 19-23 2. 27-22 0-1

[Event "Club"]
[Date "2026.11.04"]
[White "Ann"]
[Black "Bob"]
[Result "*"]
[GameType "20"]

1. 32-28 *
"""


def cli_rows(capsys: pytest.CaptureFixture[str], data_dir: Path, title: str) -> list[dict[str, str]]:
    """The rows of one table of `dboard stats` as it prints them, by column name."""
    assert main(["stats", "--data-dir", str(data_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index(title) + 1
    end = lines.index("", start)
    keys = lines[start].split()
    return [dict(zip(keys, line.split(), strict=True)) for line in lines[start + 1:end]]


def test_item9_percentages_are_of_the_finished_games_as_dboard_stats_says(
        pw: Playwright, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 28 item 9: "Games 2, Black won 1, 100%" - the page says which games the percentages count."""
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "club.pdn").write_text(BLACK_WINS_AND_ONE_UNFINISHED, encoding="utf-8")
    [cli] = cli_rows(capsys, tmp_path, "By variant")
    assert (cli["games"], cli["finished"], cli["black_pct"]) == ("2", "1", "100.0")
    players = cli_rows(capsys, tmp_path, "By player")
    bob = next(r for r in players if (r["player"], r["variant"]) == ("Bob", "all"))
    with live_server(tmp_path, opponent="person") as live, browser(pw) as context:
        page = open_page(context, live.url)
        page.click("#tab-stats")
        page.wait_for_selector("#stats-variants td[data-col='games']")
        row = {td.get_attribute("data-col"): td.text_content()
               for td in page.query_selector_all("#stats-variants tbody tr td")}
        assert row["games"] == f"{cli['games']} ({cli['finished']} finished)" == "2 (1 finished)"
        for col in ("white_wins", "white_pct", "black_wins", "black_pct", "draws", "draw_pct",
                    "average_moves"):
            assert row[col] == cli[col], col
        player = page.locator("#stats-players tbody tr", has_text="Bob").first
        assert player.locator("td[data-col='games']").text_content() == "2 (1 finished)"
        assert player.locator("td[data-col='score_pct']").text_content() == bob["score_pct"] == "100.0"
        assert "finished" in page.get_attribute("#stats-variants th[data-col='black_pct']", "title")
