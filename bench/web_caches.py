"""Every cache a request reaches, each timed on that request through the app's test client, with and
without it.

    .venv/bin/python bench/web_caches.py [--rounds 200] [--only WORD]

One process, one thread, SQLite, the tests' known puzzle as today's (tests/webapp/conftest.py). Each
round sends the request once with the cache as the site runs it and once without it, alternating
(and which goes first alternates too), and the figure is the mean CPU milliseconds
(`time.process_time`, which counts the solver's threads) of each: CPU, not wall time, because the
machine is shared. Without means emptied just before the request, or for the engine's `lru_cache`s
bypassed (the function it wraps, in every engine module that names it: the request as it would run
with the cache removed, repeats inside the request included). What both sides must share (a fresh
player, the answers other caches keep) is set up before each request, untimed. Solver answers are
timed on the request a repeat visitor makes (the same position again), where the saving is the solve,
under the site's own time limits; `--rounds` is divided by 10 for requests that solve. Printed, never
asserted. A cache stays only where it saves 2 ms or more on its request (issue 22), or buys a figure
another issue asks for (the kept answers: `make run`'s throughput, issue 23; the refusals kept for a
flood: the flood's `GET /` p95, bench/flood.py); the figures stand beside each cache in its module. A
cache found wanting is gone and prints so: to time it again, run this script on an older checkout
(`PYTHONPATH=...`).

- kept answers (WSGI): a new visitor's `GET /` (no cookie), answered by `webapp.kept_answers`,
  against the same request through Flask.
- refused early (`refused`, `pages`): a flood's refused `GET /analyse` (no cookie, rate limits on,
  the address past its limit), in front of Flask, against each of the two emptied.
- `turn.rendering.UNTOUCHED_PAGES`: a newcomer's `GET /` through Flask (the kept answers bypassed).
- `players.crowd.CROWDS`: `GET /` of a player who gave up today's puzzle (its result card), 2,000
  other finished attempts stored.
- `analyser.solving`, on real-game tables (bench/corpus.py, classic, one a round): `SETTLED` on the
  analysis page asked again (the whole analysis and the rendered page dropped on both sides: the page
  draws the settled part), `ANALYSES` on `POST /api/solve` asked again (the rendered JSON dropped on
  both sides; the settled part stays), `RENDERED` on the page asked again, `MAXIMA` on
  `GET /analyse/play`, `SHARED` (a Redis of its own) on `POST /api/solve` asked again of a worker
  that has kept nothing (its own caches emptied on both sides).
- `puzzles._progress._progress` (the step check) and `puzzles._hints._final_table`: a step POST laying
  the answer's first card, and a new player's first hint, with one puzzle of each tier as today's.
- the engine's candidate caches (`puzzles._candidates`): `POST /api/solve`
  of a real-game table not asked before (21 in turn, classic and jokers, the web app's answers
  emptied). Their figures wander by about 4 ms from run to run (the solver's own threads).
- `CompiledTemplates`: a fresh app drawing three pages (what each test does), with the process's
  compiled templates, against them emptied first.
- gone, printed as such: `errors.REFUSAL_PAGES` (a flood's refused `GET /analyse` through Flask, refused
  early bypassed), `analyser.guard.OPEN_DAILIES` (a kept `GET /analyse` asked again, every open day
  published), `turn.store._swap`'s guarded UPDATEs (a step POST laying a card, easy).
- the engine's `pieces`, `_keepings_alone`, `_keepings_anywhere`, `meld_of`, `allowed_by` and
  `_table_keepings` each save under 2 ms of a request (their figures wander by about 4 ms), and stay
  together for what they save the full analysis, issue 20's figure: bench/caches.py times that.
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from corpus import corpus  # noqa: E402  (bench/corpus.py)
from flask import Flask  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402

import generator  # noqa: E402
import puzzles._candidates  # noqa: E402
import puzzles._hints  # noqa: E402
import puzzles._progress  # noqa: E402
from puzzles import PRESETS, Position  # noqa: E402
from tests.webapp.conftest import (  # noqa: E402
    KNOWN,
    NOON,
    TODAY,
    FrozenClock,
    Player,
    make_app,
    store,
    variant,
)
from webapp import errors, models, templating  # noqa: E402
from webapp.analyser import guard, solving  # noqa: E402
from webapp.caching import AppCache, BoundedCache  # noqa: E402
from webapp.db import database  # noqa: E402
from webapp.errors import Refusal  # noqa: E402
from webapp.players import crowd  # noqa: E402
from webapp.schedule.clock import calendar  # noqa: E402
from webapp.settings import defaults  # noqa: E402
from webapp.turn import rendering  # noqa: E402
from webapp.turn import store as attempt_store  # noqa: E402

Call = Callable[[], object]
FLOODED = Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD")
"""bench/flood.py's kept analysis."""
POSITIONS = [sample.position for sample in corpus(PRESETS["classic"], 21)]
"""Real-game tables (bench/corpus.py), one a round, asked under the site's SOLVE_TIME_LIMIT: more
than the engine's per-position caches hold (16)."""
SITE = defaults(tempfile.gettempdir())
"""The site's own settings: its time limits (the tests' are generous)."""
TIERS = ("easy", "medium", "hard", "expert", "master")
"""Today's puzzle for the step check and the hint: one of each tier (`generator.make_puzzle`, seed 1)."""


