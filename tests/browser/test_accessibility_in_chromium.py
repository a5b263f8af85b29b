"""axe-core (from npm, pinned in package.json) on every page of the site, on a 360x740 phone and a
1280x800 desktop, light and dark: no serious or critical violation.

Screenshots go to artifacts/axe-*.png for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, DEVICES, accessibility_problems
from tests.browser.test_play_in_chromium import Table

PAGES = {
    "today": "/",
    "stats": "/stats",
    "archive": "/archive",
    "practice": "/practice",
    "help": "/help",
    "settings": "/settings",
    "analyser": "/analyse?rules=classic&table=10S+10H+10D+/+JS+JH+JD+/+QH+QD+QC&hand=9S+QS+QD",
    "analyser-play": "/analyse/play?rules=classic&table=3S+4S+5S+/+7H+7D+7C&hand=6S+7S+KD",
    "not-found": "/nowhere",
}


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_every_page_passes_axe(browser: object, site: str, device: str) -> None:
    context = browser.new_context(color_scheme="light", timezone_id="UTC", **DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    ARTIFACTS.mkdir(exist_ok=True)
    found: dict[str, list[str]] = {}
    # a move first, so that the stats and the archive have something to show
    page.goto(site + "/")
    table = Table(page)
    card = page.get_attribute("#board .hand .card[data-card]", "data-card")
    table.move(str(card), "new")
    for name, path in PAGES.items():
        page.goto(site + path)
        page.wait_for_load_state("load")
        # light and dark on the one load: the schemes differ only in CSS media queries (no script
        # reads the scheme, no transition on a colour), so switching the emulated scheme restyles the
        # page as loading it in that scheme would, and saves loading every page twice
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches"), scheme
            page.screenshot(path=str(ARTIFACTS / f"axe-{device}-{scheme}-{name}.png"), full_page=True)
            problems = accessibility_problems(page)
            if problems:
                found[f"{name} ({scheme})"] = problems
    assert found == {}
    context.close()
