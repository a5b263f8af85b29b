"""The analyser in real headless Chromium: type a position (keys and palette taps), read the answer,
see a typing mistake marked, then play the position with step checks. Desktop and a 360 px phone.

Screenshots go to artifacts/analyser-*.png for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from flask import Flask

from tests.browser.conftest import ARTIFACTS, served
from tests.browser.test_play_in_chromium import Table
from tests.webapp.conftest import FrozenClock, make_app


@pytest.fixture
def site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    with served(app) as url:
        yield url


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    # caret="initial": hiding the caret would inject a style element, which the CSP rightly refuses
    page.screenshot(  # type: ignore[attr-defined]
        path=str(ARTIFACTS / f"analyser-{name}.png"), full_page=True, caret="initial"
    )


def analyse(page: object) -> None:
    """Submit the form and wait until the answer is swapped in and the palette is back."""
    before = page.query_selector("#analyser")  # type: ignore[attr-defined]
    page.click(".analyse-button")  # type: ignore[attr-defined]
    page.wait_for_function("old => !old.isConnected", arg=before)  # type: ignore[attr-defined]
    page.wait_for_selector("#analyser [data-palette]:not([hidden])")  # type: ignore[attr-defined]


def type_and_read(page: object, base: str, device: str) -> None:
    """The worked example of the lonely Q♣: the table typed, the hand tapped on the palette."""
    page.goto(base + "/analyse")  # type: ignore[attr-defined]
    page.wait_for_selector("[data-palette]:not([hidden])")  # type: ignore[attr-defined]
    page.fill("#table", "10h 10d 10s / jh jd js / qh qd qc")  # type: ignore[attr-defined]
    page.click('.palette-target[data-target="hand"]')  # type: ignore[attr-defined]
    # the palette writes symbols, which read as one card whatever the page's letters
    for token in ("9♠", "Q♦", "Q♠"):
        page.click(f'[data-palette] [data-token="{token}"]')  # type: ignore[attr-defined]
    assert page.input_value("#hand") == "9♠ Q♦ Q♠"  # type: ignore[attr-defined]
    # both Q♦ of two decks are now typed: the palette says none is left
    assert page.is_disabled('[data-palette] [data-token="Q♦"]')  # type: ignore[attr-defined]
    shot(page, f"{device}-1-typed")

    analyse(page)
    page.wait_for_selector("#analysis")  # type: ignore[attr-defined]
    assert page.inner_text("#max-placed") == "3"  # type: ignore[attr-defined]
    answer = str(page.inner_text("#analysis"))  # type: ignore[attr-defined]
    assert "Proven" in answer
    assert "melds 1, 2 and 3 must break" in answer
    assert page.locator(".steps .step").count() >= 4  # type: ignore[attr-defined]
    assert page.locator(".final-table .meld").count() == 4  # type: ignore[attr-defined]
    assert "table=10♠+10♥+10♦+/+J♠+J♥+J♦+/+Q♥+Q♦+Q♣&hand=9♠+Q♠+Q♦" in unquote(page.url)  # type: ignore[attr-defined]
    # the chain length follows on its own, into its cell
    page.wait_for_selector("#chain-length:not(.chain-pending)")  # type: ignore[attr-defined]
    assert "the most melds one rearrangement must break at once" in page.inner_text("#chain-length")  # type: ignore[attr-defined]
    shot(page, f"{device}-2-answer")

    # a typing mistake is marked, naming the token, and what was typed stays
    page.fill("#hand", "9S QD QX")  # type: ignore[attr-defined]
    analyse(page)
    page.wait_for_selector("#hand-problems li")  # type: ignore[attr-defined]
    assert "'QX' is not a card" in page.inner_text("#hand-problems")  # type: ignore[attr-defined]
    assert page.input_value("#hand") == "9S QD QX"  # type: ignore[attr-defined]
    # the last answer stays, marked as the earlier one, and the problem is in view, its field focused
    assert page.locator("#analysis.earlier").count() == 1  # type: ignore[attr-defined]
    assert page.inner_text("#analysis.earlier #max-placed") == "3"  # type: ignore[attr-defined]
    assert page.evaluate(  # type: ignore[attr-defined]
        """() => { const r = document.querySelector('#hand-problems li').getBoundingClientRect();
                   return r.top >= 0 && r.bottom <= innerHeight; }"""
    )
    assert page.evaluate("document.activeElement.id") == "hand"  # type: ignore[attr-defined]
    shot(page, f"{device}-3-mistake")


def play_it(page: object, base: str, device: str) -> None:
    """An easy position played from the analyser: a wrong card first, undone, then the two right ones."""
    page.goto(base + "/analyse?rules=classic&table=3S+4S+5S+/+7H+7D+7C&hand=6S+7S+KD")  # type: ignore[attr-defined]
    page.click("#play-link")  # type: ignore[attr-defined]
    page.wait_for_selector("#board")  # type: ignore[attr-defined]
    table = Table(page)
    assert "on track" in table.track()
    table.move("h2", "new")  # K♦ alone on a new meld: no valid table holds it
    assert "dead end" in table.track()
    shot(page, f"{device}-4-dead-end")
    before = table.version()
    page.keyboard.press("u")  # type: ignore[attr-defined]
    page.wait_for_function(  # type: ignore[attr-defined]
        "v => document.getElementById('board').dataset.version !== v", arg=before
    )
    assert "on track" in table.track()
    table.move("h0", "t0")
    table.move("h1", "t3")
    assert "on track" in table.track()
    shot(page, f"{device}-5-laid-out")
    page.click("#end-turn")  # type: ignore[attr-defined]
    page.wait_for_selector("#result")  # type: ignore[attr-defined]
    assert "Solved! You placed 2" in page.inner_text("#result")  # type: ignore[attr-defined]
    assert "moves=h0-0.h1-1" in page.url  # type: ignore[attr-defined]
    shot(page, f"{device}-6-solved")


def test_the_analyser_on_a_desktop(browser: object, site: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    type_and_read(page, site, "desktop")
    play_it(page, site, "desktop")
    # the 422 of the typing mistake is the only error the console may show
    assert [error for error in errors if "422" not in error] == [], (
        errors
    )  # no CSP violation, no script error
    context.close()


def test_the_analyser_on_a_360_pixel_phone(browser: object, site: str) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True
    )
    page = context.new_page()
    type_and_read(page, site, "phone")
    page.fill("#hand", "9S QD QS")
    analyse(page)
    # nothing wider than the screen, and every palette card a tappable size
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    sizes = page.eval_on_selector_all(
        "[data-palette] .card",
        "els => els.filter(e => e.offsetParent)"
        ".map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })",
    )
    assert sizes and min(w for w, _ in sizes) >= 40 and min(h for _, h in sizes) >= 56
    play_it(page, site, "phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_every_joker_keeps_its_word_within_its_card_on_a_phone(browser: object, site: str) -> None:
    """JOKER runs down a joker's side: on the analyser's smaller cards (the palette, the facts, the
    steps, the final table) the larger corner type of those cards ran it 32-34 px out of the card."""
    context = browser.new_context(viewport={"width": 360, "height": 740})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{site}/analyse?rules=jokers&table=JK+4H+5H+6H+7H+/+8S+7S+6S+/+JK+2H+3H&hand=4S+9H")
    page.wait_for_selector("section.analysis .final-table")
    overruns = page.eval_on_selector_all(
        ".card.joker .corner",
        "els => els.filter(e => e.offsetParent).map(e => {"
        " const card = e.closest('.card').getBoundingClientRect(), r = e.getBoundingClientRect();"
        " return [e.closest('[class]:not(.card):not(.corner)').className, r.bottom - card.bottom]; })",
    )
    places = {place for place, _ in overruns}
    assert {"palette-row palette-joker", "meld-cards"} <= places, places
    assert [(place, over) for place, over in overruns if over > 0] == []
    shot(page, "jokers-phone")
    context.close()


def test_a_freed_joker_goes_back_to_the_hand_under_german_jokers(browser: object, site: str) -> None:
    """Lay both missing sixes on the joker's set, tap the joker, tap the hand: the set is whole, the
    joker is in the hand, and it cancels one card placed, as RULES.md has it."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{site}/analyse/play?rules=german-jokers&table=6H+6S+JK&hand=6D+6C")  # type: ignore[attr-defined]
    table = Table(page)
    table.move("h0", "t0")
    table.move("h1", "t0")
    assert "meld-invalid" in str(page.get_attribute("#board .meld", "class"))  # type: ignore[attr-defined]
    table.move("t2", "hand")
    assert [card for card, _ in table.cards() if card == "t2"] == ["t2"]
    in_hand = page.eval_on_selector_all(  # type: ignore[attr-defined]
        "#board .hand .card", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert in_hand == ["joker"]
    assert "meld-valid" in str(page.get_attribute("#board .meld", "class"))  # type: ignore[attr-defined]
    shot(page, "german-jokers-joker-taken")
    page.click("#end-turn")  # type: ignore[attr-defined]
    page.wait_for_selector("#result")  # type: ignore[attr-defined]
    assert "Solved! You placed 1" in page.inner_text("#result")  # type: ignore[attr-defined]
    context.close()


TWO_CUTS = "/analyse?rules=classic&table=3C+4C+5C+6C+7C+8C+9C+%2F+3H+4H+5H+6H+7H+8H+9H&hand=6S+6S+6D+6D"
"""Two long runs, each cut to free its middle card: depth 2, chain length 1, which the page asks for."""
CHAIN_WORDS = {
    "en": ("en-GB", "1: the most melds one rearrangement must break at once", "Work out the chain length"),
    "it": (
        "it-IT",
        "1: il massimo di combinazioni che un solo riordino deve rompere",
        "Calcola la lunghezza",
    ),
    "de": ("de-DE", "1: die meisten Kombinationen, die ein Umbau auf einmal", "Kettenlänge berechnen"),
    "pl": ("pl-PL", "1: najwięcej układów, które jedno przełożenie musi rozbić", "Oblicz długość łańcucha"),
}
"""Each language's locale, its chain length of 1, and the link a browser without JavaScript follows."""


@pytest.mark.parametrize("language", sorted(CHAIN_WORDS))
def test_the_chain_length_appears_after_the_answer_on_a_phone(
    browser: object, site: str, language: str
) -> None:
    locale, chain, _ = CHAIN_WORDS[language]
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740}, device_scale_factor=2, has_touch=True, locale=locale
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(site + TWO_CUTS)
    page.wait_for_selector("#analysis")
    page.wait_for_selector("#chain-length:not(.chain-pending)")
    assert chain in page.inner_text("#chain-length")
    assert page.locator("#chain-length a").count() == 0
    shot(page, f"phone-chain-{language}")
    # the answer's facts alone, where the chain length's cell is, for a person to read
    page.locator("#analysis .facts").screenshot(
        path=str(ARTIFACTS / f"analyser-phone-chain-{language}-facts.png")
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []  # no CSP violation, no script error
    context.close()


def test_without_javascript_the_chain_length_is_one_link_away(browser: object, site: str) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740}, java_script_enabled=False, locale="de-DE"
    )
    page = context.new_page()
    page.goto(site + TWO_CUTS)
    _, chain, link = CHAIN_WORDS["de"]
    assert page.locator("#chain-length.chain-pending").count() == 1
    assert not page.is_visible("#chain-length .chain-working")
    shot(page, "phone-chain-no-script-1")
    page.locator("#analysis .facts").screenshot(
        path=str(ARTIFACTS / "analyser-phone-chain-no-script-facts.png")
    )
    page.click(f"#chain-length a:has-text('{link}')")
    page.wait_for_selector("#chain-length:not(.chain-pending)")
    assert chain in page.inner_text("#chain-length")
    assert "4" in page.inner_text("#max-placed")
    shot(page, "phone-chain-no-script-2")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def refuse_chain(page: object, times: int) -> list[int]:
    """The page's next `times` chain length requests answered as a busy server does (429, Retry-After
    30), the ones after by the site; the refusals given so far."""
    refused: list[int] = []

    def answer(route: object) -> None:
        if len(refused) < times:
            refused.append(1)
            route.fulfill(  # type: ignore[attr-defined]
                status=429,
                # as webapp.errors answers htmx: the notice line of a board, which this page has not
                headers={
                    "Retry-After": "30",
                    "Content-Type": "text/html; charset=utf-8",
                    "HX-Retarget": "#notice",
                    "HX-Reswap": "innerHTML",
                },
                body='<p class="error">One solve at a time: wait for the answer you asked for.</p>',
            )
        else:
            route.continue_()  # type: ignore[attr-defined]

    page.route(re.compile(r"/analyse/chain\?"), answer)  # type: ignore[attr-defined]
    return refused


