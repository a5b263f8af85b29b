"""The player's side in real headless Chromium: solve today's puzzle with one hint, share it, read the
stats; the archive, practice (with jokers) and a timed turn. Desktop and a 360 px phone.

Screenshots go to artifacts/players-*.png for a person to look at.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta

import pytest
from flask import Flask
from sqlalchemy import update

import generator
from tests.browser.conftest import ARTIFACTS, ZONED_DEVICES, served
from tests.browser.test_play_in_chromium import SUITS, Table
from tests.webapp.conftest import NOON, FrozenClock, make_app, store, variant
from webapp import models
from webapp.db import database

SHARE = re.compile(r"^Tavolo #7 ⛓3 ✅ 5/5 · \d+ moves · 💡1 · 🔥1$")


@pytest.fixture
def site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """Today's #7, #5 and #6 in the archive, and practice puzzles: one classic, one with jokers."""
    app: Flask = make_app(database_url, clock)
    store(app, known_puzzle, 7)
    store(app, variant(known_puzzle, "2H", "hard", "cb5"), 5)
    store(app, variant(known_puzzle, "3H", "hard", "cb6"), 6)
    jokers = generator.puzzle_from_id("jb0")
    assert jokers.tier == "easy"  # the test asks practice for an easy puzzle with jokers
    practice = [
        store(app, variant(known_puzzle, "AH 5S", "hard", "cp1")),
        store(app, jokers),
    ]
    with app.app_context(), database().write() as session:
        session.execute(
            update(models.PoolPuzzle).where(models.PoolPuzzle.id.in_(practice)).values(practice=True)
        )
    with served(app) as url:
        yield url


def shot(page: object, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"players-{name}.png"), full_page=True)  # type: ignore[attr-defined]


def lay_out(table: Table, puzzle: generator.Puzzle) -> None:
    """Lay out the solution meld by meld, table copies first (no table card may go to the hand)."""
    ids: dict[str, list[str]] = {}
    for card_id, label in table.cards():
        ids.setdefault(label.split(" ")[0], []).append(card_id)
    for meld in puzzle.solution:
        first = None
        for token in meld:
            name = token[:-1] + SUITS[token[-1]]
            chosen = sorted(ids[name], key=lambda i: (i[0] != "t", i))[0]
            ids[name].remove(chosen)
            table.move(chosen, "new" if first is None else first)
            first = first or chosen


