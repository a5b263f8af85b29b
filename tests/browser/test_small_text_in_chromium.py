"""No small print on a phone: walking the site's main pages at 360 px in headless Chromium, no visible
text is drawn under 12 px and no control a thumb taps is under 44 px high (UX.md), in every language.

The one exception is the joker's JOKER down its side: a card face's ornament (the card's name is its
star and its label), drawn as small as the card is narrow.

Screenshots go to artifacts/small-<lang>-<page>.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, CHROMIUM, served
from tests.browser.test_widths_in_chromium import LOCALES, small_targets
from tests.browser.test_widths_in_chromium import PAGES as WIDTH_PAGES
from tests.webapp.conftest import FrozenClock, make_app, store
from tests.webapp.training.runs import practice_pool

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (make test installs it)"
)

SMALLEST = 12.0
# the pages the widths test walks, and two it leaves to their own tests' widths
PAGES = {**WIDTH_PAGES, "review": "/review", "friends": "/friends"}


@pytest.fixture
def site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """Today's #7, and practice puzzles for a rush."""
    app: Flask = make_app(database_url, clock)
    store(app, known_puzzle, 7)
    practice_pool(app, known_puzzle)
    with served(app) as url:
        yield url


def small_text(page: object) -> list[str]:
    """Every visible piece of text drawn under 12 px: its words and size. Text in an SVG counts at the
    size it is drawn (its font size scaled by the picture)."""
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        """smallest => {
          const found = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const words = node.textContent.trim();
            const e = node.parentElement;
            const shown = e && e.checkVisibility({visibilityProperty: true, opacityProperty: true});
            if (!words || !shown) continue;
            if (e.closest('[hidden], script, style, noscript, .card.joker .corner')) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const r = range.getBoundingClientRect();
            if (r.width < 1 || r.height < 1) continue;  // clipped away: read by a screen reader only
            let size = parseFloat(getComputedStyle(e).fontSize);
            if (e.closest('svg') && e.getScreenCTM) size *= Math.abs(e.getScreenCTM().d);
            const name = (e.className || e.tagName) + ' "' + words.slice(0, 20) + '" ';
            if (size < smallest - 0.01) found.push(name + size.toFixed(1));
          }
          return found.slice(0, 8);
        }""",
        SMALLEST,
    )


@pytest.mark.parametrize("language", sorted(LOCALES))
def test_no_small_print_and_no_small_target_at_360(browser: object, site: str, language: str) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        locale=LOCALES[language],
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        has_touch=True,
        timezone_id="Europe/Rome",
    )
    page = context.new_page()
    found: dict[str, list[str]] = {}

    def check(name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"small-{language}-{name}.png"), full_page=True)
        problems = small_text(page) + small_targets(page)
        if problems:
            found[name] = problems

    page.goto(site + "/")
    check("play")
    page.click("#hint-button")
    page.wait_for_selector("#hint:not(:empty)")
    check("hint")
    page.click(".give-up summary")
    page.click(".give-up .danger")
    page.wait_for_selector("#result")
    check("result")
    for name, path in PAGES.items():
        page.goto(site + path)
        check(name)
    page.goto(site + "/rush")
    page.click("#run-start")
    page.wait_for_selector("#run-clock")
    check("rush-board")
    assert found == {}, "\n".join(f"{name}: {problems}" for name, problems in found.items())
    context.close()
