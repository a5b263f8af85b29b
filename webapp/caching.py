"""Bounded caches, one helper for all of them; each says which measured figure it is kept for.

Two kinds. `memoised(size, serves=...)` keeps the answers of a function of hashable arguments for the
whole process (`functools.lru_cache` underneath). `AppCache(name, size, serves=...)` keeps values for
one app, in `app.extensions`, for what depends on the app's database or settings: a test's fresh app
starts with an empty one. Both hold at most `size` entries and forget the least recently used first.
`CACHES` lists them all, with their figures. A cache is kept only where it saves 2 ms or more on a
request. The engine keeps two of its own, with `functools.lru_cache` and their figures beside them
(`puzzles._progress`, the step check's verdict, and `puzzles._hints`, the hint's final table;
`bench/caches.py` times both warm and cold).

The figures: the mean time of a request with the Flask test client (one thread, SQLite, the tests'
known puzzle) on the 2-core development machine, shared with other work; with the cache warm, and
with it turned off.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

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
