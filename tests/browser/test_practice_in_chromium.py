"""Practice's chooser in headless Chromium: the tier buttons follow the theme chosen (only the tiers the
pool holds it at can be pressed), another preset brings its own themes, and the page fits a 320 and a
360 px phone in each language and a desktop.

Screenshots go to artifacts/practice-*.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, CHROMIUM, accessibility_problems, served
from tests.browser.test_widths_in_chromium import LOCALES, too_wide
from tests.webapp.conftest import FrozenClock, make_app, store, variant
from webapp import models
from webapp.db import database

playwright_api = pytest.importorskip("playwright.sync_api")

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's chromium (make test installs it)"
)


@pytest.fixture
def site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """A ladder at Hard and a cycle at Expert, classic; nothing themed under the other presets."""
    app: Flask = make_app(database_url, clock)
    for decoy, tier, code, theme in (("5S 5H", "hard", "cl1", "ladder"), ("5S 5D", "expert", "cy1", "cycle")):
        row_id = store(app, variant(known_puzzle, decoy, tier, code, themes=(theme,)))
        with app.app_context(), database().write() as session:
            session.get_one(models.PoolPuzzle, row_id).practice = True
    with served(app) as url:
        yield url


def pressable(page: object) -> list[str]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined, no-any-return]
        "button[name=tier]", "buttons => buttons.filter(b => !b.disabled).map(b => b.value)"
    )


def test_the_tiers_follow_the_theme_and_each_preset_lists_its_own(browser: object, site: str) -> None:
    page = browser.new_context(viewport={"width": 360, "height": 740}, has_touch=True).new_page()  # type: ignore[attr-defined]
    page.goto(site + "/practice")
    assert pressable(page) == ["rating", "easy", "medium", "hard", "expert", "master"]
    page.select_option("#theme", "ladder")
    assert pressable(page) == ["rating", "hard"]
    page.select_option("#theme", "cycle")
    assert pressable(page) == ["rating", "expert"]
    page.click("button[name=tier][value=expert]")
    page.wait_for_selector("#board")
    assert "/practice/cy1" in page.url
    page.goto(site + "/practice")
    with page.expect_navigation():
        page.select_option("#rules", "jokers")
    assert "rules=jokers" in page.url
    themes = page.eval_on_selector_all("#theme option", "options => options.map(o => o.value)")
    assert themes == [""]  # no theme in the pool under jokers
    assert accessibility_problems(page) == []


@pytest.mark.parametrize("width", [320, 360, 1280])
@pytest.mark.parametrize("language", sorted(LOCALES))
def test_the_practice_page_fits_in_each_language(
    browser: object, site: str, language: str, width: int
) -> None:
    page = browser.new_context(  # type: ignore[attr-defined]
        locale=LOCALES[language], viewport={"width": width, "height": 800}, device_scale_factor=1
    ).new_page()
    page.goto(site + "/practice?theme=ladder")
    assert page.get_attribute("html", "lang") == language
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"practice-{language}-{width}.png"), full_page=True)
    assert too_wide(page, width) == []
