"""A newcomer's first taps on a phone (320 and 360 px) and a desktop, in headless Chromium: on a Master
day an Easy warm-up is offered above today's puzzle, its result leads back to today's, and the other
games are one tap from today's page.

Screenshots go to artifacts/newcomer-*.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, CHROMIUM, served
from tests.webapp.conftest import FrozenClock, make_app, store, variant
from tests.webapp.training.runs import practice_pool

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (make test installs it)"
)

SCREENS = {"320": (320, 568), "360": (360, 740), "1280": (1280, 800)}


@pytest.fixture
def master_day(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, variant(known_puzzle, "2D 3D 4D", "master", "cw9"), 7)
    practice_pool(app, known_puzzle)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_newcomer_warms_up_then_comes_back_to_today(browser: object, master_day: str, screen: str) -> None:
    width, height = SCREENS[screen]
    context = browser.new_context(viewport={"width": width, "height": height}, timezone_id="UTC")  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(master_day + "/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"newcomer-{screen}-1-offer.png"))
    offer = page.eval_on_selector("#warm-up", "e => e.getBoundingClientRect().toJSON()")
    assert offer["top"] >= 0 and offer["bottom"] <= height, offer  # in view on arrival
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # the other games are one tap from today's page
    games = page.eval_on_selector_all(".more-games a", "els => els.map(e => e.dataset.game)")
    assert games == ["practice", "rush", "streak", "review", "friends"]
    page.click('.more-games a[data-game="rush"]')
    page.wait_for_selector("#run-start")
    page.go_back()

    page.click("#warm-up-easy")
    page.wait_for_selector("#board")
    assert "Easy" in page.inner_text(".bar-puzzle")
    page.click(".give-up summary")
    page.click(".give-up .danger")
    page.wait_for_selector("#result")
    page.screenshot(path=str(ARTIFACTS / f"newcomer-{screen}-2-warm-up-result.png"), full_page=True)
    page.click('#result .more-games a[data-game="today"]')
    page.wait_for_selector("#board")
    assert page.locator("#warm-up").count() == 0  # no newcomer any more: one puzzle finished
    assert errors == []
    context.close()
