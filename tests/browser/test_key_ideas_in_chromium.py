"""A puzzle's key ideas in real headless Chromium on a phone: the first hint marks the key card
alone, and giving up shows the ideas in words on the result card, in each language, at 360 px
(English, Italian) and 320 px (German, Polish: the longest words); a joker puzzle's four ideas at
360 px in German and Italian; a Master with a weak and a real fork at 360 and 320 px in all four,
whose hint marks the real fork's card and whose card says "The key:" of it and the weak one last.

Screenshots go to artifacts/ as key-ideas-<language>-<width>-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

import generator
from puzzles import Position
from tests.browser.conftest import ARTIFACTS, PHONE, served
from tests.webapp.conftest import FrozenClock, make_app, store
from tests.webapp.turn.test_key_ideas import JOKER_IDEA, JOKERS, MASTER

SAID = {
    "en": {
        "locale": "en-GB",
        "hint": "2♥ is the key card: think twice before you lay it where it fits.",
        "title": "The key ideas",
        "ideas": ["Keep 2♥ back, though it fits 3♥ 4♥ 5♥."],
    },
    "it": {
        "locale": "it-IT",
        "hint": "2♥ è la carta chiave: pensaci bene prima di calarla dove si attacca.",
        "title": "Le idee chiave",
        "ideas": ["Tieni 2♥ in mano, anche se si attacca a 3♥ 4♥ 5♥."],
    },
    "de": {
        "locale": "de-DE",
        "hint": "2♥ ist die Schlüsselkarte: überlege gut, bevor du sie dort anlegst, wo sie passt.",
        "title": "Die Schlüsselideen",
        "ideas": ["Behalte 2♥ auf der Hand, obwohl sie an 3♥ 4♥ 5♥ passt."],
    },
    "pl": {
        "locale": "pl-PL",
        "hint": "2♥ to kluczowa karta: zastanów się dwa razy, zanim dołożysz ją tam, gdzie pasuje.",
        "title": "Kluczowe idee",
        "ideas": ["Zatrzymaj 2♥ na ręce, choć pasuje do 3♥ 4♥ 5♥."],
    },
}
"""The Master's ideas are two declines (its line's fork is not one: tests/puzzles/test_key.py)."""


def phone_page(browser: object, site: str, locale: str, width: int) -> Any:
    """The site's front page in a fresh phone context of `width` px, in `locale`; the artifacts'
    folder ready for its screenshots. Close it with `page.context.close()`."""
    screen = {**PHONE, "viewport": {"width": width, "height": 740}}
    context = browser.new_context(locale=locale, **screen)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_load_state("domcontentloaded")
    ARTIFACTS.mkdir(exist_ok=True)
    return page


@pytest.fixture
def site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    """The app with a generated Master (two declines) as today's puzzle (#7)."""
    app: Flask = make_app(database_url, clock)
    store(app, generator.puzzle_of("cz9", Position.parse(MASTER), time_limit=20), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize(("language", "width"), [("en", 360), ("it", 360), ("de", 320), ("pl", 320)])
def test_the_key_card_then_the_key_ideas_on_a_phone(
    browser: object, site: str, language: str, width: int
) -> None:
    said = SAID[language]
    page = phone_page(browser, site, said["locale"], width)
    shots = f"key-ideas-{language}-{width}"

    page.click("#hint-button")
    page.wait_for_selector("#hint")
    hint = page.inner_text("#hint")
    assert said["hint"] in hint.replace("\u00a0", " ")
    # the hint marks one card, the key card, and no meld: it does not say where the card goes
    marked = page.eval_on_selector_all(
        "#board .card.hinted", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(marked) == 1 and marked[0].startswith("2♥")
    assert page.query_selector("#board .hinted-meld") is None
    assert page.query_selector("#key-ideas") is None
    page.screenshot(path=str(ARTIFACTS / f"{shots}-1-hint.png"), full_page=True)

    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    ideas = page.inner_text("#key-ideas").replace("\u00a0", " ")
    assert said["title"] in ideas
    for idea in said["ideas"]:
        assert idea in ideas
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.locator("#key-ideas").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{shots}-2-result.png"), full_page=True)
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"{shots}-3-ideas.png"))
    page.context.close()