def cpu_ms(call: Call) -> float:
    started = time.process_time()
    call()
    return (time.process_time() - started) * 1000


def alternating(
    with_cache: Call,
    without: Call,
    rounds: int,
    before: Call | None = None,
    clear: Call | None = None,
    each_round: Call | None = None,
) -> tuple[float, float]:
    """Mean CPU ms of each, the two run in turn, after one of each to warm up; `each_round` starts a
    round, `before` runs ahead of either, `clear` ahead of `without` (none of them timed)."""
    kept = bare = 0.0
    for number in range(rounds + 1):
        if each_round:
            each_round()
        # which goes first alternates too: a request asked a second time runs a little faster
        # (allocations, the other caches), whichever side it is
        times = {}
        for bare_side in (True, False) if number % 2 else (False, True):
            if before:
                before()
            if bare_side and clear:
                clear()
            times[bare_side] = cpu_ms(without if bare_side else with_cache)
        if number:  # the first round warms up
            kept, bare = kept + times[False], bare + times[True]
    return kept / rounds, bare / rounds


def bypassing(cached: Any, call: Call) -> Call:
    """`call` with the engine's cached function `cached` replaced by the function it wraps, in every
    module of the engine that names it: the request as it would run without that cache."""
    holders = [
        (module, name)
        for module in list(sys.modules.values())
        if module is not None and module.__name__.startswith("puzzles")
        for name, value in vars(module).items()
        if value is cached
    ]

    def bare() -> object:
        for module, name in holders:
            setattr(module, name, cached.__wrapped__)
        try:
            return call()
        finally:
            for module, name in holders:
                setattr(module, name, cached)

    return bare


def line(name: str, request: str, kept: float, bare: float, what: str = "cleared") -> str:
    return f"{name}, {request}: {kept:.2f} ms kept, {bare:.2f} ms {what} (saves {bare - kept:.2f})"


def new_app(folder: str, number: int, puzzle: generator.Puzzle, **config: Any) -> Flask:
    app = make_app(f"sqlite:///{folder}/site{number}.db", FrozenClock(NOON), **config)
    store(app, puzzle, TODAY)
    return app


def of_app(app: Flask, cache: AppCache[Any, Any]) -> BoundedCache[Any, Any]:
    with app.app_context():
        return cache()


def expect(status: int, *wanted: int) -> int:
    if status not in wanted:
        raise SystemExit(f"a timed request answered {status}, not {wanted}: the figure would mean nothing")
    return status


def analyse_query(position: Position) -> str:
    table = " / ".join(" ".join(str(card) for card in meld.cards) for meld in position.table)
    hand = " ".join(str(card) for card in position.hand)
    return urllib.parse.urlencode({"rules": position.rules.name, "table": table, "hand": hand})


def solve_api(client: FlaskClient, position: Position) -> int:
    body = json.dumps(position.to_json())
    return expect(client.post("/api/solve", data=body, content_type="application/json").status_code, 200)


def home_through_flask(app: Flask, client: FlaskClient) -> Call:
    """`GET /` through Flask itself, the kept answers in front of it (if any) stepped past."""
    front = app.wsgi_app
    inner = getattr(front, "inner", front)

    def through_flask() -> object:
        app.wsgi_app = inner  # type: ignore[method-assign]
        try:
            return expect(client.get("/").status_code, 200)
        finally:
            app.wsgi_app = front  # type: ignore[method-assign]

    return through_flask