def tile(page: object, name: str) -> str:
    return str(page.inner_text(f"#{name}")).strip()  # type: ignore[attr-defined]


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_solve_with_one_hint_then_read_the_stats(
    browser: object, site: str, known_puzzle: generator.Puzzle, device: str
) -> None:
    context = browser.new_context(**ZONED_DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(site + "/")
    table = Table(page)
    before = table.version()
    page.click("#hint-button")
    table.wait_for_board(before)
    assert "Hint 1:" in page.inner_text("#hint") and "Break the meld" in page.inner_text("#hint")
    assert page.locator("#board .card.hinted").count() == 3
    assert "2 left" in page.inner_text("#hint-button")
    shot(page, f"{device}-1-hint")
    lay_out(table, known_puzzle)
    page.click("#end-turn")
    page.wait_for_selector("#result")
    share = page.inner_text("#share-text")
    assert SHARE.match(share), share
    assert "Streak 1 · best 1" in page.inner_text("#result-streak")
    shot(page, f"{device}-2-solved")

    page.click("a[aria-label=Stats]")
    page.wait_for_selector("svg.calendar")
    assert (tile(page, "played"), tile(page, "solve-rate"), tile(page, "clean")) == ("1", "100%", "0")
    assert tile(page, "streak").endswith("1") and tile(page, "best-streak") == "1"
    assert page.locator("svg.calendar rect.day-solved").count() == 1
    shot(page, f"{device}-3-stats")
    page.click("text=Show a transfer code")
    page.wait_for_selector("#transfer-code")
    assert re.fullmatch(r"[A-Z2-9]{4}-[A-Z2-9]{4}", page.inner_text("#transfer-code"))
    shot(page, f"{device}-4-transfer-code")
    assert page.evaluate("document.documentElement.scrollWidth") <= ZONED_DEVICES[device]["viewport"]["width"]  # type: ignore[index]
    assert errors == []
    context.close()


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_archive_practice_and_a_timed_turn(browser: object, site: str, device: str) -> None:
    context = browser.new_context(**ZONED_DEVICES[device])  # type: ignore[attr-defined]
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    # the page's clock stands at the server's frozen noon and moves only when the test moves it, so
    # the turn clock reads the same however long the machine takes between the steps
    page.clock.install(time=NOON - timedelta(hours=1))
    page.clock.pause_at(NOON)
    page.goto(site + "/archive")
    assert page.locator(".archive-list li").count() == 3
    shot(page, f"{device}-5-archive")

    page.click("a[href='/archive/6']")
    page.wait_for_selector("#timed-start")
    table = Table(page)
    before = table.version()
    page.click("#timed-start")
    table.wait_for_board(before)
    assert page.inner_text("#turn-clock").strip() == "⏱ 2:00"
    page.clock.run_for(30_500)  # the clock ticks every quarter second, counting whole seconds up
    assert page.inner_text("#turn-clock").strip() == "⏱ 1:30"
    shot(page, f"{device}-6-timed")

    page.goto(site + "/practice")
    shot(page, f"{device}-7-practice")
    page.select_option("#rules", "jokers")
    page.click("button[value=easy]")
    page.wait_for_selector("#board")
    assert page.locator("#board .card.joker").count() == 3
    shot(page, f"{device}-8-jokers")
    assert page.evaluate("document.documentElement.scrollWidth") <= ZONED_DEVICES[device]["viewport"]["width"]  # type: ignore[index]
    assert errors == []
    context.close()


def test_the_time_runs_out_in_the_browser(browser: object, site: str, clock: FrozenClock) -> None:
    context = browser.new_context(**ZONED_DEVICES["desktop"])  # type: ignore[attr-defined]
    page = context.new_page()
    page.clock.install(time=NOON)
    page.goto(site + "/archive/5")
    table = Table(page)
    before = table.version()
    page.click("#timed-start")
    table.wait_for_board(before)
    # the server's clock is frozen at noon: move it past the deadline, then let the page's run out
    clock.moment = NOON + timedelta(minutes=3)
    page.clock.run_for(125_000)
    page.wait_for_selector("#result")
    assert "Time's up" in page.inner_text("#result")
    assert "⌛ 0/5" in page.inner_text("#share-text")
    shot(page, "desktop-9-time-up")
    context.close()


def give_up(page: object, name: str | None = None) -> None:
    """Give up through the confirmation; with a name, check the actions' row and screenshot it open."""
    table = Table(page)
    before = table.version()
    page.click(".give-up summary")  # type: ignore[attr-defined]
    if name:
        # the confirmation takes the place of the actions, says what it costs, and opens whole on the screen
        assert page.locator(".turn-actions > form:visible").count() == 0  # type: ignore[attr-defined]
        assert "counts as not solved" in page.inner_text(".give-up-cost")  # type: ignore[attr-defined]
        box = page.eval_on_selector(  # type: ignore[attr-defined]
            ".give-up .danger", "e => [e.getBoundingClientRect().left, e.getBoundingClientRect().right]"
        )
        assert box[0] >= 0 and box[1] <= page.viewport_size["width"], box  # type: ignore[attr-defined]
        shot(page, name)
    page.click(".give-up .danger")  # type: ignore[attr-defined]
    table.wait_for_board(before)


def test_a_transfer_code_moves_a_record_to_another_browser(browser: object, site: str) -> None:
    old_phone = browser.new_context(**ZONED_DEVICES["phone"])  # type: ignore[attr-defined]
    page = old_phone.new_page()
    page.goto(site + "/")
    give_up(page, "phone-10-give-up")
    page.goto(site + "/stats")
    page.click("text=Show a transfer code")
    code = page.inner_text("#transfer-code")

    laptop = browser.new_context(**ZONED_DEVICES["desktop"])  # type: ignore[attr-defined]
    other = laptop.new_page()
    other.goto(site + "/archive/6")
    give_up(other)  # the laptop has a record of its own
    other.goto(site + "/stats")
    other.fill("#code", "WXYZ-2345")
    other.click("text=Use it")
    assert "No player has the code WXYZ-2345" in other.inner_text("#adopt-error")
    shot(other, "desktop-10-wrong-code")
    other.fill("#code", code)
    other.click("text=Use it")
    other.wait_for_selector("text=does not merge the two")
    shot(other, "desktop-11-adopt-question")
    other.click(f"text=Play as {code}")
    other.wait_for_selector(".flash")
    assert "was not merged" in other.inner_text(".flash")
    shot(other, "desktop-12-adopted")
    old_phone.close()
    laptop.close()
