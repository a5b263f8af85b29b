"""A hint never hides a card, in real headless Chromium: on a Master whose table runs well below a
phone's screen (`c9m1vndi4v`, thirteen melds), each rung's words are in view with the card or meld
they point at, and no card of the table or the hand lies under them, wherever the page is scrolled:
as the hint leaves it, at its top and at its foot. At 360 px in all four languages, at 320 px in the
longest two (German, Polish), and on a desktop.

The table scrolls under the tray, the board's sticky foot (hand and actions), by design: what lies
under the tray is out of view, as what lies above the screen is, so a table card counts by its part
above the tray. Screenshots go to artifacts/hint-<language>-<width>-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE, served
from tests.browser.test_play_in_chromium import Table
from tests.webapp.conftest import FrozenClock, make_app, store

LOCALES = {"en": "en-GB", "it": "it-IT", "de": "de-DE", "pl": "pl-PL"}

UNDER_THE_HINT = """() => {
  const box = e => e.getBoundingClientRect();
  const hint = box(document.getElementById('hint'));
  const tray = box(document.getElementById('tray'));
  const hidden = [];
  for (const card of document.querySelectorAll('#board .table .card, #board .hand .card')) {
    const r = box(card);
    // a table card's part under the tray is out of view; a hand card is in the tray
    const bottom = card.closest('.hand') ? r.bottom : Math.min(r.bottom, tray.top);
    if (r.top < bottom && r.left < hint.right && hint.left < r.right && r.top < hint.bottom
        && hint.top < bottom) {
      hidden.push(card.getAttribute('aria-label'));
    }
  }
  const marked = document.querySelector('#board .table .hinted-meld, #board .table .card.hinted');
  const target = marked ? box(marked) : null;
  return {
    hidden: hidden,
    hint: [hint.top, hint.bottom],
    tray: [tray.top, tray.bottom],
    height: innerHeight,
    target: target && [target.top, target.bottom],
  };
}"""
"""The cards whose shown part lies under the hint, the hint's and the tray's extent, the screen's
height, and the extent of the card or meld the hint marks."""


@pytest.fixture
def long_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    """The Master of a weak and a real fork (tests/generator/test_weak_forks.py) as today's puzzle:
    thirteen melds, eleven hand cards; its first hint marks J♠, a table card in the fourth meld."""
    from generator._make import judged
    from tests.generator.test_weak_forks import TWO_OF_SPADES, accepted

    app: Flask = make_app(database_url, clock)
    puzzle = judged(accepted(*TWO_OF_SPADES)).puzzle
    assert puzzle is not None
    store(app, puzzle, 7)
    with served(app) as url:
        yield url


def looked_at(page: Any) -> dict[str, Any]:
    return page.evaluate(UNDER_THE_HINT)  # type: ignore[no-any-return]


SUBPIXEL = 1
"""Scroll positions are whole pixels and boxes are not: "in view" allows less than a pixel."""


def assert_nothing_hidden(page: Any, where: str) -> None:
    seen = looked_at(page)
    assert seen["hidden"] == [], (where, seen)
    top, bottom = seen["hint"]
    assert top > -SUBPIXEL and bottom < seen["height"] + SUBPIXEL, ("the words in view", where, seen)


@pytest.mark.parametrize(
    ("language", "width"),
    [
        ("en", 360),
        ("it", 360),
        ("de", 360),
        ("pl", 360),
        ("de", 320),
        ("pl", 320),
        ("en", 1280),
        ("de", 1280),
    ],
)
def test_a_hint_hides_no_card_of_the_table_or_the_hand(
    browser: object, long_site: str, language: str, width: int
) -> None:
    screen = DESKTOP if width > 480 else {**PHONE, "viewport": {"width": width, "height": 740}}
    context = browser.new_context(locale=LOCALES[language], **screen)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(long_site + "/")
    table = Table(page)
    ARTIFACTS.mkdir(exist_ok=True)
    shots = f"hint-{language}-{width}"
    for rung in (1, 2):
        before = table.version()
        page.click("#hint-button")
        table.wait_for_board(before)
        page.wait_for_selector("#hint")
        page.screenshot(path=str(ARTIFACTS / f"{shots}-{rung}-hint.png"))
        page.screenshot(path=str(ARTIFACTS / f"{shots}-{rung}-hint-page.png"), full_page=True)
        # as the hint leaves the page: its words and what they point at both in view, clear of each
        # other and of the tray's cards
        seen = looked_at(page)
        assert seen["target"] is not None, seen
        target_top, target_bottom = seen["target"]
        assert target_top > -SUBPIXEL and target_bottom < seen["tray"][0] + SUBPIXEL, ("mark in view", seen)
        assert_nothing_hidden(page, f"hint {rung} as it lands")
        for y, where in ((0, "top"), (10_000, "foot")):
            page.evaluate(f"window.scrollTo(0, {y})")
            assert_nothing_hidden(page, f"hint {rung} at the page's {where}")
        page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
