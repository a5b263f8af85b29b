"""The browser tests share the web app's fixtures (a throw-away database, frozen time, a known
puzzle), one way to serve the app on loopback, and one Chromium per test process."""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

import generator
from tests.webapp.conftest import (
    FrozenClock,
    clock,
    database_url,
    known_puzzle,
    make_app,
    postgres_url,
    store,
)

__all__ = [
    "ARGS",
    "ARTIFACTS",
    "CHROMIUM",
    "DESKTOP",
    "DEVICES",
    "PHONE",
    "SEEN_TUTORIAL",
    "ZONED_DEVICES",
    "Browser",
    "accessibility_problems",
    "browser",
    "clock",
    "database_url",
    "known_puzzle",
    "postgres_url",
    "served",
    "site",
]

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium: Playwright's own browser download does not work here."""
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "device_scale_factor": 2,
    "has_touch": True,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
DEVICES = {"phone": PHONE, "desktop": DESKTOP}
"""The screens a page is looked at on, as `new_context` options: a 360 px phone (touch, two pixels
to the point) and a desktop."""
ZONED_DEVICES: dict[str, dict[str, Any]] = {
    "phone": {**PHONE, "timezone_id": "Europe/Rome"},
    "desktop": {"viewport": {"width": 1280, "height": 900}, "timezone_id": "UTC"},
}
"""The same, each in a time zone of its own (a day that turns at another hour), the desktop taller."""
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts"
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core from npm (package.json pins it, `make setup` installs it), injected into the page under test."""


def accessibility_problems(page: object) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):  # type: ignore[attr-defined]
        # evaluated through the DevTools protocol, so the page's own CSP does not apply to it
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")  # type: ignore[attr-defined]
    found = page.evaluate(  # type: ignore[attr-defined]
        """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
            .filter(v => v.impact === 'serious' || v.impact === 'critical')
            .map(v => v.impact + ' ' + v.id + ': '
                + v.nodes.map(n => n.target.join(' ')).slice(0, 4).join(', '))"""
    )
    return list(found)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here drives Chromium: marked `browser`, which `make check` leaves out, and skipped
    where Debian's Chromium or Playwright is missing."""
    here = Path(__file__).resolve().parent
    missing = None
    if not CHROMIUM.exists():
        missing = "needs Debian's chromium (make test installs it)"
    elif importlib.util.find_spec("playwright") is None:
        missing = "needs Playwright (make setup installs it)"
    for item in items:
        if here in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)
            if missing is not None:
                item.add_marker(pytest.mark.skip(reason=missing))


@contextmanager
def served(app: Flask) -> Iterator[str]:
    """The app served on a free loopback port, for as long as the block runs; yields its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=10)


SEEN_TUTORIAL = "try { localStorage.setItem('tavolo-tutorial-seen', 'tests'); } catch (e) {}"
"""Marks the first visit's walkthrough as seen, as a returning player's browser has it."""


class Browser:
    """Chromium, whose new contexts are returning players unless a test asks for a first visit."""

    def __init__(self, chromium: Any) -> None:
        self.chromium = chromium

    def new_context(self, *, first_visit: bool = False, **options: Any) -> Any:
        context = self.chromium.new_context(**options)
        if not first_visit:
            context.add_init_script(SEEN_TUTORIAL)
        return context


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """One Chromium for every module a test process runs: each test opens its own context (cookies,
    storage, viewport), which is what keeps tests apart; launching Chromium again per module only
    cost its start-up, 14 times per run."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield Browser(chromium)
        chromium.close()


@pytest.fixture
def site(database_url: str, clock: FrozenClock, known_puzzle: generator.Puzzle) -> Iterator[str]:
    """The app with the known puzzle as today's (#7), served; a module that needs more overrides it."""
    app: Flask = make_app(database_url, clock)
    store(app, known_puzzle, 7)
    with served(app) as url:
        yield url
