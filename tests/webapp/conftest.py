"""Fixtures: the app on a throw-away database, frozen time, a known puzzle, and a player's client.

The database is SQLite in a temporary folder, or the PostgreSQL server named by
TAVOLO_TEST_DATABASE_URL (scripts/test-postgres.sh starts one), emptied before each test.
"""

from __future__ import annotations

import atexit
import itertools
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, ClassVar

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import create_engine, make_url, select, text
from werkzeug.routing.rules import Rule

import generator
from puzzles import Position
from webapp import Tavolo, create_app, models
from webapp.db import database, engine_url
from webapp.models import Base
from webapp.schedule import days, pool
from webapp.schedule.days import Calendar
from webapp.templating import JINJA_OPTIONS


class AttributeChecked(jinja2.Undefined):
    """Jinja's undefined, but an attribute an object lacks fails at once: a template naming a field a
    class no longer has (a rename missed) would otherwise draw nothing, and a page read a wrong
    sentence. A name not passed, or a key not in a dict, stays undefined, as the templates expect."""

    def __init__(
        self,
        hint: str | None = None,
        obj: object = jinja2.utils.missing,
        name: str | None = None,
        exc: type[jinja2.exceptions.TemplateRuntimeError] = jinja2.exceptions.UndefinedError,
    ) -> None:
        if obj is not jinja2.utils.missing and obj is not None and not isinstance(obj, dict):
            raise jinja2.exceptions.UndefinedError(f"{type(obj).__name__} has no attribute {name!r}")
        super().__init__(hint, obj, name, exc)


# every app the tests make, the browser's too, draws its pages so
JINJA_OPTIONS["undefined"] = AttributeChecked

LAUNCH = date(2026, 11, 23)
"""A Monday: puzzle #7 is Sunday 29 November 2026."""
NOON = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
TODAY = 7

FUZZ_EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
"""Examples per web fuzz test: `make check` asks for fewer, `make test` runs them all."""

KNOWN = "classic | 10H 10D 10S / JH JD JS / QH QD QC / 4C 5C 6C 7C | 9S QD QS 8C KH 2D"
"""Five cards to place (9♠ Q♦ Q♠ 8♣ K♥), the 2♦ never; three sets must become runs (depth 3)."""


class FrozenClock:
    """The app's NOW: a moment that only moves when a test moves it."""

    def __init__(self, moment: datetime) -> None:
        self.moment = moment

    def __call__(self) -> datetime:
        return self.moment


@pytest.fixture(scope="session")
def known_puzzle() -> generator.Puzzle:
    return generator.puzzle_of("cz1", Position.parse(KNOWN), time_limit=20)


def variant(
    puzzle: generator.Puzzle, decoy: str, tier: str, code: str, themes: tuple[str, ...] = ()
) -> generator.Puzzle:
    """The known puzzle with other decoy cards: a different puzzle for the pool, in microseconds.

    Only the schedule reads a variant's claims (tier, code, themes), so they are not proved. With no
    themes, it has no main theme, so the schedule may put it beside any other."""
    hand = (*(card for card in puzzle.hand if card != "2D"), *decoy.split())
    return replace(
        puzzle,
        id=code,
        hand=hand,
        tier=tier,
        themes=themes,
        hand_size=len(hand),
        decoys=len(hand) - len(puzzle.laid),
    )


OTHER_MELDS = (
    ("4C", "5C", "6C"),
    ("5C", "6C", "7C"),
    ("10S", "10H", "10D", "10C"),
    ("JS", "JH", "JD", "JC"),
    ("QS", "QH", "QD", "QC"),
)


def unlike_known(puzzle: generator.Puzzle, which: int = 0) -> generator.Puzzle:
    """A variant with one meld of the known table laid otherwise (`OTHER_MELDS[which]`), so that
    the schedule does not take it for a near-duplicate of the other variants (they share all four
    melds). Only the schedule reads it: its claims stay the known puzzle's."""
    other = OTHER_MELDS[which]
    table = tuple(other if len(set(meld) & set(other)) >= 2 else meld for meld in puzzle.table)
    assert table != puzzle.table
    return replace(puzzle, table=table)


DAILY_SECRET = "test daily secret"


def daily_seed(number: int, attempt: int = 0) -> int:
    """The generator's seed for a day under the tests' daily secret."""
    return days.daily_seed(days.day_digest(DAILY_SECRET, number), attempt)


DECOYS = ("2H", "3D", "3H", "AD", "AH", "5S", "5H", "2S", "3S", "4D", "4H", "4S", "5D", "6D", "6H", "6S")
DECOY_PAIRS = list(itertools.combinations(DECOYS, 2))


