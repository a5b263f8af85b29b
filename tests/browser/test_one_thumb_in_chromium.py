"""A newcomer on a 360x740 phone (and a desktop), light and dark: the tray leaves the table room, the
status stays in view wherever the table is scrolled, a move shows at once, End turn asks before a short
end and says why it is off, and the result's countdown ticks. axe-core finds nothing serious.

Screenshots go to artifacts/thumb-*.png for a person to look at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from flask import Flask

import generator
from puzzles import Position
from tests.browser.conftest import ARTIFACTS, DESKTOP, PHONE, accessibility_problems, served
from tests.browser.test_hand_in_chromium import TRAY_SHARE
from tests.browser.test_play_in_chromium import Table
from tests.waiting import wait_until
from tests.webapp.conftest import NOON, FrozenClock, make_app, store

TEN_MELDS = (
    "classic | 10H 10D 10S / JH JD JS / QH QD QC / 4C 5C 6C 7C / AS 2S 3S / 5H 6H 7H / 5S 5D 5C"
    " / 3H 3D 3C / 6D 7D 8D / AH AD AC | 9S QD QS 8C KH 2D 7S 10C KD"
)
"""Ten melds and nine hand cards: on a phone the table runs well below the screen."""


@pytest.fixture(scope="module")
def big_puzzle() -> generator.Puzzle:
    return generator.puzzle_of("cz1", Position.parse(TEN_MELDS), time_limit=20)


@pytest.fixture
def big_site(database_url: str, clock: FrozenClock, big_puzzle: generator.Puzzle) -> Iterator[str]:
    app: Flask = make_app(database_url, clock)
    store(app, big_puzzle, 7)
    with served(app) as url:
        yield url


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"thumb-{name}.png"))  # type: ignore[attr-defined]


def box(page: object, selector: str) -> dict[str, float]:
    return page.eval_on_selector(  # type: ignore[attr-defined, no-any-return]
        selector,
        "e => { const r = e.getBoundingClientRect();"
        " return {top: r.top, bottom: r.bottom, height: r.height}; }",
    )


def hand_card(page: object, label: str) -> str:
    return str(
        page.eval_on_selector(  # type: ignore[attr-defined]
            f'#board .hand .card[aria-label^="{label}"]', "e => e.dataset.card"
        )
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_phone_tray_leaves_the_table_room_and_keeps_the_status_in_view(
    browser: object, big_site: str, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme, timezone_id="UTC", **PHONE)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(big_site + "/")
    table = Table(page)
    tray = box(page, "#tray")
    # nine cards take two rows: a little more than a quarter (test_hand_in_chromium says why)
    assert tray["height"] <= TRAY_SHARE * 740, tray
    assert tray["bottom"] == 740  # sticky at the foot of the screen
    # the hand's name gives its line to the second row of cards
    assert page.locator("#board .hand .card").count() == 9
    assert not page.is_visible("#hand-label") or box(page, "#hand-label")["height"] <= 1
    shot(page, f"phone-{scheme}-1-start")

    # lifting a hand card offers the new-meld slot in the tray, within the thumb's reach
    before = table.version()
    page.click(f'#board .card[data-card="{hand_card(page, "2♦")}"]')
    slot = box(page, ".lift-actions [data-meld=new]")
    assert 740 - tray["height"] <= slot["top"] and slot["bottom"] <= 740
    shot(page, f"phone-{scheme}-2-lifted")
    page.click(".lift-actions [data-meld=new]")
    table.wait_for_board(before)

    # the table scrolled to its top or its foot: the dead end is in view all the same
    for y in (0, 10_000):
        page.evaluate(f"window.scrollTo(0, {y})")
        status = box(page, "#track")
        assert status["top"] >= 0 and status["bottom"] <= 740, status
        assert "dead end" in table.track()
        assert box(page, "#tray")["height"] <= TRAY_SHARE * 740
    shot(page, f"phone-{scheme}-3-dead-end")

    # a hint scrolls the meld it points at into view, clear of the tray
    page.evaluate("window.scrollTo(0, 0)")
    before = table.version()
    page.click("#hint-button")
    table.wait_for_board(before)
    hinted = page.locator("#board .table .hinted-meld, #board .table .hinted")
    assert hinted.count() >= 1
    tray_top = box(page, "#tray")["top"]
    first = hinted.first.bounding_box()
    assert first is not None and first["y"] >= 0 and first["y"] + first["height"] <= tray_top, (
        first,
        tray_top,
    )
    # and its words stay in view, in the tray, below it: never over the table
    words = box(page, "#hint")
    assert tray_top <= words["top"] and words["bottom"] <= 740, (words, tray_top)
    assert first["y"] + first["height"] <= words["top"], (words, first)
    shot(page, f"phone-{scheme}-4-hint")
    assert accessibility_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


@pytest.mark.parametrize(("device", "scheme"), [("phone", "light"), ("desktop", "dark")])
def test_end_turn_says_why_it_is_off_asks_before_a_short_end_and_the_countdown_ticks(
    browser: object, site: str, device: str, scheme: str
) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        color_scheme=scheme, timezone_id="UTC", **(PHONE if device == "phone" else DESKTOP)
    )
    page = context.new_page()
    # the browser's clock runs from the server's frozen noon, so the countdown has hours to go
    page.clock.install(time=NOON)
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(site + "/")
    table = Table(page)

    # End turn is off before a card is laid, and a tap says why
    assert page.get_attribute("#end-turn", "aria-disabled") == "true"
    assert page.is_hidden("#end-turn-why")
    page.click("#end-turn", force=True)  # Playwright will not tap an aria-disabled button; a thumb does
    assert "place at least one card from your hand" in page.inner_text("#end-turn-why")
    shot(page, f"{device}-{scheme}-5-why-off")
    assert accessibility_problems(page) == []

    # 8♣ on the club run: a valid table, four cards short of the five possible
    eight = hand_card(page, "8♣")
    table.move(eight, "t9")  # the 4♣ of the club run
    assert page.get_attribute("#end-turn", "aria-disabled") is None
    page.click("#end-turn")
    assert page.inner_text(".end-short .confirm-words") == "You can still place 4 more cards. End anyway?"
    assert page.is_visible("#end-short")
    shot(page, f"{device}-{scheme}-6-end-short")
    assert accessibility_problems(page) == []
    # taken back, the turn goes on; asked again and confirmed, it ends
    page.click(".end-short summary")
    assert page.is_hidden("#end-short")
    page.click("#end-turn")
    before = table.version()
    page.click("#end-short")
    table.wait_for_board(before)
    assert "You placed 1; 5 was possible" in page.inner_text("#result")

    # the countdown to the next puzzle ticks without a reload
    first = page.inner_text("time.countdown")
    assert first != "now: reload"
    page.wait_for_function("t => document.querySelector('time.countdown').textContent !== t", arg=first)
    assert page.inner_text("time.countdown") != first
    shot(page, f"{device}-{scheme}-7-missed")
    assert accessibility_problems(page) == []
    assert errors == []
    context.close()


def held_request(page: object, held: list[object]) -> object:
    """The request the page's route holds back. The page marks the board busy as it sends it, which
    may be before Playwright has handed the route to this side: wait for it, letting Playwright's
    events through (a plain sleep would not)."""

    def routed() -> bool:
        page.wait_for_timeout(10)  # type: ignore[attr-defined]
        return bool(held)

    wait_until(routed, "the held request reaches the test")
    return held.pop()


def test_a_move_shows_at_once_and_a_refused_one_goes_back(browser: object, site: str) -> None:
    context = browser.new_context(timezone_id="UTC", **PHONE)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site + "/")
    table = Table(page)
    held: list[object] = []
    page.route("**/move", lambda route: held.append(route))

    # the server has not answered yet: the card is already in its new meld, waiting, the board busy
    eight = hand_card(page, "8♣")
    page.click(f'#board .card[data-card="{eight}"]')
    page.click('#board .meld:has([data-card="t9"]) .meld-state')
    page.wait_for_function("() => document.getElementById('board').getAttribute('aria-busy') === 'true'")
    assert page.locator(f'#board .meld:has([data-card="t9"]) [data-card="{eight}"].pending').count() == 1
    assert page.locator(f'#board .hand [data-card="{eight}"]').count() == 0
    shot(page, "phone-light-8-waiting")
    before = table.version()
    held_request(page, held).continue_()  # type: ignore[attr-defined]
    table.wait_for_board(before)
    assert (
        page.locator(f'#board .meld:has([data-card="t9"]) [data-card="{eight}"]:not(.pending)').count() == 1
    )
    assert page.get_attribute("#board", "aria-busy") is None

    # refused: the card goes back to the hand and the notice says why
    page.click(f'#board .card[data-card="{hand_card(page, "2♦")}"]')
    page.click("#board .table .new-meld")
    page.wait_for_function("() => document.getElementById('board').getAttribute('aria-busy') === 'true'")
    held_request(page, held).fulfill(  # type: ignore[attr-defined]
        status=422,
        headers={"HX-Retarget": "#notice", "HX-Reswap": "innerHTML", "Content-Type": "text/html"},
        body='<p class="notice-text error">that card is not where the page showed it</p>',
    )
    page.wait_for_selector("#notice .notice-text")
    assert page.locator('#board .hand [aria-label^="2♦"]').count() == 1
    assert page.locator("#board .pending, #board .pending-meld").count() == 0
    assert page.get_attribute("#board", "aria-busy") is None
    context.close()


@pytest.fixture
def practice_site(database_url: str, clock: FrozenClock, big_puzzle: generator.Puzzle) -> Iterator[str]:
    """The ten-meld puzzle for practice, under its code, served."""
    from tests.webapp.schedule.test_practice import practise

    app: Flask = make_app(database_url, clock)
    practise(app, big_puzzle)
    with served(app) as url:
        yield url + "/practice/" + big_puzzle.id


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_giving_up_on_a_phone_shows_the_solution_as_steps(
    browser: object, practice_site: str, big_puzzle: generator.Puzzle, scheme: str
) -> None:
    context = browser.new_context(color_scheme=scheme, timezone_id="UTC", **PHONE)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(practice_site + "?beat=12")
    table = Table(page)
    before = table.version()
    page.click(".give-up summary")
    page.click(".give-up .danger")
    table.wait_for_board(before)
    # the steps on the cards, then the final table with the hand's cards marked; the table the player
    # was given is not drawn again
    assert page.locator(".result .steps .step").count() >= 3
    assert page.locator(".result .final-table .card.from-hand").count() == len(big_puzzle.laid)
    assert page.locator(".your-table").count() == 0
    # practice: no daily countdown, the next puzzle one tap away, the challenge link wraps
    assert page.locator("time.countdown").count() == 0
    assert page.is_visible("#next-practice")
    assert big_puzzle.id not in page.inner_text("#share-text")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.screenshot(path=str(ARTIFACTS / f"thumb-phone-{scheme}-9-gave-up.png"), full_page=True)
    assert accessibility_problems(page) == []
    context.close()


@pytest.mark.parametrize(("device", "scheme"), [("phone", "dark"), ("desktop", "light")])
def test_a_first_visit_walks_through_the_game_once(
    browser: object, site: str, device: str, scheme: str
) -> None:
    context = browser.new_context(  # type: ignore[attr-defined]
        first_visit=True, color_scheme=scheme, timezone_id="UTC", **(PHONE if device == "phone" else DESKTOP)
    )
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_selector("#tutorial[open]")
    assert "Welcome to Tavolo" in page.inner_text("#tutorial")
    shot(page, f"{device}-{scheme}-10-welcome")
    assert accessibility_problems(page) == []
    page.click("#tutorial-next")
    assert "Rearrange the whole table" in page.inner_text("#tutorial")
    page.click(".tutorial-answer summary")
    assert page.locator(".tutorial-answer .card").count() == 12  # the worked example's four melds
    shot(page, f"{device}-{scheme}-11-example")
    page.click("#tutorial-next")
    page.click("#tutorial-back")
    assert "Rearrange the whole table" in page.inner_text("#tutorial")
    page.click("#tutorial-next")
    page.click("#tutorial-next")
    assert page.is_hidden("#tutorial-next")
    page.click("#tutorial-done")
    assert page.locator("#tutorial[open]").count() == 0
    # never again, and the game is playable at once
    assert tour_asked_for_on_load(page, page.reload) == []
    page.wait_for_selector("#board")
    assert page.locator("#tutorial[open]").count() == 0
    context.close()


def tour_asked_for_on_load(page: object, load: Callable[[], object]) -> list[str]:
    """The requests for the walkthrough that a page load made. The dialog's close event, which
    remembers it was seen, runs as a task after the dialog closes, so the load waits for it (a
    reload at once raced it); the page asks for the walkthrough while it loads or never."""
    page.wait_for_function("() => localStorage.getItem('tavolo-tutorial-seen') !== null")  # type: ignore[attr-defined]
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url) if request.url.endswith("/tour") else None)  # type: ignore[attr-defined]
    load()
    return asked


def test_the_tutorial_can_be_skipped_and_the_chip_explains_itself(browser: object, site: str) -> None:
    context = browser.new_context(first_visit=True, timezone_id="UTC", **PHONE)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(site + "/")
    page.click("#tutorial-skip")
    assert page.locator("#tutorial[open]").count() == 0
    assert page.is_hidden(".explain-words")
    page.click(".explain summary")
    assert "take apart up to 3 melds of the table at once" in page.inner_text(".explain-words")
    shot(page, "phone-light-12-chip")
    assert accessibility_problems(page) == []
    assert tour_asked_for_on_load(page, lambda: page.goto(site + "/")) == []
    assert page.locator("#tutorial[open]").count() == 0
    context.close()


def test_on_a_desktop_each_meld_keeps_its_place(browser: object, big_site: str) -> None:
    context = browser.new_context(timezone_id="UTC", **DESKTOP)  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(big_site + "/")
    table = Table(page)
    where = "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top + scrollY]; })"
    before = page.eval_on_selector_all("#board .table .meld[data-meld]:not(.new-meld)", where)
    # three cards onto the first meld: it grows, and no other meld moves
    for label in ("9♠", "Q♠", "K♥"):
        table.move(hand_card(page, label), "t0")
    after = page.eval_on_selector_all("#board .table .meld[data-meld]:not(.new-meld)", where)
    # the same column, and the same row (a taller row only moves the rows under it down)
    assert [left for left, _ in after] == [left for left, _ in before]
    assert rows(after) == rows(before)
    shot(page, "desktop-light-13-places")
    assert accessibility_problems(page) == []
    context.close()


def rows(places: list[list[float]]) -> list[int]:
    """Each meld's row, counted from the top."""
    tops = sorted({round(top) for _, top in places})
    return [tops.index(round(top)) for _, top in places]