def kept_answers_figure(app: Flask, rounds: int) -> str:
    front = app.wsgi_app
    if type(front).__name__ != "KeptAnswers":
        return "kept answers (WSGI): gone (issue 22)"
    client = app.test_client()
    through_flask = home_through_flask(app, client)
    kept, bare = alternating(lambda: expect(client.get("/").status_code, 200), through_flask, rounds)
    return line("kept answers (WSGI)", "a new visitor's GET /", kept, bare, "through Flask")


def flooded(folder: str, puzzle: generator.Puzzle) -> tuple[Flask, FlaskClient, Call]:
    """An app with rate limits on whose analyser limit this client's address has used up."""
    app = new_app(folder, 1, puzzle, RATELIMIT_ENABLED=True, ANALYSE_RATE_LIMIT="1 per hour")
    client = app.test_client()
    path = "/analyse?" + analyse_query(FLOODED)
    expect(client.get(path).status_code, 200)

    def refused() -> object:
        return expect(client.get(path).status_code, 429)

    return app, client, refused


def refused_early_figures(folder: str, puzzle: generator.Puzzle, rounds: int) -> list[str]:
    app, _, refused = flooded(folder, puzzle)
    early = app.extensions.get("tavolo.refused_early")
    if early is None:
        return ["refused early: gone (issue 22)"]
    found = []
    for name in ("refused", "pages"):
        kept, bare = alternating(refused, refused, rounds, clear=getattr(early, name).clear)
        found.append(line(f"refused early ({name})", "a flood's refused GET /analyse", kept, bare))
    return found


def refusal_pages_figure(folder: str, puzzle: generator.Puzzle, rounds: int) -> str:
    pages: Any = getattr(errors, "REFUSAL_PAGES", None)
    if pages is None:
        return "errors.REFUSAL_PAGES: gone (issue 22)"
    app, _, refused = flooded(folder, puzzle)
    early = app.extensions.get("tavolo.refused_early")
    if early is not None:
        early.refused = BoundedCache(0)  # every refusal through Flask
    kept, bare = alternating(refused, refused, rounds, clear=of_app(app, pages).clear)
    return line("REFUSAL_PAGES", "a flood's refused GET /analyse through Flask", kept, bare)


def untouched_figure(app: Flask, rounds: int) -> str:
    pages: Any = getattr(rendering, "UNTOUCHED_PAGES", None)
    if pages is None:
        return "rendering.UNTOUCHED_PAGES: gone (issue 22)"
    through_flask = home_through_flask(app, app.test_client())
    kept, bare = alternating(through_flask, through_flask, rounds, clear=of_app(app, pages).clear)
    return line("UNTOUCHED_PAGES", "a newcomer's GET / through Flask", kept, bare)


def crowds_figure(folder: str, puzzle: generator.Puzzle, rounds: int, others: int = 2000) -> str:
    crowds: Any = getattr(crowd, "CROWDS", None)
    if crowds is None:
        return "crowd.CROWDS: gone (issue 22)"
    app = new_app(folder, 2, puzzle)
    with app.app_context(), database().write() as session:
        puzzle_id = session.query(models.Daily).filter_by(number=TODAY).one().puzzle_id
        for i in range(others):
            session.add(models.Player(id=f"p{i}", created=NOON - timedelta(days=30)))
            session.add(
                models.PlayerAttempt(
                    player_id=f"p{i}",
                    puzzle_id=puzzle_id,
                    number=TODAY,
                    melds=[],
                    history=[],
                    moves=5 + i % 15,
                    status=models.Status.SOLVED if i % 4 else models.Status.GAVE_UP,
                    started=NOON - timedelta(hours=1),
                    finished=NOON - timedelta(seconds=30 + i % 900),
                )
            )
    player = Player(app.test_client())
    expect(player.post(f"/puzzles/{TODAY}/give-up").status_code, 200)

    def result() -> object:
        return expect(player.client.get("/").status_code, 200)

    kept, bare = alternating(result, result, rounds, clear=of_app(app, crowds).clear)
    return line("CROWDS", f"GET / with the result card, {others} finished attempts", kept, bare)


