"""Configuration: defaults in code, then `instance/config.py`, then the environment.

| variable | meaning |
|---|---|
| `DATABASE_URL` | SQLAlchemy URL; `postgres://...` works too. Default: SQLite in `instance/` |
| `SECRET_KEY` | signs cookies; required when `TAVOLO_ENV=production`, else kept in `instance/secret_key` |
| `TAVOLO_DAILY_SECRET` | chooses the daily puzzles; required in production, else in `instance/daily_secret` |
| `TAVOLO_ENV` | `production` (any case): Secure cookies; TAVOLO_BASE_URL, random 32-character secrets |
| `TAVOLO_BASE_URL` | the site's address (`https://tavolo.example`): absolute URLs, the one Host accepted |
| `TAVOLO_LAUNCH_DATE` | the day of puzzle #1 (ISO date) |
| `TAVOLO_PROXIES` | how many proxies in front set X-Forwarded-For (0 by default, 1 behind one) |
| `REDIS_URL` | rate-limit counters and kept answers shared by all workers (default: per process) |
| `TAVOLO_RATE_LIMITS` | `off` turns rate limits off (not the solver budget), for load tests |
| `TAVOLO_LOAD_TEST` | `yes` lets production start with `TAVOLO_RATE_LIMITS=off` (refused otherwise) |
| `TAVOLO_TRANSFER_DAYS` | days a transfer code works once issued (30) |
| `TAVOLO_IDLE_MONTHS` | months (30 days) without an attempt after which a player is removed (13) |
| `TAVOLO_PRACTICE_POOL` | unplayed classic practice puzzles kept per tier (200); other rules a quarter |

Every setting the code reads has its default in `defaults()`, and nowhere else; `instance/config.py`
and a test's config may set any of them.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Mapping
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from puzzles import PRESETS
from webapp.production import ENVIRONMENTS as ENVIRONMENTS
from webapp.production import MAKE_SECRET, environment_name, refusal
from webapp.production import SettingsError as SettingsError
from webapp.production import check_environment as check_environment
from webapp.production import check_rate_limits as check_rate_limits

PROJECT_ROOT = Path(__file__).resolve().parent.parent
LAUNCH_DATE = date(2026, 11, 23)
"""The default day of puzzle #1 (a Monday, so the first week ramps from Easy)."""


