"""Bounded caches, one helper for all of them; each says which measured figure it is kept for.

Three kinds. `memoised(size, serves=...)` keeps the answers of a function of hashable arguments for the
whole process (`functools.lru_cache` underneath). `AppCache(name, size, serves=...)` keeps values for
one app, in `app.extensions`, for what depends on the app's database or settings: a test's fresh app
starts with an empty one. Both hold at most `size` entries and forget the least recently used first.
`SharedCache(name, serves=...)` keeps values in Redis (`ANSWER_CACHE_URL`, set from `REDIS_URL`) for
every worker, each for a time it is given; without Redis, or while Redis cannot be reached, it keeps
nothing and says so once in the log, and callers keep their own `AppCache` in front of it.
`CACHES` lists them all, with their figures. A cache is kept only where it saves 2 ms or more on a
request, or where another issue's figure rests on it (the kept answers, the refusals kept for a
flood). The engine keeps its own with `functools`, their figures beside them: `puzzles._progress`
(the step check's verdict), `puzzles._hints` (the hint's final table), `puzzles._candidates._piece_types`
(the rules' pieces, which every model starts from), and six solver caches of candidates and
keepings, each under 2 ms of a request but kept together for the full analysis, issue 20's figure
(`bench/caches.py`).

The figures: `bench/web_caches.py`, each cache timed on the request it serves through the Flask test
client (one thread, SQLite), with and without it alternating, in mean CPU milliseconds, on the 2-core
development machine shared with other work.
"""

from __future__ import annotations

import functools
import logging
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

import redis
from flask import current_app

F = TypeVar("F", bound=Callable[..., Any])
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class CacheInfo:
    """One cache of the site: where it is, how many entries it keeps, and what it was measured to save."""

    name: str
    size: int
    serves: str


CACHES: list[CacheInfo] = []
"""Every cache declared through this module, in the order the modules were imported."""


def memoised(size: int, serves: str) -> Callable[[F], F]:
    """Cache a function's answers for the whole process, `size` of them at most."""

    def decorate(function: F) -> F:
        CACHES.append(CacheInfo(f"{function.__module__}.{function.__qualname__}", size, serves))
        return cast(F, functools.lru_cache(maxsize=size)(function))

    return decorate


class BoundedCache(Generic[K, V]):
    """A mapping that keeps at most `size` entries, dropping the least recently used; thread-safe."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def __contains__(self, key: object) -> bool:
        with self._lock:
            return key in self._entries

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


class AppCache(Generic[K, V]):
    """A bounded cache per app: `CACHE()` is the current app's."""

    def __init__(self, name: str, size: int, serves: str) -> None:
        self.key = f"tavolo.cache.{name}"
        self.size = size
        CACHES.append(CacheInfo(name, size, serves))

    def __call__(self) -> BoundedCache[K, V]:
        extensions = current_app.extensions
        cache = extensions.get(self.key)
        if cache is None:
            cache = extensions.setdefault(self.key, BoundedCache[K, V](self.size))
        return cast(BoundedCache[K, V], cache)


log = logging.getLogger("tavolo.caching")


class SharedCache:
    """Values pickled in Redis under `tavolo:<name>:`, shared by every worker process.

    Pickled, so only ever read back from the site's own Redis, which holds the rate limits' counts
    too: whoever can write there can already do worse."""

    def __init__(self, name: str, serves: str) -> None:
        self.prefix = f"tavolo:{name}:"
        self.key = f"tavolo.redis.{name}"
        CACHES.append(CacheInfo(f"{name} (Redis)", 0, serves))

    def _client(self) -> redis.Redis | None:
        url = current_app.config.get("ANSWER_CACHE_URL")
        if not url:
            return None
        client = current_app.extensions.get(self.key)
        if client is None:
            client = current_app.extensions.setdefault(
                self.key, redis.Redis.from_url(str(url), socket_timeout=0.5, socket_connect_timeout=0.5)
            )
        return cast(redis.Redis, client)

    def get(self, key: str) -> Any | None:
        client = self._client()
        if client is None:
            return None
        try:
            data = client.get(self.prefix + key)
        except redis.RedisError as error:
            _unreachable(error)
            return None
        return None if data is None else pickle.loads(cast(bytes, data))  # our own Redis only

    def put(self, key: str, value: Any, seconds: float) -> None:
        client = self._client()
        if client is None:
            return
        try:
            client.set(self.prefix + key, pickle.dumps(value), ex=max(int(seconds), 1))
        except redis.RedisError as error:
            _unreachable(error)


_said: list[bool] = []


def _unreachable(error: Exception) -> None:
    # once per process: a dead Redis would otherwise fill the log with a line per request
    if not _said:
        _said.append(True)
        log.warning("shared cache: Redis unreachable, each process keeps its own (%s)", type(error).__name__)
