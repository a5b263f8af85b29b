"""The four-colour deck in real headless Chromium: chosen on the settings page through the gear in the
header, then drawn on the board, the hand, the help page and the analyser, light and dark, on a
desktop and a 360 px phone.

Screenshots go to artifacts/settings-*.png for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import ARTIFACTS, DEVICES
from webapp.templating import DECK_COOKIE, VERDICT_COOKIE

TWO_COLOURS = {
    "spades": "rgb(29, 29, 31)",
    "hearts": "rgb(192, 38, 45)",
    "diamonds": "rgb(192, 38, 45)",
    "clubs": "rgb(29, 29, 31)",
}
FOUR_COLOURS = {**TWO_COLOURS, "diamonds": "rgb(29, 78, 216)", "clubs": "rgb(21, 128, 61)"}
"""--diamonds #1d4ed8 and --clubs #15803d in tavolo.css; hearts and spades as before."""
ANALYSED = "/analyse?rules=classic&table=3S+4S+5S+/+7H+7D+7C&hand=6S+7S+KD+8C"


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"settings-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def suit_colours(page: object, scope: str) -> dict[str, set[str]]:
    """The computed colour of every card of each suit under `scope`, as the browser paints it."""
    found: dict[str, list[str]] = page.eval_on_selector_all(  # type: ignore[attr-defined]
        f"{scope} .card",
        """cards => {
          const colours = {};
          for (const card of cards) {
            const suit = ["spades", "hearts", "diamonds", "clubs"].find(s => card.classList.contains(s));
            if (suit) { (colours[suit] = colours[suit] || []).push(getComputedStyle(card).color); }
          }
          return colours;
        }""",
    )
    return {suit: set(colours) for suit, colours in found.items()}


def painted(colours: dict[str, str]) -> dict[str, set[str]]:
    return {suit: {colour} for suit, colour in colours.items()}


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("device", list(DEVICES))
def test_switch_to_four_colours_through_the_settings_page(
    browser: object, site: str, device: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme, **DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site + "/")
    assert suit_colours(page, "#board") == painted(TWO_COLOURS)

    page.click('.bar-links a[aria-label="Settings"]')
    page.wait_for_url(site + "/settings")
    assert page.is_checked("#deck-two")
    # each choice shows its own colours, whichever is saved
    assert suit_colours(page, ".deck-two") == painted(TWO_COLOURS)
    assert suit_colours(page, ".deck-four") == painted(FOUR_COLOURS)
    page.click(".deck-option.deck-four")  # anywhere in the box picks it
    assert page.is_checked("#deck-four")
    page.click(".settings-form .button.primary")
    page.wait_for_url(site + "/settings")
    assert page.inner_text(".flash").strip() == "Saved."
    assert page.is_checked("#deck-four")
    assert page.evaluate("document.documentElement.className") == "four-colour"
    shot(page, f"{device}-{scheme}-1-saved")

    [cookie] = [cookie for cookie in context.cookies() if cookie["name"] == DECK_COOKIE]
    assert cookie["value"] == "four" and cookie["httpOnly"] and cookie["sameSite"] == "Lax"
    assert cookie["expires"] > page.evaluate("Date.now() / 1000") + 364 * 86400

    page.goto(site + "/")
    assert suit_colours(page, "#board .table") == painted(FOUR_COLOURS)
    hand = suit_colours(page, "#board .hand")
    assert hand["diamonds"] == {FOUR_COLOURS["diamonds"]} and hand["clubs"] == {FOUR_COLOURS["clubs"]}
    shot(page, f"{device}-{scheme}-2-board")

    page.goto(site + "/help")
    assert suit_colours(page, ".help") == painted(FOUR_COLOURS)
    if device == "desktop":
        shot(page, f"{device}-{scheme}-3-help")

    page.goto(site + ANALYSED)
    page.wait_for_selector(".palette:not([hidden])")
    assert suit_colours(page, ".palette") == painted(FOUR_COLOURS)
    assert suit_colours(page, ".analysis")["diamonds"] == {FOUR_COLOURS["diamonds"]}
    shot(page, f"{device}-{scheme}-4-analyser")

    # and back to two colours
    page.goto(site + "/settings")
    page.click(".deck-option.deck-two")
    page.click(".settings-form .button.primary")
    page.wait_for_url(site + "/settings")
    page.goto(site + "/")
    assert page.evaluate("document.documentElement.className") == ""
    assert suit_colours(page, "#board") == painted(TWO_COLOURS)
    context.close()


def test_the_step_check_turned_off_hides_the_verdict_not_the_melds_marks(browser: object, site: str) -> None:
    context = browser.new_context(**DEVICES["phone"])  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site + "/settings")
    assert page.is_checked("#verdict")
    page.click("label[for=verdict]")
    page.click(".settings-form .button.primary")
    page.wait_for_url(site + "/settings")
    assert not page.is_checked("#verdict")
    [cookie] = [cookie for cookie in context.cookies() if cookie["name"] == VERDICT_COOKIE]
    assert cookie["value"] == "off" and cookie["httpOnly"]

    page.goto(site + "/")
    before = page.get_attribute("#board", "data-version")
    two = page.get_attribute('#board .card[aria-label^="2♦"]', "data-card")
    page.click(f'#board .card[data-card="{two}"]')
    page.click("#board .new-meld")
    page.wait_for_function("v => document.getElementById('board').dataset.version !== v", arg=before)
    track = page.inner_text("#track")
    assert "Step check off" in track and "dead end" not in track
    assert page.locator(".meld-incomplete").count() == 1  # the lone 2♦ is still marked
    shot(page, "phone-verdict-off")

    # on again: the same table says where it stands
    page.goto(site + "/settings")
    page.click("label[for=verdict]")
    page.click(".settings-form .button.primary")
    page.wait_for_url(site + "/settings")
    page.goto(site + "/")
    assert "dead end" in page.inner_text("#track")
    context.close()
