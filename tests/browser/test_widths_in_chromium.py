"""No page is wider than the phone, in any language, at 320 and 360 px: every page, and the play page's
hint, give-up and result states, with an archive that holds finished puzzles and their crowd shares
(the widest rows: a status badge and "N% solved it"), and none writes an error to the console (a
Content-Security-Policy violation among them). Each page is loaded once per language and width
and every check runs on that load (this test also holds what test_languages' "every page fits a
phone" held: the rush, the streak, the phone's time zone).

At 360 px every control a thumb taps is 44 px high, and axe finds nothing serious on the result, the
archive of finished puzzles (their status badges) and the presets explained below a rules picker,
which the axe test does not reach.

Screenshots go to artifacts/widths-<lang>-<width>-<page>.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

import generator
from tests.browser.conftest import ARTIFACTS, accessibility_problems, served
from tests.webapp.conftest import FrozenClock, make_app, store, variant

LOCALES = {"en": "en-GB", "it": "it-IT", "de": "de-DE", "pl": "pl-PL"}
PAGES = {
    "help": "/help",
    "settings": "/settings",
    "stats": "/stats",
    "practice": "/practice",
    "analyser": "/analyse?rules=jokers&table=3S+4S+5S+%2F+7H+7D+7%E2%99%A3&hand=6S+7S+KD+JK",
    "rush": "/rush",
    "streak": "/streak",
    "archive": "/archive",
}


@pytest.fixture
def site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """Today's #7 and the days before it, so that the archive has rows to finish."""
    app: Flask = make_app(database_url, clock)
    store(app, known_puzzle, 7)
    store(app, variant(known_puzzle, "2H", "expert", "cb5"), 5)
    store(app, variant(known_puzzle, "3H", "master", "cb6"), 6)
    with served(app) as url:
        yield url


def too_wide(page: object, width: int) -> list[str]:
    """The page's width if wider than the screen, and every visible element that runs off it."""
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        """width => {
          const found = [];
          const wide = document.documentElement.scrollWidth;
          if (wide > width) found.push('page ' + wide);
          for (const e of document.querySelectorAll('body *')) {
            if (!e.checkVisibility() || e.closest('[hidden], .visually-hidden')) continue;
            const r = e.getBoundingClientRect();
            if (r.width && (r.right > width + 0.5 || r.left < -0.5))
              found.push((e.id || e.className || e.tagName) + ': ' + e.textContent.trim().slice(0, 30));
          }
          return found.slice(0, 5);
        }""",
        width,
    )


def small_targets(page: object) -> list[str]:
    """Every visible control a thumb taps that is under 44 px high: buttons, the header's icons, the
    chips and other summaries, the pickers and text boxes, and the words of a box or a radio button
    (the box itself is small, its label is the target). An absolute ::after counts as the target:
    a label's that covers its whole option, a chip's invisible margin."""
    return page.evaluate(  # type: ignore[attr-defined, no-any-return]
        """() => [...document.querySelectorAll(
              'button, .button, .icon-link, summary, select, textarea, input:not([type=hidden],'
              + ' [type=checkbox], [type=radio]), label:has(input[type=checkbox], input[type=radio]),'
              + ' input[type=checkbox] + label, input[type=radio] + label')]
          .filter(e => e.checkVisibility() && !e.closest('[hidden], .visually-hidden'))
          .map(e => {
            const r = e.getBoundingClientRect();
            const after = getComputedStyle(e, '::after');
            if (after.position !== 'absolute') return [e, r.width, r.height];
            const box = (getComputedStyle(e).position === 'static' ? e.offsetParent : e)
              .getBoundingClientRect();
            const reach = box.height - (parseFloat(after.top) || 0) - (parseFloat(after.bottom) || 0);
            return [e, r.width, Math.max(r.height, reach)];
          })
          .filter(([e, width, height]) => width && height < 43.5)
          .map(([e, width, height]) => (e.id || e.className || e.tagName) + ' '
               + e.textContent.trim().slice(0, 20) + ': ' + Math.round(height) + ' px')"""
    )


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("language", sorted(LOCALES))
def test_no_page_is_wider_than_the_phone(browser: object, site: str, language: str, width: int) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        locale=LOCALES[language],
        viewport={"width": width, "height": 740},
        device_scale_factor=2,
        has_touch=True,
        timezone_id="Europe/Rome",  # the phone of the other tests: a day's end falls an hour apart
    )
    page = context.new_page()
    # a Content-Security-Policy violation, a failed load or a script error shows on the console
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))

    def check(name: str) -> None:
        assert page.get_attribute("html", "lang") == language, name
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"widths-{language}-{width}-{name}.png"), full_page=True)
        assert too_wide(page, width) == [], name
        assert small_targets(page) == [], name
        if width >= 360:  # the name and the six icons on one row, their names legible (10 px)
            row = page.evaluate(
                """() => {
                  const brand = document.querySelector('.brand').getBoundingClientRect();
                  const links = document.querySelector('.bar-links').getBoundingClientRect();
                  const label = getComputedStyle(document.querySelector('.icon-label')).fontSize;
                  return [links.top < brand.bottom && links.bottom > brand.top, parseFloat(label)];
                }"""
            )
            assert row[0] and row[1] >= 10, (name, row)
        # two sentences run together ("today.3 more") where a template line break ate the space
        joined = page.evaluate(
            r"() => document.querySelector('main').innerText.match(/\p{Ll}[.!?:]\p{Lu}|\p{Ll}[.!?]\d/gu)"
        )
        assert joined is None, (name, joined)

    # today's puzzle, then a hint, then the give-up question
    page.goto(site + "/")
    check("play")
    if width >= 360:  # every name of the tray on one line: none is cut or runs out of its button
        cut = page.eval_on_selector_all(
            ".turn-actions .button",
            "els => els.filter(e => e.checkVisibility() && (e.scrollWidth > e.clientWidth + 1"
            " || e.getBoundingClientRect().height > 50)).map(e => e.textContent.trim())",
        )
        assert cut == []
    page.click("#hint-button")
    page.wait_for_selector("#hint:not(:empty)")
    check("hint")
    page.click(".give-up summary")
    check("give-up")
    keep, give_up = (
        page.locator(selector).bounding_box() for selector in (".give-up summary", ".give-up .danger")
    )
    assert keep and give_up
    apart = (
        give_up["x"] + give_up["width"] <= keep["x"] + 0.5
        or give_up["y"] + give_up["height"] <= keep["y"] + 0.5
    )
    assert apart, (keep, give_up)
    page.click(".give-up .danger")
    page.wait_for_selector("#result")
    check("result")
    if width == 360:  # the states the axe test does not reach: a result, and an archive of them
        assert accessibility_problems(page) == []
    # the eye lands on the news: the result's heading is in view, not above it
    assert page.evaluate(
        "() => { const r = document.querySelector('#result h2').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    # two puzzles of the archive given up too: their rows show a status and the crowd's share
    for number in (5, 6):
        page.goto(f"{site}/archive/{number}")
        page.click(".give-up summary")
        page.click(".give-up .danger")
        page.wait_for_selector("#result")
    for name, path in PAGES.items():
        page.goto(site + path)
        check(name)
        if width == 360 and name == "archive":
            assert accessibility_problems(page) == []
        if name in ("practice", "analyser"):  # what each preset is, opened below the picker
            page.click(".rules-about summary")
            page.wait_for_selector(".rules-about dl", state="visible")
            check(f"{name}-rules")
            if width == 360:
                assert accessibility_problems(page) == []
    assert page.locator(".crowd-share").count() >= 3
    assert errors == []
    context.close()
