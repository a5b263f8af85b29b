"""The play screen's layout in headless Chromium, on a 360 px phone and a desktop, light and dark: the
table never moves during play, every action is a comfortable target, and the give-up confirmation
covers no card and can be taken back.

Screenshots go to artifacts/layout-*.png for a person to look at.
"""

from __future__ import annotations

import itertools

import pytest

from tests.browser.conftest import ARTIFACTS, ZONED_DEVICES
from tests.browser.test_play_in_chromium import Table


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"layout-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def table_top(page: object) -> float:
    return float(page.eval_on_selector("#board .table", "e => e.getBoundingClientRect().top + scrollY"))  # type: ignore[attr-defined]


def boxes(page: object, selector: str) -> list[list[float]]:
    return page.eval_on_selector_all(  # type: ignore[attr-defined, no-any-return]
        selector,
        "els => els.filter(e => e.offsetParent).map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })",
    )


def overlaps(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_the_table_stays_put_and_the_actions_fit(
    browser: object, site: str, device: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme, **ZONED_DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(site + "/")
    table = Table(page)
    width = ZONED_DEVICES[device]["viewport"]["width"]  # type: ignore[index]
    start = table_top(page)
    assert page.locator("#timed-start").count() == 1
    shot(page, f"{device}-{scheme}-1-start")

    # a card that belongs nowhere: the status turns to a dead end (two lines on a phone), the timed
    # turn's offer goes, and the table has not moved
    decoy = next(card_id for card_id, label in table.cards() if label.startswith("2♦"))
    table.move(decoy, "new")
    assert "dead end" in table.track()
    assert page.locator("#timed-start").count() == 0
    assert table_top(page) == start
    shot(page, f"{device}-{scheme}-2-dead-end")

    # every action at least 40 by 40, none touching another, all on one row
    actions = boxes(page, ".turn-actions > * > .button, .turn-actions > .give-up > summary")
    assert len(actions) == 5
    for left, top, right, bottom in actions:
        assert right - left >= 40 and bottom - top >= 40, actions
    assert len({round(top) for _, top, _, _ in actions}) == 1, actions
    for before, after in itertools.pairwise(sorted(actions)):
        assert after[0] - before[2] >= 6, actions
    if device == "phone":
        # Undo and Reset are icon circles, still named for a screen reader
        assert page.get_attribute("#undo", "aria-label") == "Undo"
        assert round(actions[0][2] - actions[0][0]) == 44

    # giving up asks first, says what it costs, covers no card, and can be taken back
    page.click(".give-up summary")
    assert "counts as not solved" in page.inner_text(".give-up-cost")
    assert page.inner_text(".give-up summary").strip() == "Keep playing"
    confirm = boxes(page, ".give-up")[0]
    assert confirm[0] >= 0 and confirm[2] <= width, confirm
    for card in boxes(page, "#board .card"):
        assert not overlaps(card, confirm), (card, confirm)
    danger = boxes(page, ".give-up .danger")[0]
    assert danger[2] - danger[0] >= 40 and danger[3] - danger[1] >= 40
    assert table_top(page) == start
    shot(page, f"{device}-{scheme}-3-give-up")
    page.click(".give-up summary")
    assert page.get_attribute(".give-up", "open") is None
    assert page.inner_text(".give-up summary").split() == ["🏳", "Give", "up"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # the header's icons are 40 px targets, 44 px high on a phone, on the name's row
    icons = boxes(page, ".bar .icon-link")
    brand = boxes(page, ".bar .brand")[0]
    assert len(icons) == 6
    for left, top, right, bottom in icons:
        assert round(right - left) >= 40, icons
        assert round(bottom - top) == (44 if device == "phone" else 40), icons
        assert top < brand[3] and bottom > brand[1], (icons, brand)
    # in the dark, the glyphs on the light status colours are dark
    glyph = page.eval_on_selector(".meld-state", "e => getComputedStyle(e).color")
    assert glyph == ("rgb(17, 17, 17)" if scheme == "dark" else "rgb(255, 255, 255)")

    before = table.version()
    page.click(".give-up summary")
    page.click(".give-up .danger")
    table.wait_for_board(before)
    # the table is back as it was: not drawn again, the solution's steps and final table instead
    assert page.locator(".your-table").count() == 0
    assert page.locator(".result .final-table").count() == 1
    shot(page, f"{device}-{scheme}-4-gave-up")
    for path, name in (("/stats", "5-stats"), ("/archive", "6-archive"), ("/nowhere", "7-not-found")):
        page.goto(site + path)
        shot(page, f"{device}-{scheme}-{name}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert "was not found on Tavolo" in page.inner_text("main")
    assert [error for error in errors if "404" not in error] == []
    context.close()