def open_dailies_figure(folder: str, puzzle: generator.Puzzle, rounds: int) -> str:
    dailies: Any = getattr(guard, "OPEN_DAILIES", None)
    if dailies is None:
        return "guard.OPEN_DAILIES: gone (issue 22)"
    app = new_app(folder, 4, puzzle)
    with app.app_context():
        numbers = calendar().open_numbers(NOON)
    # every open day published, as on the site (the guard keeps nothing while one is missing)
    for number, decoy in zip(numbers, ("3H", "4H", "5H"), strict=False):
        if number != TODAY:
            store(app, variant(puzzle, decoy, "medium", f"bench{number}"), number)
    client = app.test_client()
    path = "/analyse?" + analyse_query(FLOODED)

    def again() -> object:
        return expect(client.get(path).status_code, 200)

    kept, bare = alternating(again, again, rounds, clear=of_app(app, dailies).clear)
    return line("OPEN_DAILIES", "a kept GET /analyse asked again", kept, bare)


def site_limits(folder: str, number: int, puzzle: generator.Puzzle, **config: Any) -> Flask:
    """An app that solves under the site's own time limit (the tests' is generous)."""
    return new_app(folder, number, puzzle, SOLVE_TIME_LIMIT=SITE["SOLVE_TIME_LIMIT"], **config)


class Rotation:
    """The position of this round, the next of POSITIONS each round; `warm` asks it once (untimed)."""

    def __init__(
        self, warm: Callable[[Position], object] | None = None, positions: list[Position] = POSITIONS
    ) -> None:
        self.turn = itertools.cycle(positions)
        self.position = positions[0]
        self.warm = warm

    def next(self) -> None:
        self.position = next(self.turn)
        if self.warm:
            self.warm(self.position)