@pytest.fixture
def fake_generator(monkeypatch: pytest.MonkeyPatch, known_puzzle: generator.Puzzle) -> list[tuple[str, int]]:
    """Replace the generator with an instant one; returns the (tier, seed) of every call."""
    calls: list[tuple[str, int]] = []

    def make(rules: str, tier: str | None = None, seed: int = 0, time_limit: float = 2.0) -> generator.Puzzle:
        calls.append((tier or "any", seed))
        decoy = " ".join(DECOY_PAIRS[seed % len(DECOY_PAIRS)])
        return variant(known_puzzle, decoy, tier or "hard", f"cy{seed}")

    monkeypatch.setattr("webapp.schedule.pool.make_puzzle", make)
    return calls


@pytest.fixture
def distinct_generator(
    fake_generator: list[tuple[str, int]], monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, int]]:
    """The instant generator, its tables laid six ways no two of which are near-duplicates, for the
    tests of a pool that leaves near-duplicates out (the practice top-up)."""
    same_table = pool.make_puzzle

    def make(rules: str, tier: str | None = None, seed: int = 0, time_limit: float = 2.0) -> generator.Puzzle:
        made = same_table(rules, tier, seed, time_limit)
        which = seed % (len(OTHER_MELDS) + 1)
        return made if which == len(OTHER_MELDS) else unlike_known(made, which)

    monkeypatch.setattr("webapp.schedule.pool.make_puzzle", make)
    return fake_generator


@pytest.fixture
def clock() -> FrozenClock:
    return FrozenClock(NOON)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On PostgreSQL, only the tests that reach the database: a test that asks for no database (pure
    rules, templates, words, command-line parsing) runs the same code on either engine and has
    already passed in the SQLite run, so `make test` would only run it twice (issue 22)."""
    if not os.environ.get("TAVOLO_TEST_DATABASE_URL"):
        return
    kept, left = [], []
    for item in items:
        (kept if "postgres_url" in getattr(item, "fixturenames", ()) else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


@pytest.fixture(scope="session")
def postgres_url() -> str | None:
    """This test process's own PostgreSQL database, or None on SQLite.

    Under pytest-xdist each worker gets a database of its own on the one server (tavolo_gw0, ...), so
    emptying it before a test never pulls tables from under another worker's test."""
    url = os.environ.get("TAVOLO_TEST_DATABASE_URL")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    server = make_url(url)
    name = f"{server.database}_{worker}"
    engine = create_engine(engine_url(url), isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        if connection.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}) is None:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return server.set(database=name).render_as_string(hide_password=False)


def empty_database(folder: Path, postgres_url: str | None) -> str:
    """A database with nothing in it: a new SQLite file's name in `folder`, or this process's
    PostgreSQL database emptied."""
    url = postgres_url
    if not url:
        return f"sqlite:///{folder / 'test.sqlite3'}"
    engine = create_engine(engine_url(url))
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    return url


@pytest.fixture
def database_url(tmp_path: Path, postgres_url: str | None) -> str:
    return empty_database(tmp_path, postgres_url)


@pytest.fixture(scope="module")
def module_database_url(tmp_path_factory: pytest.TempPathFactory, postgres_url: str | None) -> str:
    """One empty database for a whole module, for the tests that share a server they started: a test
    process runs one module's tests one after another, so no other test empties it meanwhile."""
    return empty_database(tmp_path_factory.mktemp("module"), postgres_url)


class KeptBuilderRule(Rule):
    """Werkzeug's URL rule, whose builders are compiled once per test process rather than once per app.

    Werkzeug compiles Python source twice for each of the app's 90 rules when an app is built: 90 ms
    of CPU per app against 17 to 21 with this cache (20 apps each way, twice, issue 22), and 484
    tests ask for the `app` fixture alone, so without it a run spends more than 30 s of CPU, 15 s of
    `make check`'s 90 on 2 cores, compiling the same routes again. Werkzeug has no public switch for
    it: `Map.add` binds each rule, and binding runs the public `Rule.compile`, which parses the rule
    and builds both builders in one go; the other way round, one `Map` shared by the apps, would
    have to fill its private rule lists. Flask's public `url_rule_class` hook lets the tests' apps
    use this rule class instead of patching Werkzeug's own, which the site and other programs keep.
    The builder is a function of the rule's parsed parts and defaults alone (it reads converters
    through the rule it is bound to), so equal keys give equal builders. Should Werkzeug rename the
    method, the cache stops applying and the tests only get slower."""

    _builders: ClassVar[dict[tuple[Any, ...], Any]] = {}

    def _compile_builder(self, append_unknown: bool = True) -> Any:
        key = (self.rule, tuple(self._trace), tuple(sorted((self.defaults or {}).items())), append_unknown)
        builder = self._builders.get(key)
        if builder is None:
            builder = self._builders[key] = super()._compile_builder(append_unknown)
        return builder