def utc_now() -> datetime:
    return datetime.now(UTC)


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "ENV_NAME": "development",
        "DATABASE_URL": f"sqlite:///{Path(instance_path) / 'tavolo.sqlite3'}",
        # how long an SQLite writer waits for another's lock before the request is a 503
        "SQLITE_BUSY_MS": 10_000,
        "SECRET_KEY": None,
        # which puzzle each day gets, and the generator's seed when the pool has none (see `days.day_digest`)
        "DAILY_SECRET": None,
        "LAUNCH_DATE": LAUNCH_DATE,
        "NOW": utc_now,
        # the schedule: the daily preset, how far ahead the clock publishes, the generator's limit
        "DAILY_RULES": "classic",
        "PUBLISH_AHEAD_DAYS": 7,
        "GENERATE_TIME_LIMIT": 2.0,
        # `flask puzzles rescore`: seconds to grade one stored puzzle again
        "RESCORE_TIME_LIMIT": 20.0,
        # practice: unplayed puzzles kept per preset and tier, and how long one fill may run
        "PRACTICE_POOL": practice_pool(200),
        "PRACTICE_FILL_SECONDS": 300.0,
        # a turn: the step check's and a hint's solve limits, a timed turn's seconds (the German rules')
        "STEP_TIME_LIMIT": 0.3,
        "HINT_TIME_LIMIT": 1.0,
        # seconds a page waits for the key ideas of a puzzle stored without them (`ideas_of`)
        "KEY_IDEAS_TIME_LIMIT": 0.3,
        "TURN_SECONDS": 120,
        # the analyser: each solve's limit, which is also the most /api/solve may ask for
        "SOLVE_TIME_LIMIT": 2.0,
        # the solver gate (solver_gate.py): solving threads and queued solves per process, together
        # fewer than a worker's threads (GUNICORN_THREADS, 3) so that pages always find one free
        "SOLVER_SLOTS": 1,
        "SOLVER_QUEUE": 1,
        # an answer the solver could not prove is kept this long: a repeat costs nothing, and a
        # quieter machine may prove it later
        "UNPROVEN_KEEP_SECONDS": 600.0,
        # a proven answer in the shared cache (Redis, every worker) this long; in each process's
        # own cache until evicted
        "PROVEN_KEEP_SECONDS": 7 * 24 * 3600.0,
        # Redis for the answers every worker shares (REDIS_URL sets it); None: each process keeps its own
        "ANSWER_CACHE_URL": None,
        "NODE_MODULES": str(PROJECT_ROOT / "node_modules"),
        "PROXIES": 0,
        # where the site is reached, `https://tavolo.example`: every absolute URL (link previews, the
        # API's `url`, challenge links) starts with it, and a request naming another host is a 400.
        # Required in production; without it, absolute URLs follow the request's Host header
        "BASE_URL": None,
        # hosts a request may name; None for any. Set from BASE_URL's host unless set here
        "TRUSTED_HOSTS": None,
        "MAX_CONTENT_LENGTH": 32 * 1024,
        # Flask-Compress packs the files a page loads and the JSON answers, never a page: an HTML
        # page holds the CSRF token beside text from the URL, which compression would leak (BREACH)
        "COMPRESS_MIMETYPES": ["text/css", "text/javascript", "image/svg+xml", "application/json"],
        "COMPRESS_ALGORITHM": ["br", "gzip"],
        "COMPRESS_ALGORITHM_STREAMING": ["br", "deflate"],
        "SESSION_COOKIE_NAME": "tavolo",
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": False,
        "PERMANENT_SESSION_LIFETIME": timedelta(days=400),
        # a tab left open overnight must still be able to move a card
        "WTF_CSRF_TIME_LIMIT": None,
        # on unless TAVOLO_RATE_LIMITS=off; said here, since Flask-Limiter's one limiter keeps the last
        # app's choice as the next one's default
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": "memory://",
        # Redis down: count in each process's memory until it is back (security.py), answering at
        # once rather than waiting on a dead server
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        # a request whose call to Redis fails after another thread has switched to memory: Flask-Limiter
        # falls back only for the first, and would answer the others 500 (seen in bench/rush.py)
        "RATELIMIT_SWALLOW_ERRORS": True,
        "RATELIMIT_STORAGE_OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
        # no X-RateLimit-* headers on every answer: reading the window for them cost every limited
        # request two more calls to Redis (a step POST: 3 to 1); a 429 still says when to come back
        # (Retry-After, webapp.errors)
        "RATELIMIT_HEADERS_ENABLED": False,
        "STEP_RATE_LIMIT": "120 per minute",
        "CHECK_RATE_LIMIT": "60 per minute",
        # per client address, counted whether the answer was kept or solved (a kept /analyse page still
        # costs its rendering): the analyser page and /api/solve together, and hints. The page asks on
        # submit only (typing asks nothing), so an honest player asks a few a minute: a position, the
        # other objective, a typo fixed; and at most 3 hints a puzzle, a puzzle every few minutes
        "ANALYSE_RATE_LIMIT": "30 per minute; 300 per hour",
        "HINT_RATE_LIMIT": "12 per minute",
        # real play: only a player whose record is this many days old, with this many finished
        # attempts, moves a puzzle's rating and counts in how everyone did (players/crowd.py)
        "REAL_PLAY_DAYS": 2,
        "REAL_PLAY_FINISHED": 3,
        # solver seconds per client address: the analyser page, its play view, /api/solve and hints
        # together; each solve is charged what it took, at least SOLVE_LEAST_CHARGE seconds
        "SOLVE_SECONDS_LIMIT": "20 per minute",
        "SOLVE_LEAST_CHARGE": 0.1,
        # a code is 8 characters from 32: a guess in 10^12, and few guesses a minute
        "TRANSFER_RATE_LIMIT": "10 per minute",
        # starting a rush or a streak writes a run and deals a puzzle: a run takes minutes, so a
        # player starts a few an hour; the moves inside a run count against STEP_RATE_LIMIT
        "RUN_RATE_LIMIT": "10 per minute",
        # friends' tables: making, joining, leaving and replacing links, a few a day for an honest player
        "FRIENDS_RATE_LIMIT": "20 per minute",
        # pages whose cost grows with a player's data (page_cost.py): requests, and CPU seconds measured
        # per page, each per client address and per player. An honest player looks at their stats or a
        # friends' table a few times a minute; 3,000 attempts cost /stats 0.03 s of CPU, the export 0.08 s
        "PAGE_RATE_LIMIT": "12 per minute; 300 per hour",
        "PAGE_SECONDS_LIMIT": "2 per minute",
        # the export is the whole record, a file to keep: a few a day
        "EXPORT_RATE_LIMIT": "2 per minute; 20 per day",
        # attempts and runs in each part of the export (`?part=`; the first part alone counts against
        # EXPORT_RATE_LIMIT): a part of 1,000 costs about what the whole export of 1,000 attempts did
        "EXPORT_PAGE_SIZE": 1000,
        "PAGE_COST_METER": time.thread_time,
        "FRIENDS_GROUPS_MOST": 20,
        # production with the rate limits off: only for a load test that says so (TAVOLO_LOAD_TEST=yes)
        "LOAD_TEST": False,
        # a transfer code works this many days once issued
        "TRANSFER_DAYS": 30,
        # a player with no attempt begun or finished for this many months (of 30 days) is removed, with
        # their attempts, runs, codes and places at friends' tables (players/pruning.py, the clock daily)
        "IDLE_PLAYER_MONTHS": 13,
        "FRIENDS_MEMBERS_MOST": 50,
    }


