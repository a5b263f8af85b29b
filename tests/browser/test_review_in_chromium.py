"""Review in headless Chromium: a practice puzzle given up comes back the next day; the review page,
the review round's board and its result, on a 360 px phone and a desktop, light and dark, with
axe-core; and the review page at 320 and 360 px in each language, no wider than the phone.

Screenshots go to artifacts/review-*.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, DEVICES, accessibility_problems, served
from tests.browser.test_widths_in_chromium import LOCALES, too_wide
from tests.webapp.conftest import FrozenClock, make_app, store, variant
from webapp import models
from webapp.db import database

CODE = "cr5"


@pytest.fixture
def site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """Today's #7 and one practice puzzle, `CODE`."""
    app: Flask = make_app(database_url, clock)
    store(app, known_puzzle, 7)
    row_id = store(app, variant(known_puzzle, "2H", "hard", CODE))
    with app.app_context(), database().write() as session:
        session.get_one(models.PoolPuzzle, row_id).practice = True
    with served(app) as url:
        yield url


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"review-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def give_up(page: object) -> None:
    page.click(".give-up summary")  # type: ignore[attr-defined]
    page.click(".give-up .danger")  # type: ignore[attr-defined]
    page.wait_for_selector("#result")  # type: ignore[attr-defined]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_puzzle_back_for_review_passes_axe(
    browser: object, site: str, clock: FrozenClock, device: str, scheme: str
) -> None:
    page = browser.new_context(color_scheme=scheme, timezone_id="UTC", **DEVICES[device]).new_page()  # type: ignore[attr-defined]
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        page.wait_for_load_state("load")
        shot(page, f"{device}-{scheme}-{name}")
        problems = accessibility_problems(page)
        if problems:
            found[name] = problems

    page.goto(f"{site}/practice/{CODE}")
    give_up(page)
    page.goto(site + "/review")
    assert "Nothing waits" in str(page.text_content("#review-due"))
    check("later")
    clock.moment += timedelta(days=1)
    page.goto(site + "/review")
    check("due")
    page.click("#start-review")
    page.wait_for_selector("#board")
    assert page.url.endswith(f"/review/{CODE}")
    check("board")
    give_up(page)
    assert page.locator("#next-review").is_visible()
    check("result")
    page.goto(site + "/stats")
    assert "comes back later" in str(page.text_content("#review-waiting"))
    check("stats")
    assert found == {}


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("language", sorted(LOCALES))
def test_the_review_page_fits_the_phone_in_each_language(
    browser: object, site: str, clock: FrozenClock, language: str, width: int
) -> None:
    page = browser.new_context(  # type: ignore[attr-defined]
        locale=LOCALES[language],
        viewport={"width": width, "height": 740},
        device_scale_factor=2,
        has_touch=True,
    ).new_page()
    page.goto(f"{site}/practice/{CODE}")
    give_up(page)
    page.goto(site + "/")
    give_up(page)
    clock.moment += timedelta(days=1)
    for name, path in (("due", "/review"), ("board", f"/review/{CODE}")):
        page.goto(site + path)
        assert page.get_attribute("html", "lang") == language
        shot(page, f"{language}-{width}-{name}")
        assert too_wide(page, width) == [], name
    page.goto(site + "/review")
    # each entry names its puzzle (today's daily by its number, the practice one as practice), and
    # nothing in an entry runs into its neighbour ("Maestrossiche": the tier over the preset)
    entries = page.locator(".review-list li")
    assert entries.count() == 2
    assert "#7" in str(entries.nth(0).text_content()) or "#7" in str(entries.nth(1).text_content())
    assert overlapping(page) == []


def overlapping(page: object) -> list[str]:
    """The pairs of words in one review entry whose boxes overlap."""
    found: list[str] = page.evaluate(  # type: ignore[attr-defined]
        """() => {
          const found = [];
          for (const entry of document.querySelectorAll('.review-list li')) {
            const parts = [...entry.querySelectorAll('.number, .date, .chip, .mark')];
            parts.forEach((one, i) => parts.slice(i + 1).forEach(other => {
              // line by line: a date wrapped onto two lines has a box around both
              const hit = [...one.getClientRects()].some(a => [...other.getClientRects()].some(b =>
                a.left < b.right - 1 && b.left < a.right - 1
                && a.top < b.bottom - 1 && b.top < a.bottom - 1));
              if (hit) found.push(one.textContent.trim() + ' / ' + other.textContent.trim());
            }));
          }
          return found;
        }"""
    )
    return found