# the tests' apps only: `Tavolo` is the project's own Flask class
Tavolo.url_rule_class = KeptBuilderRule

_EMPTY_SCHEMA: list[Path] = []
"""This process's SQLite file holding the models' empty tables, once made."""


def empty_schema() -> Path:
    """A SQLite file with the models' tables and no rows, made once per test process: copying it
    takes 0.1 ms where `create_all` takes 60 ms, and most tests build an app."""
    if not _EMPTY_SCHEMA:
        folder = tempfile.mkdtemp(prefix="tavolo-schema-")
        atexit.register(shutil.rmtree, folder, True)
        path = Path(folder) / "empty.sqlite3"
        engine = create_engine(f"sqlite:///{path}")
        Base.metadata.create_all(engine)
        engine.dispose()
        _EMPTY_SCHEMA.append(path)
    return _EMPTY_SCHEMA[0]


def make_app(database_url: str, clock: FrozenClock, **config: Any) -> Flask:
    url = make_url(database_url)
    fresh = url.get_backend_name() == "sqlite" and bool(url.database) and not Path(str(url.database)).exists()
    if fresh:
        shutil.copyfile(empty_schema(), str(url.database))
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "test secret",
            "DAILY_SECRET": DAILY_SECRET,
            "NOW": clock,
            "LAUNCH_DATE": LAUNCH,
            "RATELIMIT_ENABLED": False,
            # generous: a loaded machine must not change what the solver proves (and the solver gate
            # runs request-path solves at nice 10, so two busy processes slow them tenfold)
            "GENERATE_TIME_LIMIT": 60.0,
            "STEP_TIME_LIMIT": 60.0,
            "HINT_TIME_LIMIT": 60.0,
            "KEY_IDEAS_TIME_LIMIT": 60.0,
            "SOLVE_TIME_LIMIT": 60.0,
            # every finished attempt is real play, as before the rule: the tests of ratings and crowd
            # figures count a few fresh players; tests/webapp/players/test_real_play.py tests the rule
            "REAL_PLAY_DAYS": 0,
            "REAL_PLAY_FINISHED": 1,
            **config,
        }
    )
    if not fresh:
        with app.app_context():
            Base.metadata.create_all(database().engine)
    return app


@pytest.fixture
def app(database_url: str, clock: FrozenClock) -> Iterator[Flask]:
    app = make_app(database_url, clock)
    yield app
    with app.app_context():
        database().dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


def store(app: Flask, puzzle: generator.Puzzle, number: int | None = None) -> int:
    """Put a puzzle in the pool, and on day `number` if given; returns its row id."""
    with app.app_context(), database().write() as session:
        row, _ = pool.add(session, puzzle, NOON)
        if number is not None:
            session.add(
                models.Daily(number=number, day=Calendar(LAUNCH).day(number), puzzle=row, published=NOON)
            )
        return row.id


@pytest.fixture
def published(app: Flask, known_puzzle: generator.Puzzle) -> int:
    """The known puzzle as today's (#7); returns its number."""
    store(app, known_puzzle, TODAY)
    return TODAY


def csrf_token(client: FlaskClient, path: str = "/help") -> str:
    page = client.get(path).get_data(as_text=True)
    match = re.search(r'<meta name="csrf-token" content="([^"]+)"', page)
    assert match, "every page carries the CSRF token"
    return match.group(1)


class Player:
    """A browser as htmx drives it: HX-Request and the CSRF token on every POST."""

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.token = csrf_token(client)

    def post(self, path: str, htmx: bool = True, **form: str) -> Any:
        headers = {"X-CSRFToken": self.token}
        if htmx:
            headers["HX-Request"] = "true"
        return self.client.post(path, data=form, headers=headers)

    def move(self, number: int, card: str, to: str, seen_at: str | None = None) -> Any:
        form = {"card": card, "to": to}
        if seen_at is not None:
            form["from"] = seen_at
        return self.post(f"/puzzles/{number}/move", **form)


@pytest.fixture
def player(client: FlaskClient) -> Player:
    return Player(client)


def attempts(app: Flask) -> list[tuple[str, list[list[str]], str, int]]:
    """Every stored attempt as (player, table, status, moves): to show that a refusal stored nothing."""
    with app.app_context(), database().reader() as session:
        rows = session.scalars(select(models.PlayerAttempt).order_by(models.PlayerAttempt.id))
        return [(row.player_id, row.melds, row.status, row.moves) for row in rows]