def from_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    config: dict[str, Any] = {}
    if environ.get("TAVOLO_ENV"):
        config["ENV_NAME"] = environment_name(environ["TAVOLO_ENV"])
        config["SESSION_COOKIE_SECURE"] = config["ENV_NAME"] == "production"
    for variable, key in (
        ("DATABASE_URL", "DATABASE_URL"),
        ("SECRET_KEY", "SECRET_KEY"),
        ("TAVOLO_DAILY_SECRET", "DAILY_SECRET"),
        ("TAVOLO_BASE_URL", "BASE_URL"),
    ):
        if environ.get(variable):
            config[key] = environ[variable]
    if environ.get("REDIS_URL"):
        config["RATELIMIT_STORAGE_URI"] = environ["REDIS_URL"]
        config["ANSWER_CACHE_URL"] = environ["REDIS_URL"]
    if environ.get("TAVOLO_LAUNCH_DATE"):
        try:
            config["LAUNCH_DATE"] = date.fromisoformat(environ["TAVOLO_LAUNCH_DATE"])
        except ValueError:
            raise SettingsError(
                f"TAVOLO_LAUNCH_DATE {environ['TAVOLO_LAUNCH_DATE']!r} is not a date"
            ) from None
    switch = environ.get("TAVOLO_RATE_LIMITS", "").strip().lower()
    if switch not in ("", "on", "off"):
        raise SettingsError(f"TAVOLO_RATE_LIMITS {environ['TAVOLO_RATE_LIMITS'][:20]!r} is not on or off")
    if switch == "off":  # for load tests from one address
        config["RATELIMIT_ENABLED"] = False
    if environ.get("TAVOLO_LOAD_TEST"):
        config["LOAD_TEST"] = environ["TAVOLO_LOAD_TEST"].strip().lower() == "yes"
    for variable, key, unit in (
        ("TAVOLO_TRANSFER_DAYS", "TRANSFER_DAYS", "days"),
        ("TAVOLO_IDLE_MONTHS", "IDLE_PLAYER_MONTHS", "months"),
    ):
        text = environ.get(variable, "")
        if text and (not text.isdigit() or int(text) < 1):
            raise SettingsError(f"{variable} must be a whole number of {unit}, 1 or more")
        if text:
            config[key] = int(text)
    if environ.get("TAVOLO_PRACTICE_POOL"):
        if not environ["TAVOLO_PRACTICE_POOL"].isdigit():
            raise SettingsError("TAVOLO_PRACTICE_POOL must be a whole number of puzzles per tier")
        config["PRACTICE_POOL"] = practice_pool(int(environ["TAVOLO_PRACTICE_POOL"]))
    if environ.get("TAVOLO_PROXIES"):
        if not environ["TAVOLO_PROXIES"].isdigit():
            raise SettingsError("TAVOLO_PROXIES must be a whole number of proxies")
        config["PROXIES"] = int(environ["TAVOLO_PROXIES"])
    return config


