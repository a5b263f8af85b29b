"""A joker puzzle's count of decisions is mostly a lower bound (the forcing player's limit): the
tier chip and its explanation say "at least", in each language, on a phone at 320 and 360 px.

Screenshots go to artifacts/ as decision-bound-<language>-<width>-page.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from flask import Flask

import generator
from puzzles import Position
from tests.browser.conftest import ARTIFACTS, PHONE, served
from tests.webapp.conftest import KNOWN, FrozenClock, make_app, store

SAID = {
    "en": ("en-GB", "at least 3 decisions", "It needs at least 3 decisions"),
    "it": ("it-IT", "almeno 3 decisioni", "Richiede almeno 3 decisioni"),
    "de": ("de-DE", "mindestens 3 Entscheidungen", "Es verlangt mindestens 3 Entscheidungen"),
    "pl": ("pl-PL", "co najmniej 3 decyzje", "Wymaga co najmniej 3 decyzji"),
}


@pytest.fixture
def site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    """Today's puzzle (#7) with a count of decisions proved only as a lower bound."""
    app: Flask = make_app(database_url, clock)
    known = generator.puzzle_of("cz1", Position.parse(KNOWN), time_limit=20)
    store(app, replace(known, decisions=None, decisions_at_least=3, forks=None, forks_at_least=2), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("language", list(SAID))
def test_the_chip_says_at_least_on_a_phone(browser: object, site: str, language: str, width: int) -> None:
    locale, chip, explained = SAID[language]
    screen = {**PHONE, "viewport": {"width": width, "height": 740}}
    context = browser.new_context(locale=locale, **screen)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_load_state("domcontentloaded")
    fact = page.inner_text("details.explain summary .chip-fact.decisions").replace("\u00a0", " ")
    assert chip in fact
    page.click("details.explain summary")
    assert explained in page.inner_text("details.explain .explain-words").replace("\u00a0", " ")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"decision-bound-{language}-{width}-page.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
