"""The table uses a desktop's width: at 1280 px (and 1024) in headless Chromium a long run lies on one
row of cards, never wrapped into two or three rows of a narrow column while the table has room
(issue 40, item 13).

Screenshots go to artifacts/desktop-*.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, CHROMIUM, served
from tests.webapp.conftest import FrozenClock, make_app, store

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (make test installs it)"
)

LONG_RUNS = (
    ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"),
    ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"),
    ("3D", "4D", "5D", "6D", "7D", "8D"),
)
"""Runs of 8, 13 and 6 cards beside the known puzzle's melds: only the start is drawn, so the puzzle's
own solution stays as it was."""


@pytest.fixture
def long_site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    puzzle = replace(known_puzzle, id="cl1", table=(*known_puzzle.table, *LONG_RUNS))
    store(app, puzzle, 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("width", [1024, 1280])
def test_a_long_run_lies_on_one_row_on_a_desktop(browser: object, long_site: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900}, timezone_id="UTC")  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(long_site + "/")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"desktop-{width}-long-runs.png"), full_page=True)
    rows = page.eval_on_selector_all(
        "#board .table .meld:not(.new-meld)",
        """els => els.map(e => {
          const tops = [...e.querySelectorAll('.card')].map(c => Math.round(c.getBoundingClientRect().top));
          return [tops.length, new Set(tops).size];
        })""",
    )
    assert len(rows) == 4 + len(LONG_RUNS)
    assert all(lines == 1 for _, lines in rows), rows
    assert sorted(count for count, _ in rows)[-1] == 13
    table = page.eval_on_selector("#board .table", "e => e.getBoundingClientRect().toJSON()")
    # at 1280 the page is 1120 px wide (920 below 1200 px), and the table takes all of it
    assert table["width"] >= (1100 if width >= 1200 else 900) - 1, table
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
