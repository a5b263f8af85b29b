"""The README's picture: today's puzzle on a 360 px phone, one card laid, taken with headless Chromium.

    .venv/bin/python scripts/daily-phone.py [docs/images/daily-phone.png]

The browser tests' fixtures serve the app (a throw-away SQLite database, frozen time, the tests' known
puzzle as today's #7); Debian's Chromium lays the hand's 8♣ on the club run, and the top of the page
is saved at two pixels to the point. Look at the picture before committing it.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import sync_playwright  # noqa: E402

import generator  # noqa: E402
from puzzles import Position  # noqa: E402
from tests.browser.conftest import ARGS, CHROMIUM, SEEN_TUTORIAL, served  # noqa: E402
from tests.webapp.conftest import KNOWN, NOON, FrozenClock, make_app, store  # noqa: E402

WIDTH, HEIGHT = 360, 636
"""The phone's width, and as much of the page as holds the table, the hand and the actions."""
FINISHED = """Promise.all(document.getAnimations()
    .filter(a => a.effect.getComputedTiming().iterations !== Infinity).map(a => a.finished))"""
"""The page's transitions played out: the card just laid has settled in its meld."""


def shoot(out: Path) -> None:
    puzzle = generator.puzzle_of("cz1", Position.parse(KNOWN), time_limit=20)
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(f"sqlite:///{folder}/tavolo.sqlite3", FrozenClock(NOON))
        store(app, puzzle, 7)
        with served(app) as url, sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
            phone = {"viewport": {"width": WIDTH, "height": 740}, "device_scale_factor": 2, "has_touch": True}
            context = chromium.new_context(**phone, locale="en-GB")
            context.add_init_script(SEEN_TUTORIAL)
            page = context.new_page()
            page.goto(url + "/")
            labels = "els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])"
            cards = page.eval_on_selector_all("#board .card[data-card]", labels)
            eight = next(card for card, label in cards if card.startswith("h") and label == "8♣")
            four = next(card for card, label in cards if card.startswith("t") and label == "4♣")
            before = page.get_attribute("#board", "data-version")
            page.click(f'#board .card[data-card="{eight}"]')
            page.click(f'#board .meld:has([data-card="{four}"]) .meld-state')
            page.wait_for_function("v => document.getElementById('board').dataset.version !== v", arg=before)
            page.evaluate(FINISHED)
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": WIDTH, "height": HEIGHT})
            chromium.close()


if __name__ == "__main__":
    shoot(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images" / "daily-phone.png")