def base_url(config: dict[str, Any]) -> str | None:
    """The configured base URL, checked, with `TRUSTED_HOSTS` set to its host unless set already;
    production refuses to start without one (its absolute URLs must not follow a Host header)."""
    text = config.get("BASE_URL")
    if not text:
        if config.get("ENV_NAME") == "production":
            raise SettingsError("TAVOLO_BASE_URL is not set: production refuses to start without one")
        return None
    parts = urlsplit(str(text))
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path.strip("/") or parts.query:
        raise SettingsError(
            f"TAVOLO_BASE_URL {str(text)[:60]!r} is not a site's address like https://tavolo.example"
        )
    origin = f"{parts.scheme}://{parts.netloc}"
    config["BASE_URL"] = origin
    if config.get("TRUSTED_HOSTS") is None:
        config["TRUSTED_HOSTS"] = [parts.hostname]
    return origin


def practice_pool(classic: int) -> dict[str, int]:
    """Unplayed puzzles to keep per tier: `classic` for the daily preset, a quarter for the others."""
    return {name: classic if name == "classic" else max(classic // 4, 1) for name in PRESETS}


def secret_key(config: Mapping[str, Any], instance_path: str) -> str:
    """The configured key; or, outside production, one generated once and kept in the instance folder."""
    return _secret(config, "SECRET_KEY", "SECRET_KEY", Path(instance_path) / "secret_key")


def daily_secret(config: Mapping[str, Any], instance_path: str) -> str:
    """The secret that chooses the daily puzzles, kept like the secret key: whoever holds the code and
    the pool still cannot tell which puzzle a future day gets. In production it must differ from the
    secret key: one leaked would give away the other's use too."""
    value = _secret(config, "DAILY_SECRET", "TAVOLO_DAILY_SECRET", Path(instance_path) / "daily_secret")
    key = config.get("SECRET_KEY")
    if config.get("ENV_NAME") == "production" and key and str(key).strip() == value.strip():
        raise SettingsError(
            f"TAVOLO_DAILY_SECRET is the same as SECRET_KEY: production needs two {MAKE_SECRET}"
        )
    return value


def _secret(config: Mapping[str, Any], key: str, variable: str, path: Path) -> str:
    production = config.get("ENV_NAME") == "production"
    if config.get(key):
        value = str(config[key])
        # spaces and line ends (a key pasted from a file) count for nothing: 40 spaces are no secret
        kept = value.strip()
        problem = refusal(variable, kept) if production else None
        if problem is not None:
            raise SettingsError(problem)
        return value
    if production:
        raise SettingsError(f"{variable} is not set: production refuses to start without one")
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another worker wrote it first
            pass
        else:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32))
    return path.read_text().strip()
