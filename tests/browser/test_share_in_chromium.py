"""The result's Share button in headless Chromium: where the browser has a share sheet
(`navigator.share`, stubbed here to record what it is given) it gets the spoiler-free text and the
puzzle's absolute link; where it has none, both are copied, on separate lines, and the button says so.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import ARTIFACTS, CHROMIUM

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (make test installs it)"
)

SHEET = """
window.__shared = [];
navigator.share = function (data) { window.__shared.push(data); return Promise.resolve(); };
"""
NO_SHEET = """
window.__copied = [];
delete Navigator.prototype.share;
delete navigator.share;
Object.defineProperty(navigator, 'clipboard', {
  value: { writeText: function (text) { window.__copied.push(text); return Promise.resolve(); } },
});
"""
TEXT = re.compile(r"^Tavolo #7 ⛓3 🏳️ 0/5 · 0 moves · 💡0$")


def give_up(page: object) -> None:
    page.click(".give-up summary")  # type: ignore[attr-defined]
    page.click(".give-up .danger")  # type: ignore[attr-defined]
    page.wait_for_selector("#result")  # type: ignore[attr-defined]


def test_a_phone_with_a_share_sheet_gets_the_text_and_the_link(browser: object, site: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True)  # type: ignore[attr-defined]
    context.add_init_script(SHEET)
    page = context.new_page()
    page.goto(site + "/")
    give_up(page)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator(".share").first.screenshot(path=str(ARTIFACTS / "share-phone.png"))
    page.click("button[data-share]")
    page.wait_for_function("window.__shared.length === 1")
    (shared,) = page.evaluate("window.__shared")
    assert TEXT.match(shared["text"]), shared
    assert shared["url"] == f"{site}/puzzles/7"
    assert page.inner_text("a#share-link") == f"{site}/puzzles/7"
    context.close()


def test_a_desktop_without_one_copies_the_text_and_the_link(browser: object, site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})  # type: ignore[attr-defined]
    context.add_init_script(NO_SHEET)
    page = context.new_page()
    page.goto(site + "/")
    give_up(page)
    assert page.evaluate("typeof navigator.share") == "undefined"
    page.click("button[data-share]")
    page.wait_for_function("window.__copied.length === 1")
    text, link = page.evaluate("window.__copied[0]").split("\n")
    assert TEXT.match(text) and link == f"{site}/puzzles/7"
    assert page.inner_text("button[data-share]") == "Copied"
    context.close()