def test_a_refused_chain_length_asks_again_after_retry_after(browser: object, site: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on(
        "console",
        lambda message: message.type == "error" and "429" not in message.text and errors.append(message.text),
    )
    # the browser's clock is the test's: the 30 s of Retry-After pass when the test says, never waited
    page.clock.install()
    refused = refuse_chain(page, 2)
    page.goto(site + TWO_CUTS)
    page.wait_for_selector("#chain-length .chain-note:has-text('trying again in 30 s')")
    assert len(refused) == 1
    assert not page.is_visible("#chain-length .chain-work-out")  # no link while it will ask again
    shot(page, "phone-chain-retrying")
    page.clock.run_for(30_000)
    page.wait_for_selector("#chain-length[data-tries='2']")
    assert len(refused) == 2
    page.clock.run_for(30_000)
    page.wait_for_selector("#chain-length:not(.chain-pending)")
    assert CHAIN_WORDS["en"][1] in page.inner_text("#chain-length")
    assert page.locator("#chain-length .chain-note").count() == 0
    assert errors == []
    context.close()


def test_a_chain_length_refused_three_times_gives_its_link_back(browser: object, site: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="it-IT")  # type: ignore[attr-defined]
    page = context.new_page()
    page.clock.install()
    refused = refuse_chain(page, 3)
    page.goto(site + TWO_CUTS)
    for tries in (1, 2):
        page.wait_for_selector(f"#chain-length[data-tries='{tries}']")
        page.clock.run_for(30_000)
    page.wait_for_selector("#chain-length[data-tries='3']")
    assert len(refused) == 3
    # it asks no more: the link is back, with why, in the player's language
    page.clock.run_for(120_000)
    assert len(refused) == 3
    assert page.locator("#chain-length.chain-pending").count() == 1
    assert page.is_visible(f"#chain-length a:has-text('{CHAIN_WORDS['it'][2]}')")
    note = page.inner_text("#chain-length .chain-note")
    assert "la lunghezza della catena non è stata calcolata" in note, note
    shot(page, "phone-chain-gave-up-it")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