def solving_figures(folder: str, puzzle: generator.Puzzle, rounds: int) -> list[str]:
    app = site_limits(folder, 5, puzzle)
    client = app.test_client()
    found = []

    def cache(name: str) -> BoundedCache[Any, Any] | None:
        kept: Any = getattr(solving, name, None)
        return None if kept is None else of_app(app, kept)

    def emptied(*names: str) -> Call:
        caches = [cache(name) for name in names]
        return lambda: [kept.clear() for kept in caches if kept is not None]

    def page(position: Position) -> object:
        return expect(client.get("/analyse?" + analyse_query(position)).status_code, 200)

    def api(position: Position) -> object:
        return solve_api(client, position)

    def play(position: Position) -> object:
        return expect(client.get("/analyse/play?" + analyse_query(position)).status_code, 200)

    for name, request, ask, before in (
        ("SETTLED", "GET /analyse asked again", page, emptied("ANALYSES", "RENDERED")),
        ("ANALYSES", "POST /api/solve asked again", api, emptied("RENDERED")),
        ("RENDERED", "GET /analyse asked again", page, None),
        ("MAXIMA", "GET /analyse/play asked again", play, None),
    ):
        kept_cache = cache(name)
        if kept_cache is None:
            found.append(f"solving.{name}: gone (issue 22)")
            continue
        rotation = Rotation(ask)

        def again(ask: Callable[[Position], object] = ask, rotation: Rotation = rotation) -> object:
            return ask(rotation.position)

        kept, bare = alternating(
            again, again, rounds, before=before, clear=kept_cache.clear, each_round=rotation.next
        )
        found.append(line(name, f"{request}, real-game tables", kept, bare))
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def own_redis() -> Iterator[str | None]:
    port = free_port()
    try:
        server = subprocess.Popen(
            ["redis-server", "--port", str(port), "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL,
        )
    except FileNotFoundError:
        yield None
        return
    url = f"redis://127.0.0.1:{port}/0"
    try:
        for _ in range(100):
            try:
                redis.Redis.from_url(url).ping()
                break
            except redis.ConnectionError:
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait()


def shared_figure(folder: str, puzzle: generator.Puzzle, rounds: int) -> str:
    shared: Any = getattr(solving, "SHARED", None)
    if shared is None:
        return "solving.SHARED: gone (issue 22)"
    with own_redis() as url:
        if url is None:
            return "solving.SHARED: no redis-server to time it with"
        app = site_limits(folder, 6, puzzle, ANSWER_CACHE_URL=url)
        client = app.test_client()
        own = [of_app(app, getattr(solving, name)) for name in ("SETTLED", "ANALYSES", "RENDERED")]

        def another_worker() -> None:
            for kept in own:
                kept.clear()

        rotation = Rotation(lambda position: solve_api(client, position))

        def again() -> object:
            return solve_api(client, rotation.position)

        flush = redis.Redis.from_url(url).flushdb
        kept, bare = alternating(
            again, again, rounds, before=another_worker, clear=flush, each_round=rotation.next
        )
    return line("SHARED (Redis)", "POST /api/solve asked again of a worker that kept nothing", kept, bare)


FIRST_TIER_APP = (20, 30)
"""The numbers of the step check's and the hint's databases."""
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def hand_ids(page: str) -> dict[str, str]:
    """The page's hand cards: card (`QD`) to its id on the board (`h4`)."""
    found = re.findall(r'data-card="(h\d+)" data-from="hand"[^>]*aria-label="([^"]+)"', page)
    return {label[:-1] + SUITS[label[-1]]: card for card, label in found}


def tier_apps(folder: str, first: int) -> Iterator[tuple[str, Flask, generator.Puzzle]]:
    for number, tier in enumerate(TIERS, start=first):
        puzzle = generator.make_puzzle("classic", tier=tier, seed=1)
        yield (
            tier,
            new_app(
                folder,
                number,
                puzzle,
                STEP_TIME_LIMIT=SITE["STEP_TIME_LIMIT"],
                HINT_TIME_LIMIT=SITE["HINT_TIME_LIMIT"],
            ),
            puzzle,
        )


def step_check_figures(folder: str, rounds: int) -> list[str]:
    found = []
    for tier, app, puzzle in tier_apps(folder, FIRST_TIER_APP[0]):
        player = Player(app.test_client())
        # the first card the puzzle's answer lays, to a new meld (timed), and back (not timed)
        card = hand_ids(player.client.get("/").get_data(as_text=True))[str(puzzle.laid_cards[0])]

        def back(player: Player = player, card: str = card) -> None:
            player.move(TODAY, card, "hand")  # 422 the first time: the card is in the hand

        def lay(player: Player = player, card: str = card) -> object:
            return expect(player.move(TODAY, card, "new").status_code, 200)

        kept, bare = alternating(lay, bypassing(puzzles._progress._progress, lay), rounds, before=back)
        step = f"a step POST laying a card, {tier}"
        found.append(line("step check (puzzles._progress)", step, kept, bare, "bypassed"))
    return found


def swap_figure(folder: str, rounds: int) -> str:
    """`turn.store._swap` on a step POST (the easy puzzle): its guarded UPDATE kept, against built and
    compiled again (the memo emptied before the request). Gone: printed as such."""
    swap = getattr(attempt_store, "_swap", None)
    if swap is None:
        return "turn.store._swap: gone, one UPDATE built once (issue 42)"
    if not hasattr(swap, "cache_clear"):
        return "turn.store._swap: gone (issue 22)"
    tier, app, puzzle = next(tier_apps(folder, FIRST_TIER_APP[0] + len(TIERS)))
    player = Player(app.test_client())
    card = hand_ids(player.client.get("/").get_data(as_text=True))[str(puzzle.laid_cards[0])]

    def back() -> None:
        player.move(TODAY, card, "hand")  # 422 the first time: the card is in the hand

    def lay() -> object:
        return expect(player.move(TODAY, card, "new").status_code, 200)

    kept, bare = alternating(lay, lay, rounds, before=back, clear=swap.cache_clear)
    return line("turn.store._swap", f"a step POST laying a card, {tier}", kept, bare, "emptied")


def hint_figures(folder: str, rounds: int) -> list[str]:
    found = []
    for tier, app, _ in tier_apps(folder, FIRST_TIER_APP[1]):
        players: list[Player] = []

        def newcomer(app: Flask = app, players: list[Player] = players) -> None:
            players[:] = [Player(app.test_client())]

        def first_hint(players: list[Player] = players) -> object:
            return expect(players[0].post(f"/puzzles/{TODAY}/hint").status_code, 200)

        bare_hint = bypassing(puzzles._hints._final_table, first_hint)
        kept, bare = alternating(first_hint, bare_hint, rounds, before=newcomer)
        hint = f"a new player's first hint, {tier}"
        found.append(line("hint's final table (puzzles._hints)", hint, kept, bare, "bypassed"))
    return found


ENGINE = (
    ("_candidates._piece_types", puzzles._candidates, ("_piece_types",)),
    ("_candidates.pieces", puzzles._candidates, ("pieces",)),
    ("_candidates._keepings_alone", puzzles._candidates, ("_keepings_alone",)),
    ("_candidates._keepings_anywhere", puzzles._candidates, ("_keepings_anywhere",)),
    ("_candidates.meld_of", puzzles._candidates, ("meld_of",)),
    ("_candidates.allowed_by", puzzles._candidates, ("allowed_by",)),
    ("_candidates._table_keepings", puzzles._candidates, ("_table_keepings",)),
)
"""Each cache alone (a tuple of several names bypasses them together, for caches that call one
another): all but the first save under 2 ms a request, and stay for the analysis (bench/caches.py)."""


def tables(preset: str) -> Iterator[Position]:
    return (sample.position for sample in corpus(PRESETS[preset], 10 * len(POSITIONS)))


def unguarded(app: Flask, position: Position) -> bool:
    """Whether the analyser answers the position: not one the guard takes for today's puzzle."""
    with app.test_request_context():
        try:
            guard.refuse_spoilers(position)
        except Refusal:
            return False
    return True


def engine_figures(folder: str, puzzle: generator.Puzzle, preset: str) -> list[str]:
    app = site_limits(folder, 7 if preset == "classic" else 8, puzzle)
    client = app.test_client()
    own = [of_app(app, getattr(solving, name)) for name in ("SETTLED", "ANALYSES", "RENDERED")]
    positions = [position for position in tables(preset) if unguarded(app, position)][: len(POSITIONS)]
    rotation = Rotation(positions=positions)

    def new_position() -> None:
        # each request a table not asked before (21 in turn: each side asks each of them)
        for kept in own:
            kept.clear()
        rotation.next()

    def ask() -> object:
        return solve_api(client, rotation.position)

    found = []
    for name, module, attributes in ENGINE:
        caches = [
            getattr(module, attribute, getattr(puzzles._candidates, attribute, None))
            for attribute in attributes
        ]
        if not all(hasattr(cached, "cache_clear") for cached in caches):
            found.append(f"puzzles.{name}: gone (issue 22)")
            continue
        bare: Call = ask
        for cached in caches:
            bare = bypassing(cached, bare)
        kept_ms, bare_ms = alternating(ask, bare, 2 * len(positions), before=new_position)
        request = f"POST /api/solve of a real-game {preset} table"
        found.append(line(f"puzzles.{name}", request, kept_ms, bare_ms, "bypassed"))
    return found


def compiled_figure(folder: str, puzzle: generator.Puzzle, rounds: int) -> str:
    compiled = templating.JINJA_OPTIONS["bytecode_cache"]
    numbers = itertools.count(100)

    def three_pages() -> object:
        fresh = new_app(folder, next(numbers), puzzle).test_client()
        return [fresh.get(path).status_code for path in ("/", "/help", "/settings")]

    kept, bare = alternating(three_pages, three_pages, rounds, clear=compiled.clear)
    return line("CompiledTemplates", f"a fresh app's 3 pages ({rounds} rounds)", kept, bare, "emptied")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--only", default="", help="only the figures whose group names this word")
    arguments = parser.parse_args()
    rounds, only = arguments.rounds, arguments.only
    solves = max(rounds // 10, 5)
    puzzle = generator.puzzle_of("cz1", Position.parse(KNOWN), time_limit=20)
    with tempfile.TemporaryDirectory() as folder:
        app = new_app(folder, 0, puzzle)
        groups: list[tuple[str, Callable[[], str | list[str]]]] = [
            ("kept", lambda: kept_answers_figure(app, rounds)),
            ("refused", lambda: refused_early_figures(folder, puzzle, rounds)),
            ("refusal", lambda: refusal_pages_figure(folder, puzzle, rounds)),
            ("untouched", lambda: untouched_figure(app, rounds)),
            ("crowds", lambda: crowds_figure(folder, puzzle, solves)),
            ("dailies", lambda: open_dailies_figure(folder, puzzle, rounds)),
            ("solving", lambda: solving_figures(folder, puzzle, solves)),
            ("shared", lambda: shared_figure(folder, puzzle, solves)),
            ("step", lambda: step_check_figures(folder, solves)),
            ("swap", lambda: swap_figure(folder, rounds)),
            ("hint", lambda: hint_figures(folder, solves)),
            ("engine classic", lambda: engine_figures(folder, puzzle, "classic")),
            ("engine jokers", lambda: engine_figures(folder, puzzle, "jokers")),
            ("compiled", lambda: compiled_figure(folder, puzzle, max(rounds // 10, 5))),
        ]
        for group, figures in groups:
            if only and only not in group:
                continue
            found = figures()
            for text in [found] if isinstance(found, str) else found:
                print(text, flush=True)


if __name__ == "__main__":
    main()
