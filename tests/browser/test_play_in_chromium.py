"""Play today's puzzle in real headless Chromium (Debian's), by clicking, on a desktop and a phone.

Screenshots go to artifacts/ for a person to look at.
"""

from __future__ import annotations

import re

import generator
from tests.browser.conftest import ARTIFACTS

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


class Table:
    """The page as a player sees it, and the clicks they make."""

    def __init__(self, page: object) -> None:
        self.page = page
        self.ready()

    def ready(self) -> None:
        """Wait for the deferred scripts: a page reached by a click may show its board first."""
        self.page.wait_for_load_state("domcontentloaded")  # type: ignore[attr-defined]

    def cards(self) -> list[tuple[str, str]]:
        return self.page.eval_on_selector_all(  # type: ignore[attr-defined, no-any-return]
            "#board .card[data-card]", "els => els.map(e => [e.dataset.card, e.getAttribute('aria-label')])"
        )

    def version(self) -> str:
        return str(self.page.get_attribute("#board", "data-version"))  # type: ignore[attr-defined]

    def wait_for_board(self, before: str) -> None:
        """Wait until the board the server answered with is on the page."""
        self.page.wait_for_function(  # type: ignore[attr-defined]
            "v => document.getElementById('board').dataset.version !== v", arg=before
        )

    def move(self, card_id: str, target: str) -> None:
        self.ready()
        before = self.version()
        self.page.click(f'#board .card[data-card="{card_id}"]')  # type: ignore[attr-defined]
        if target == "new":
            self.page.click("#board .new-meld")  # type: ignore[attr-defined]
        elif target == "hand":
            self.page.click("#board .hand")  # type: ignore[attr-defined]
        else:  # the meld that holds this card
            self.page.click(f'#board .meld:has([data-card="{target}"]) .meld-state')  # type: ignore[attr-defined]
        self.wait_for_board(before)

    def track(self) -> str:
        return str(self.page.inner_text("#track")).strip()  # type: ignore[attr-defined]


def play(page: object, base: str, puzzle: generator.Puzzle, shots: str) -> str:
    """Open today's puzzle, stray into a dead end and undo it, then lay out the solution; the share text."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(base + "/")  # type: ignore[attr-defined]
    table = Table(page)
    # before the first move the status says what to do, not a verdict on nothing
    assert "Tap a card, then a meld" in table.track()
    page.screenshot(path=str(ARTIFACTS / f"{shots}-1-start.png"), full_page=True)  # type: ignore[attr-defined]

    ids: dict[str, list[str]] = {}
    for card_id, label in table.cards():
        ids.setdefault(label.split(" ")[0], []).append(card_id)

    # the 2♦ belongs nowhere: the step check says so at once
    decoy = ids["2♦"][0]
    table.move(decoy, "new")
    assert "dead end" in table.track()
    assert page.locator(".meld-incomplete").count() == 1  # type: ignore[attr-defined]
    page.screenshot(path=str(ARTIFACTS / f"{shots}-2-dead-end.png"), full_page=True)  # type: ignore[attr-defined]
    before = table.version()
    page.keyboard.press("u")  # type: ignore[attr-defined]
    table.wait_for_board(before)
    assert "on track" in table.track()

    for meld in puzzle.solution:
        first = None
        for token in meld:
            name = token[:-1] + SUITS[token[-1]]
            # table copies first: every table card must stay on the table
            chosen = sorted(ids[name], key=lambda i: (i[0] != "t", i))[0]
            ids[name].remove(chosen)
            table.move(chosen, "new" if first is None else first)
            first = first or chosen
            assert "dead end" not in table.track()
        if meld == puzzle.solution[1]:
            page.screenshot(path=str(ARTIFACTS / f"{shots}-3-midway.png"), full_page=True)  # type: ignore[attr-defined]
    assert "on track" in table.track()
    assert page.locator(".meld-invalid, .meld-incomplete").count() == 0  # type: ignore[attr-defined]
    page.screenshot(path=str(ARTIFACTS / f"{shots}-4-laid-out.png"), full_page=True)  # type: ignore[attr-defined]
    page.click("#end-turn")  # type: ignore[attr-defined]
    page.wait_for_selector("#result")  # type: ignore[attr-defined]
    page.screenshot(path=str(ARTIFACTS / f"{shots}-5-solved.png"), full_page=True)  # type: ignore[attr-defined]
    return str(page.inner_text("#share-text"))  # type: ignore[attr-defined]


SHARE = re.compile(r"^Tavolo #7 ⛓3 ✅ 5/5 · \d+ moves · 💡0 · ❗1 · 🔥1$")
"""The dead end `play` strays into is a slip: undo puts the card back, the slip stays."""


def test_play_to_the_maximum_on_a_desktop(browser: object, site: str, known_puzzle: generator.Puzzle) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, timezone_id="UTC")  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    # every POST the page sends carries an id of its own, for the server to apply it once
    ids: list[str | None] = []
    page.on(
        "request", lambda sent: sent.method == "POST" and ids.append(sent.headers.get("x-tavolo-request"))
    )
    share = play(page, site, known_puzzle, "desktop")
    assert SHARE.match(share), share
    assert len(ids) > 5 and all(re.fullmatch(r"[0-9a-f]{32}", str(sent)) for sent in ids), ids
    assert len(set(ids)) == len(ids)
    assert "Solved!" in page.inner_text("#result")
    assert page.inner_text("#result-slips").strip() == "1 slip"
    assert "a clean solve" not in page.inner_text("#result")
    assert errors == []  # no CSP violation, no script error
    context.close()


def test_play_to_the_maximum_on_a_360_pixel_phone(
    browser: object, site: str, known_puzzle: generator.Puzzle
) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740},
        device_scale_factor=2,
        has_touch=True,
        timezone_id="Europe/Rome",
    )
    page = context.new_page()
    share = play(page, site, known_puzzle, "phone")
    assert SHARE.match(share), share
    # nothing wider than the screen, and every card a tappable size
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    sizes = page.eval_on_selector_all(
        ".card", "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.width, r.height]; })"
    )
    assert min(w for w, _ in sizes) >= 40 and min(h for _, h in sizes) >= 56
    context.close()


def test_a_newcomer_gives_up_without_javascript(browser: object, site: str) -> None:
    """Today's page for a visitor without a session carries no token; its plain form comes back once
    with one, and the second press does it."""
    context = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740}, java_script_enabled=False, timezone_id="UTC"
    )
    page = context.new_page()
    page.goto(site + "/")
    assert page.get_attribute('meta[name="csrf-token"]', "content") == ""
    assert context.cookies() == []  # type: ignore[attr-defined]
    page.click("details.give-up summary")
    page.click("details.give-up button.danger")
    assert page.is_visible("#send-again")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(ARTIFACTS / "phone-no-script-send-again.png"), full_page=True)
    page.click("#send-again")
    page.wait_for_selector("#result")
    assert "You gave up" in page.inner_text("#result")
    page.screenshot(path=str(ARTIFACTS / "phone-no-script-gave-up.png"), full_page=True)
    context.close()
