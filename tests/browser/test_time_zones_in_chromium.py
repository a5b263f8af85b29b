"""The player's day in real Chromium: the page's own script writes the `tz` cookie (percent-encoded,
as `encodeURIComponent` does), and the server reads it, east and west of UTC."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from flask import Flask

import generator
from tests.browser.conftest import accessibility_problems, served
from tests.webapp.conftest import FrozenClock, make_app, store, variant


@pytest.fixture
def two_days(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """#7 on Sunday 29 November 2026 and #8 on Monday the 30th, served."""
    app: Flask = make_app(database_url, clock)
    store(app, known_puzzle, 7)
    store(app, variant(known_puzzle, "3D", "hard", "cy3"), 8)
    with served(app) as url:
        yield url


@pytest.mark.parametrize(
    ("zone", "moment", "number", "written"),
    [
        # 04:23 on Monday in Tokyo, still Sunday evening in UTC
        ("Asia/Tokyo", datetime(2026, 11, 29, 19, 23, tzinfo=UTC), 8, "Asia%2FTokyo"),
        # 20:00 on Sunday in Los Angeles, already Monday in UTC
        ("America/Los_Angeles", datetime(2026, 11, 30, 4, 0, tzinfo=UTC), 7, "America%2FLos_Angeles"),
    ],
)
def test_the_cookie_the_page_writes_gives_the_players_own_day(
    browser: object, two_days: str, clock: FrozenClock, zone: str, moment: datetime, number: int, written: str
) -> None:
    clock.moment = moment
    context = browser.new_context(viewport={"width": 360, "height": 740}, timezone_id=zone)  # type: ignore[attr-defined]
    page = context.new_page()
    page.clock.set_fixed_time(moment)
    page.goto(two_days + "/")
    # the first answer guessed UTC; the script wrote the cookie and reloaded once
    page.wait_for_function("n => document.querySelector('.bar .number').textContent === '#' + n", arg=number)
    [cookie] = [c for c in context.cookies() if c["name"] == "tz"]
    assert cookie["value"] == written
    assert cookie["httpOnly"] is False and cookie["sameSite"] == "Lax"
    assert cookie["secure"] is False  # plain HTTP: a Secure cookie would never come back
    # the next visit is right from the first answer, with no reload
    page.evaluate("sessionStorage.clear()")
    page.goto(two_days + "/")
    assert page.inner_text(".bar .number") == f"#{number}"
    assert page.get_attribute("#board", "data-tz") == zone
    assert accessibility_problems(page) == []
    context.close()


def test_over_https_the_page_writes_a_secure_cookie(browser: object, two_days: str) -> None:
    """Served over HTTPS (here a name routed to the test server), the script marks its cookie Secure,
    as the server marks its own in production."""
    site = "https://tavolo.test"
    context = browser.new_context(viewport={"width": 360, "height": 740}, timezone_id="Asia/Tokyo")  # type: ignore[attr-defined]
    context.route(
        site + "/**",
        lambda route: route.fulfill(response=route.fetch(url=route.request.url.replace(site, two_days, 1))),
    )
    page = context.new_page()
    page.goto(site + "/")
    page.wait_for_function("() => document.cookie.indexOf('tz=') >= 0")
    [cookie] = [c for c in context.cookies() if c["name"] == "tz"]
    assert (cookie["value"], cookie["secure"], cookie["domain"]) == ("Asia%2FTokyo", True, "tavolo.test")
    # the script reloads once it has written the cookie; closing while the routed reload is still
    # being fetched disposes its response, and Playwright raises that in whichever test runs next
    page.wait_for_selector('#board[data-tz="Asia/Tokyo"]')
    context.unroute_all(behavior="wait")
    context.close()
