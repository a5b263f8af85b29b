"""When the database or the server is away, a tap on a card says so on the board, in real Chromium.

Screenshots go to artifacts/ for a person to look at.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import make_url
from werkzeug.serving import BaseWSGIServer, make_server

import generator
from tests.browser.conftest import ARTIFACTS, Browser
from tests.webapp.conftest import FrozenClock, make_app, store


@pytest.fixture
def server(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[BaseWSGIServer]:
    if not database_url.startswith("sqlite"):
        pytest.skip("the browser tests run on SQLite")
    app = make_app(database_url, clock, SQLITE_BUSY_MS=200)
    store(app, known_puzzle, 7)
    running = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running
    running.shutdown()
    thread.join(timeout=10)


def tap_a_hand_card_onto_a_new_meld(page: object) -> None:
    card = page.get_attribute("#board .hand .card[data-card]", "data-card")  # type: ignore[attr-defined]
    page.click(f'#board .card[data-card="{card}"]')  # type: ignore[attr-defined]
    page.click("#board .new-meld")  # type: ignore[attr-defined]


def test_the_board_says_when_the_database_or_the_server_is_away(
    browser: Browser, server: BaseWSGIServer, database_url: str
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    base = f"http://127.0.0.1:{server.server_port}"
    context = browser.new_context(viewport={"width": 360, "height": 760})
    try:
        page = context.new_page()
        page.goto(base + "/")
        # another process keeps the database locked longer than a move waits: a 503, shown
        holder = sqlite3.connect(Path(make_url(database_url).database or ""), isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            tap_a_hand_card_onto_a_new_meld(page)
            page.wait_for_selector("#notice .notice-text")
            assert "unavailable for a moment" in page.inner_text("#notice")
            page.screenshot(path=str(ARTIFACTS / "outage-1-database.png"), full_page=True)
        finally:
            holder.rollback()
            holder.close()
        # the database is back: the same tap works
        tap_a_hand_card_onto_a_new_meld(page)
        # the server's board, not the move the page shows before it answers
        page.wait_for_selector("#board:not([aria-busy]) .meld-incomplete")
        assert page.inner_text("#notice").strip() == ""
        # the server itself is gone: no answer at all, and the page says that too
        server.shutdown()
        server.server_close()
        tap_a_hand_card_onto_a_new_meld(page)
        page.wait_for_selector("#notice .notice-text")
        assert "did not answer" in page.inner_text("#notice")
        page.screenshot(path=str(ARTIFACTS / "outage-2-server.png"), full_page=True)
    finally:
        context.close()