LONG_RUN = (
    "jokers | 3H 3D JK / 5S 5H 5D 5C / 10S 10H 10C / 4S 5S 6S / 5H 6H 7H 8H 9H / 10H JH QH"
    " / 2D 3D 4D 5D 6D / 3C 4C 5C 6C | 8S 3H AC JK"
)
"""A fresh jokers Medium (j8m21k9cln, seed 4242): its key idea named a run of ten, 3♥ 🃏 5♥ ...
Q♥, which ran off the result card at 320 px while its cards were all joined by no-break spaces. Its
solution joined 10♥ J♥ Q♥, which it never touches; laid apart, the idea names a run of seven (3♥'s
now: the joker's place is no key, since another best play splits the jokers otherwise)."""


@pytest.fixture
def long_run_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, generator.puzzle_of("jz9", Position.parse(LONG_RUN), time_limit=20), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize(
    ("language", "run"), [("de", "3♥ 🃏 5♥ 6♥ 7♥ 8♥ 9♥"), ("pl", "3♥ 🃏 5♥ 6♥ 7♥ 8♥ 9♥")]
)
def test_a_key_idea_naming_a_long_run_stays_on_a_320_px_phone(
    browser: object, long_run_site: str, language: str, run: str
) -> None:
    page = phone_page(browser, long_run_site, SAID[language]["locale"], 320)
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    said = page.inner_text("#key-ideas").replace("\u00a0", " ")
    assert run in said and "10♥" not in said, "10♥ J♥ Q♥ lies apart, as it lay"
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    # every line of the ideas ends inside the card, the last card of the run too
    overflow = page.eval_on_selector(
        "#key-ideas", "el => [...el.querySelectorAll('li')].map(li => li.scrollWidth - li.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"key-ideas-long-run-{language}-320.png"))
    page.context.close()


BOTH = (
    "classic | 5S 5H 5D / 6S 6H 6C / JS JH JC / QS QD QC / QH QD QC / KS KD KC / KH KD KC / JS QS KS"
    " / JH QH KH | 4S 4H 6H 9H 2D 3D 4D 5D 7C 8C 9C JC"
)
"""A fresh Medium (c8m21k9clw, seed 4242) whose key idea moves both J♠ to sets, one of them out
of J♠ Q♠ K♠: the longest of the key ideas' sentences."""


@pytest.fixture
def both_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, generator.puzzle_of("cz9", Position.parse(BOTH), time_limit=20), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Both J♠ end in sets (J♠ J♥ J♣), the one in J♠ Q♠ K♠ too."),
        ("it", "Entrambe le copie di J♠ finiscono in tris (J♠ J♥ J♣), anche quella in J♠ Q♠ K♠."),
        ("de", "Beide B♠ landen in Sätzen (B♠ B♥ B♣), auch die aus B♠ D♠ K♠."),
        ("pl", "Obie W♠ kończą w grupach (W♠ W♥ W♣), także ta z W♠ D♠ K♠."),
    ],
)
def test_both_copies_said_on_a_320_px_phone(
    browser: object, both_site: str, language: str, said: str
) -> None:
    page = phone_page(browser, both_site, SAID[language]["locale"], 320)
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    assert said in page.inner_text("#key-ideas").replace("\u00a0", " ")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    overflow = page.eval_on_selector(
        "#key-ideas", "el => [...el.querySelectorAll('li')].map(li => li.scrollWidth - li.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"key-ideas-both-{language}-320.png"))
    page.context.close()


EASY = "classic | AC 2C 3C 4C 5C / 9S 10S JS / 7H 8H 9H | 4C 6C 7C 10H"
"""An Easy without a decision (tests/webapp/turn/test_key_ideas.py): no key card for the first hint,
which names the meld to break, and the result card's key idea is its play's."""
EASY_SAID = {
    "en": (
        "Break the meld A♣ 2♣ 3♣ 4♣ 5♣",
        "The key idea",
        "5♣ leaves A♣ 2♣ 3♣ 4♣ 5♣ for 4♣ 5♣ 6♣ 7♣.",
    ),
    "it": (
        "Rompi la combinazione A♣ 2♣ 3♣ 4♣ 5♣",
        "L'idea chiave",
        "5♣ lascia A♣ 2♣ 3♣ 4♣ 5♣ per 4♣ 5♣ 6♣ 7♣.",
    ),
    "de": (
        "Brich die Kombination A♣ 2♣ 3♣ 4♣ 5♣ auf",
        "Die Schlüsselidee",
        "5♣ wandert aus A♣ 2♣ 3♣ 4♣ 5♣ in 4♣ 5♣ 6♣ 7♣.",
    ),
    "pl": (
        "Rozbij układ A♣ 2♣ 3♣ 4♣ 5♣",
        "Kluczowa idea",
        "5♣ przechodzi z A♣ 2♣ 3♣ 4♣ 5♣ do 4♣ 5♣ 6♣ 7♣.",
    ),
}


@pytest.fixture
def easy_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, generator.puzzle_of("cz9", Position.parse(EASY), time_limit=20), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("width", [360, 320])
@pytest.mark.parametrize("language", ["en", "it", "de", "pl"])
def test_an_easy_puzzle_without_a_fork_says_the_idea_of_its_play(
    browser: object, easy_site: str, language: str, width: int
) -> None:
    hint_said, title, idea = EASY_SAID[language]
    page = phone_page(browser, easy_site, SAID[language]["locale"], width)
    shots = f"key-ideas-easy-{language}-{width}"
    page.click("#hint-button")
    page.wait_for_selector("#hint")
    # no key card: the first rung points at the meld that must break, not where its cards go
    hint = page.inner_text("#hint").replace("\u00a0", " ")
    assert hint_said in hint and "4♣ 5♣ 6♣ 7♣" not in hint
    assert page.query_selector("#key-ideas") is None
    page.screenshot(path=str(ARTIFACTS / f"{shots}-1-hint.png"), full_page=True)
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    ideas = page.inner_text("#key-ideas").replace("\u00a0", " ")
    assert title in ideas and idea in ideas
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    overflow = page.eval_on_selector(
        "#key-ideas", "el => [...el.querySelectorAll('li')].map(li => li.scrollWidth - li.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.locator("#key-ideas").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{shots}-2-result.png"), full_page=True)
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"{shots}-3-ideas.png"))
    page.context.close()


