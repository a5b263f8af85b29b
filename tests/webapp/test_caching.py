"""The bounded caches: at most `size` entries, the least recently used dropped first, one per app."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from tests.webapp.conftest import FrozenClock, make_app
from webapp import caching
from webapp.caching import AppCache, BoundedCache, memoised


@pytest.fixture(autouse=True)
def site_caches_only() -> Iterator[None]:
    """The caches these tests declare leave `CACHES` as the site's own."""
    before = list(caching.CACHES)
    yield
    caching.CACHES[:] = before


def test_a_full_cache_drops_the_least_recently_used() -> None:
    cache: BoundedCache[str, int] = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # a is now the most recent
    cache.put("c", 3)
    assert "b" not in cache and cache.get("a") == 1 and cache.get("c") == 3


def test_a_memoised_function_answers_again_from_the_cache() -> None:
    calls: list[int] = []

    @memoised(2, serves="this test: 0 ms")
    def double(number: int) -> int:
        calls.append(number)
        return 2 * number

    assert [double(1), double(1), double(2), double(3), double(1)] == [2, 2, 4, 6, 2]
    assert calls == [1, 2, 3, 1]  # 1 was dropped for 3, the least recently used


def test_each_app_has_its_own_cache(app: Flask, database_url: str, clock: FrozenClock) -> None:
    pages: AppCache[str, str] = AppCache("this test's pages", 4, serves="this test: 0 ms")
    with app.app_context():
        pages().put("/", "page")
        assert pages().get("/") == "page"
    other = make_app(database_url, clock)
    with other.app_context():
        assert pages().get("/") is None
