"""The rush and the streak run in real headless Chromium, on a 360x740 phone and a 1280x800 desktop,
light and dark, with axe-core on each screen: start, solve by taps (or the keyboard), slip, skip, and
the end the server's clock decides.

Screenshots go to artifacts/training-*.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, DEVICES, accessibility_problems, served
from tests.browser.test_languages_in_chromium import spills
from tests.browser.test_play_in_chromium import Table
from tests.browser.test_players_in_chromium import lay_out
from tests.webapp.conftest import FrozenClock, make_app
from tests.webapp.training.runs import practice_pool


@pytest.fixture
def served_app(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """Practice puzzles from Easy to Master, 200 rating points apart, and no daily puzzle."""
    app: Flask = make_app(database_url, clock)
    practice_pool(app, known_puzzle)
    with served(app) as url:
        yield url


def look(page: object, name: str, found: dict[str, list[str]]) -> None:
    """A screenshot for a person, and axe-core's serious and critical violations for the test."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"training-{name}.png"), full_page=True)  # type: ignore[attr-defined]
    problems = accessibility_problems(page)
    if problems:
        found[name] = problems
    width = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    viewport = page.viewport_size["width"]  # type: ignore[attr-defined]
    assert width <= viewport, f"{name}: {width} px wide in a {viewport} px window"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_rush_from_start_to_the_end_the_server_decides(
    browser: object,
    served_app: str,
    known_puzzle: generator.Puzzle,
    clock: FrozenClock,
    device: str,
    scheme: str,
) -> None:
    context = browser.new_context(color_scheme=scheme, timezone_id="UTC", **DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    found: dict[str, list[str]] = {}
    shots = f"rush-{device}-{scheme}"
    page.goto(served_app + "/practice")
    page.click("#to-rush")
    assert "Your best: 0" in page.inner_text("#run-best")
    look(page, f"{shots}-1-start", found)
    page.click("#run-start")
    page.wait_for_selector("#run-clock")
    # the server counted 180 s; the page counts down from them on its own steady clock
    assert page.get_attribute("#run-clock", "data-seconds") == "180"
    look(page, f"{shots}-2-board", found)

    table = Table(page)
    lay_out(table, known_puzzle)
    before = table.version()
    if device == "desktop":
        page.keyboard.press("e")  # the keyboard ends the turn
    else:
        page.click("#end-turn")
    table.wait_for_board(before)
    assert "1 solved" in page.inner_text("#run-score")
    assert "Solved!" in page.inner_text("#run-last")
    look(page, f"{shots}-3-next", found)

    # a slip costs 10 seconds: the server's count comes back with the board
    ids = dict((label.split(" ")[0], card) for card, label in table.cards())
    table.move(ids["2♦"], "new")
    assert "dead end" in table.track()
    assert int(str(page.get_attribute("#run-clock", "data-seconds"))) == 170

    # the server's clock runs out; the page's own clock cannot keep the run going
    clock.moment += timedelta(minutes=4)
    page.reload()
    page.wait_for_selector("#result")
    assert page.inner_text("#share-text") == "Tavolo Rush 1 · best 1"
    assert page.locator("#run-played li").count() == 2
    look(page, f"{shots}-4-end", found)
    assert found == {}
    assert errors == []
    context.close()


def test_the_page_asks_the_server_when_its_clock_reads_zero(
    browser: object, served_app: str, clock: FrozenClock
) -> None:
    context = browser.new_context(timezone_id="UTC", **DEVICES["phone"])  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(served_app + "/rush")
    page.click("#run-start")
    page.wait_for_selector("#run-clock")
    # two seconds left on the server's clock; the page counts them down and then asks
    clock.moment += timedelta(seconds=178)
    page.reload()
    assert page.get_attribute("#run-clock", "data-seconds") == "2"
    clock.moment += timedelta(seconds=10)
    page.wait_for_selector("#result", timeout=30_000)
    assert "Time's up!" in page.inner_text("#result h2")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_streak_run_skips_once_and_ends_at_the_first_miss(
    browser: object, served_app: str, known_puzzle: generator.Puzzle, device: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme, timezone_id="UTC", **DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    found: dict[str, list[str]] = {}
    shots = f"streak-{device}-{scheme}"
    page.goto(served_app + "/streak")
    look(page, f"{shots}-1-start", found)
    page.click("#run-start")
    page.wait_for_selector("#board.run-board")
    assert page.locator("#run-clock").count() == 0  # no clock
    table = Table(page)
    lay_out(table, known_puzzle)
    before = table.version()
    page.click("#end-turn")
    table.wait_for_board(before)
    before = table.version()
    page.click("#skip")
    table.wait_for_board(before)
    assert "Skipped" in page.inner_text("#run-last")
    assert "Give up" in page.inner_text("#skip")  # the one skip is spent
    look(page, f"{shots}-2-skipped", found)
    page.click("#skip")  # the give-up asks first
    look(page, f"{shots}-3-give-up", found)
    before = table.version()
    page.click("#give-up-run")
    table.wait_for_board(before)
    page.wait_for_selector("#result")
    assert page.inner_text("#share-text") == "Tavolo Streak 1 · best 1"
    look(page, f"{shots}-4-end", found)
    page.goto(served_app + "/stats")
    assert page.inner_text("#streak-run-best").strip() == "1"
    assert found == {}
    context.close()


RUN_WORDS = {
    "en": ("en-GB", "Time's up!"),
    "it": ("it-IT", "Tempo scaduto!"),
    "de": ("de-DE", "Die Zeit ist um!"),
    "pl": ("pl-PL", "Koniec czasu!"),
}
"""Each language's locale, and how its end screen begins."""


@pytest.mark.parametrize("language", sorted(RUN_WORDS))
def test_a_rush_fits_a_phone_in_each_language(
    browser: object, served_app: str, clock: FrozenClock, language: str
) -> None:
    locale, over = RUN_WORDS[language]
    context = browser.new_context(locale=locale, timezone_id="UTC", **DEVICES["phone"])  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(served_app + "/rush")
    assert page.get_attribute("html", "lang") == language
    page.click("#run-start")
    page.wait_for_selector("#run-clock")
    table = Table(page)
    before = table.version()
    page.click("#skip")
    table.wait_for_board(before)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"training-{language}-phone-board.png"), full_page=True)
    assert spills(page) == []
    clock.moment += timedelta(minutes=4)
    page.reload()
    page.wait_for_selector("#result")
    assert page.inner_text("#result h2") == over
    page.screenshot(path=str(ARTIFACTS / f"training-{language}-phone-end.png"), full_page=True)
    assert spills(page) == []
    context.close()