CHAIN = (
    "classic | 4S 4D 4C / 9S 9H 9D 9C / KS KH KD / JS QS KS / AH 2H 3H 4H 5H 6H 7H / 9C 10C JC"
    " / JC QC KC | 2D 3D 5D 6D 10C"
)
"""A fresh Medium without a decision (c8m1twy1hw, seed 3801): its play is a chain of two, said link by
link, the second naming a run of seven."""


@pytest.fixture
def chain_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, generator.puzzle_of("cz9", Position.parse(CHAIN), time_limit=20), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "de",
            [
                "4♦ wandert aus 4♠ 4♦ 4♣ in 2♦ 3♦ 4♦ 5♦ 6♦.",
                "4♥ wandert aus A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ in 4♠ 4♥ 4♣.",
            ],
        ),
        (
            "pl",
            [
                "4♦ przechodzi z 4♠ 4♦ 4♣ do 2♦ 3♦ 4♦ 5♦ 6♦.",
                "4♥ przechodzi z A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ do 4♠ 4♥ 4♣.",
            ],
        ),
    ],
)
def test_a_medium_chain_said_link_by_link_on_a_320_px_phone(
    browser: object, chain_site: str, language: str, said: list[str]
) -> None:
    page = phone_page(browser, chain_site, SAID[language]["locale"], 320)
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    lines = page.eval_on_selector_all("#key-ideas li", "els => els.map(e => e.innerText)")
    assert [line.replace("\u00a0", " ") for line in lines] == said
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    overflow = page.eval_on_selector(
        "#key-ideas", "el => [...el.querySelectorAll('li')].map(li => li.scrollWidth - li.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"key-ideas-chain-{language}-320.png"))
    page.context.close()


@pytest.fixture
def jokers_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, generator.puzzle_of("jk0", Position.parse(JOKERS), time_limit=20), 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("language", ["de", "it"])
def test_a_joker_puzzles_ideas_on_a_360_px_phone(browser: object, jokers_site: str, language: str) -> None:
    # the joker's place first, then a fork that fills the decisions the grade proved, then declines
    page = phone_page(browser, jokers_site, SAID[language]["locale"], 360)
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    said = page.inner_text("#key-ideas").replace("\u00a0", " ")
    assert JOKER_IDEA[language].replace("\u00a0", " ") in said
    assert page.locator("#key-ideas li").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    overflow = page.eval_on_selector(
        "#key-ideas", "el => [...el.querySelectorAll('li')].map(li => li.scrollWidth - li.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"key-ideas-jokers-{language}-360.png"))
    page.context.close()


REAL_AND_WEAK = {
    "en": (
        "J♠ is the key card: think about where it goes.",
        "The key: J♠ goes to the set J♠ J♥ J♦, not to a run.",
        "2♠ goes to 2♠ 3♠ 4♠, its only home: nothing else competes for it.",
    ),
    "it": (
        "J♠ è la carta chiave: pensa a dove va.",
        "La chiave: J♠ va nel tris J♠ J♥ J♦, non in una scala.",
        "2♠ va in 2♠ 3♠ 4♠, il suo unico posto: nessun'altra carta se lo contende.",
    ),
    "de": (
        "B♠ ist die Schlüsselkarte: überlege, wohin sie gehört.",
        "Der Schlüssel: B♠ gehört in den Satz B♠ B♥ B♦, nicht in eine Reihe.",
        "2♠ gehört zu 2♠ 3♠ 4♠, ihrem einzigen Platz: keine andere Karte macht ihn ihr streitig.",
    ),
    "pl": (
        "W♠ to kluczowa karta: zastanów się, gdzie ją położyć.",
        "Klucz: W♠ trafia do grupy W♠ W♥ W♦, nie do sekwensu.",
        "2♠ trafia do 2♠ 3♠ 4♠, swojego jedynego miejsca: żadna inna karta o nie nie rywalizuje.",
    ),
}
"""`c9m1vndi4v` judged as a run judges it (tests/generator/test_real_forks.py): J♠ leaving 9♠ 10♠ J♠ Q♠
for the jacks is a real fork, the key; laying 2♠ is a weak fork, said plainly and last."""


@pytest.fixture
def real_fork_site(database_url: str, clock: FrozenClock) -> Iterator[str]:
    from generator._make import judged
    from tests.generator.test_weak_forks import TWO_OF_SPADES, accepted

    app: Flask = make_app(database_url, clock)
    puzzle = judged(accepted(*TWO_OF_SPADES)).puzzle
    assert puzzle is not None and puzzle.real_forks == 1
    store(app, puzzle, 7)
    with served(app) as url:
        yield url


@pytest.mark.parametrize("width", [360, 320])
@pytest.mark.parametrize("language", ["en", "it", "de", "pl"])
def test_the_key_is_the_real_fork_and_the_weak_one_is_said_plainly(
    browser: object, real_fork_site: str, language: str, width: int
) -> None:
    hint_said, key, weak = REAL_AND_WEAK[language]
    page = phone_page(browser, real_fork_site, SAID[language]["locale"], width)
    shots = f"key-ideas-real-{language}-{width}"
    page.click("#hint-button")
    page.wait_for_selector("#hint")
    assert hint_said in page.inner_text("#hint").replace("\u00a0", " ")
    # the first rung marks the real fork's card alone (a table card), not the weak fork's 2♠
    marked = page.eval_on_selector_all(
        "#board .card.hinted", "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert len(marked) == 1 and marked[0].startswith(hint_said.split(" ")[0]), marked
    assert page.query_selector("#board .hinted-meld") is None
    page.screenshot(path=str(ARTIFACTS / f"{shots}-1-hint.png"), full_page=True)
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    page.wait_for_selector("#key-ideas")
    lines = page.eval_on_selector_all("#key-ideas li", "els => els.map(e => e.innerText)")
    lines = [line.replace("\u00a0", " ") for line in lines]
    assert lines[0] == key and lines[-1] == weak and len(lines) == 3, lines
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    overflow = page.eval_on_selector(
        "#key-ideas", "el => [...el.querySelectorAll('li')].map(li => li.scrollWidth - li.clientWidth)"
    )
    assert overflow and max(overflow) <= 0, overflow
    page.locator("#key-ideas").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{shots}-2-result.png"), full_page=True)
    page.locator("#key-ideas").screenshot(path=str(ARTIFACTS / f"{shots}-3-ideas.png"))
    page.context.close()
