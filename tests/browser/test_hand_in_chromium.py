"""The whole hand in view on a phone, in real headless Chromium: a 13-card hand at 320 and 360 px shows
every card inside the screen, none scrolled away sideways, each a target of at least 40x56 px (UX.md),
with the table still in view above a tray of about a quarter of the screen.

Screenshots go to artifacts/hand-*.png for a person to look at.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, CHROMIUM, served
from tests.browser.test_play_in_chromium import Table
from tests.webapp.conftest import FrozenClock, make_app, store, variant

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (make test installs it)"
)

THIRTEEN = "3D 4D 5D 6H 7H 8H 9H AS"
"""Decoys that make the known puzzle's hand 13 cards, a Master day's most."""
SCREENS = {320: 568, 360: 740}
"""The narrowest phones in use, at their heights (an iPhone SE's 320x568, a common Android's 360x740)."""
TRAY_SHARE = 0.28
"""Two rows of 56 px cards, a 44 px row of actions and the status line need 195 px (205 px when the
status takes two lines): a quarter of 740 px is 185. Two rows are the least that shows 13 cards of
40 px at 320 px, so the tray may take a little more than a quarter, and no more."""


@pytest.fixture
def thirteen_site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, variant(known_puzzle, THIRTEEN, "master", "cb9"), 7)
    with served(app) as url:
        yield url


def hand_boxes(page: object) -> list[dict[str, float]]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined, no-any-return]
        "#board .hand .card",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width,"
        " height: r.height}; })",
    )


@pytest.mark.parametrize("width", sorted(SCREENS))
def test_a_thirteen_card_hand_is_all_on_a_phone_screen(
    browser: object, thirteen_site: str, width: int
) -> None:
    height = SCREENS[width]
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": width, "height": height}, device_scale_factor=2, has_touch=True, timezone_id="UTC"
    )
    page = context.new_page()
    page.goto(thirteen_site + "/")
    Table(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"hand-{width}-start.png"))
    cards = hand_boxes(page)
    assert len(cards) == 13
    for card in cards:
        assert card["left"] >= 0 and card["right"] <= width, card
        assert card["top"] >= 0 and card["bottom"] <= height, card
        assert card["width"] >= 40 and card["height"] >= 56, card
    # nothing in the tray scrolls sideways: no card hides beyond the hand's edge
    scrolls = page.eval_on_selector_all(
        "#tray, #tray *",
        "els => els.filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1"
        " && (e.matches('#tray, .hand') || ['auto', 'scroll'].includes(getComputedStyle(e).overflowX)))"
        ".map(e => e.className)",
    )
    assert scrolls == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    tray = page.eval_on_selector("#tray", "e => e.getBoundingClientRect().toJSON()")
    assert tray["height"] <= TRAY_SHARE * 740, tray
    assert tray["bottom"] <= height  # sticky at the foot of the screen, or above it on a short page
    # the table's first meld is in view above the tray
    meld = page.eval_on_selector("#board .table .meld", "e => e.getBoundingClientRect().toJSON()")
    assert meld["top"] >= 0 and meld["bottom"] <= tray["top"], (meld, tray)

    # a tap on the last card lifts that card, not a neighbour: the targets do not overlap
    last = page.eval_on_selector("#board .hand .card:last-child", "e => e.dataset.card")
    page.click(f'#board .hand .card[data-card="{last}"]')
    assert page.get_attribute(f'#board .card[data-card="{last}"]', "class").split().count("lifted") == 1
    page.screenshot(path=str(ARTIFACTS / f"hand-{width}-lifted.png"))
    for one, other in itertools.pairwise(cards):
        apart = one["right"] <= other["left"] + 0.5 or one["bottom"] <= other["top"] + 0.5
        assert apart, (one, other)
    context.close()
