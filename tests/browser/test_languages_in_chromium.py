"""The play page in Italian, German and Polish, on a 360 px phone and a 1280 px desktop: a move is
played and worded in the browser's language, nothing runs off the page or out of its button, and
no word lands on a card (German words are long).

Screenshots go to $TAVOLO_SHOTS (artifacts/ by default) as languages-<lang>-<device>-*.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.browser.conftest import ARTIFACTS, ZONED_DEVICES
from tests.browser.test_layout_in_chromium import boxes, overlaps
from tests.browser.test_play_in_chromium import Table

SHOTS = Path(os.environ.get("TAVOLO_SHOTS", ARTIFACTS))
WORDS = {
    "it": {"locale": "it-IT", "start": "Tocca una carta", "dead": "vicolo cieco", "end": "Fine turno",
           "welcome": "Benvenuto su Tavolo"},
    "de": {"locale": "de-DE", "start": "Tippe eine Karte an", "dead": "Sackgasse", "end": "Zug beenden",
           "welcome": "Willkommen bei Tavolo"},
    "pl": {"locale": "pl-PL", "start": "Dotknij karty", "dead": "ślepy zaułek", "end": "Zakończ turę",
           "welcome": "Witaj w Tavolo"},
}  # fmt: skip
"""What each language's page says: the tray before and after a stray card, the end button, the
first visit's walkthrough."""
TEXT = (
    ".bar a, .bar span, .goal-line, .track, .notice-text, .button, .chip, .hint-count, .result h2, .result p"
)
"""Everything on the play page that carries words."""


def shot(page: object, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"languages-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def spills(page: object) -> list[str]:
    """Words that run out of their box, or a page wider than the screen."""
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        """selector => {
          const found = [];
          const width = document.documentElement.scrollWidth;
          if (width > innerWidth) found.push('page ' + width);
          for (const e of document.querySelectorAll(selector)) {
            if (!e.checkVisibility()) continue;
            if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto')
              found.push(e.className + ': ' + e.textContent.trim().slice(0, 40));
            const r = e.getBoundingClientRect();
            if (r.right > innerWidth + 0.5 || r.left < -0.5)
              found.push('off screen: ' + e.textContent.trim().slice(0, 40));
          }
          return found;
        }""",
        TEXT,
    )


def words_on_cards(page: object) -> list[tuple[list[float], list[float]]]:
    cards = boxes(page, "#board .card")
    words = boxes(page, ".goal-line, .track, .notice-text, .actions .button, .actions summary, .give-up-cost")
    return [(word, card) for word in words for card in cards if overlaps(word, card)]


@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("language", sorted(WORDS))
def test_a_move_in_each_language_fits_the_screen(
    browser: object, site: str, language: str, device: str
) -> None:
    said = WORDS[language]
    context = browser.new_context(locale=said["locale"], **ZONED_DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(site + "/")
    assert page.get_attribute("html", "lang") == language
    table = Table(page)
    assert said["start"] in table.track()
    assert page.inner_text("#end-turn").strip() == said["end"]
    shot(page, f"{language}-{device}-1-start")
    assert spills(page) == [] and words_on_cards(page) == []

    # the move: a card that belongs nowhere, worded in the page's language
    decoy = next(card_id for card_id, label in table.cards() if label.startswith("2♦"))
    table.move(decoy, "new")
    assert said["dead"] in table.track()
    shot(page, f"{language}-{device}-2-moved")
    assert spills(page) == [] and words_on_cards(page) == []

    # the give-up question, the longest line of the tray, opens without covering a card
    page.click(".give-up summary")
    shot(page, f"{language}-{device}-3-give-up")
    assert spills(page) == [] and words_on_cards(page) == []
    page.click(".give-up .danger")
    page.wait_for_selector("#result")
    shot(page, f"{language}-{device}-4-result")
    assert spills(page) == []
    assert errors == []
    context.close()


@pytest.mark.parametrize("language", sorted(WORDS))
def test_the_first_visits_walkthrough_speaks_each_language(browser: object, site: str, language: str) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        first_visit=True, locale=WORDS[language]["locale"], **ZONED_DEVICES["phone"]
    )
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_selector("#tutorial[open]")
    assert WORDS[language]["welcome"] in page.inner_text("#tutorial")
    page.click("#tutorial-next")
    page.click(".tutorial-answer summary")
    shot(page, f"{language}-phone-tutorial")
    assert spills(page) == []
    # the move step names Undo and Reset as the board's buttons say them in this language
    page.click("#tutorial-next")
    named = page.locator("#tutorial .tutorial-step[data-step='3'] .button-name").all_inner_texts()
    labels = [page.inner_text(f"#{button} .button-label") for button in ("undo", "reset")]
    assert named == labels, (named, labels)
    shot(page, f"{language}-phone-tutorial-moves")
    context.close()
