"""Publishing: the clock's job, the fallback on first request, races, and the puzzle commands."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from sqlalchemy import func, inspect, select

import generator
from tests.webapp.conftest import DECOY_PAIRS, NOON, FrozenClock, daily_seed, store, unlike_known, variant
from webapp import models
from webapp.db import database, upgrade
from webapp.schedule import daily
from webapp.schedule.scheduler import publish_job, scheduler


def schedule(app: Flask) -> dict[int, tuple[str, str]]:
    """Every published day as number -> (tier, puzzle code)."""
    with app.app_context(), database().reader() as session:
        rows = session.scalars(select(models.Daily).order_by(models.Daily.number))
        return {row.number: (row.puzzle.tier, row.puzzle.code) for row in rows}


def pool_size(app: Flask) -> int:
    with app.app_context(), database().reader() as session:
        return session.scalar(select(func.count()).select_from(models.PoolPuzzle)) or 0


def test_the_clock_publishes_the_open_days_and_the_next_seven(app: Flask, fake_generator: list) -> None:
    made = publish_job(app)
    # at noon UTC on the 29th (#7), #7 and #8 are open somewhere; then seven more days
    assert made == list(range(7, 15))
    assert sorted(schedule(app)) == made
    assert len({code for _, code in schedule(app).values()}) == 8  # no puzzle on two days


def test_the_clock_is_idempotent(app: Flask, fake_generator: list) -> None:
    publish_job(app)
    before = schedule(app)
    calls = len(fake_generator)
    assert publish_job(app) == []
    assert schedule(app) == before
    assert len(fake_generator) == calls


def test_the_clock_catches_up_after_being_down(app: Flask, fake_generator: list, clock: FrozenClock) -> None:
    publish_job(app)
    clock.moment = NOON.replace(month=12, day=10)  # eleven days later
    made = publish_job(app)
    # days that closed everywhere while it was down stay empty; #18 (10 December) is open
    assert made == list(range(18, 26))
    assert sorted(schedule(app)) == [*range(7, 15), *range(18, 26)]


def test_the_clock_runs_at_once_then_hourly_in_utc(app: Flask) -> None:
    job = scheduler(app).get_job("publish")
    assert job is not None
    assert str(job.trigger.timezone) == "UTC"
    assert job.coalesce and job.max_instances == 1


def test_days_take_the_weekly_tier_from_the_pool(app: Flask, known_puzzle: generator.Puzzle) -> None:
    for i, tier in enumerate(["easy", "medium", "hard", "expert", "master"]):
        # tables apart: days 90 days apart or less never nearly repeat one
        store(app, unlike_known(variant(known_puzzle, f"{i + 2}H", tier, f"cx{i}"), i))
    with app.app_context():
        for number in (1, 2, 3, 5, 7):  # Monday, Tuesday, Wednesday, Friday, Sunday
            daily.publish(number)
    assert schedule(app) == {
        1: ("easy", "cx0"),
        2: ("medium", "cx1"),
        3: ("hard", "cx2"),
        5: ("expert", "cx3"),
        7: ("master", "cx4"),
    }


def test_without_the_days_tier_in_the_pool_one_is_made_rather_than_another_tier_taken(
    app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    store(app, variant(known_puzzle, "2H", "master", "cx1"))
    with app.app_context():
        daily.publish(1)  # Monday: easy, though the pool holds a master
    assert schedule(app)[1] == ("easy", f"cy{daily_seed(1)}") and fake_generator == [("easy", daily_seed(1))]


def test_when_the_generator_fails_the_pools_nearest_easier_tier_is_used(
    app: Flask, known_puzzle: generator.Puzzle, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fail(*args: object, **kwargs: object) -> generator.Puzzle:
        raise generator.PuzzleError("nothing found")

    monkeypatch.setattr("webapp.schedule.pool.make_puzzle", fail)
    store(app, variant(known_puzzle, "2H", "easy", "cx1"))
    store(app, variant(known_puzzle, "3H", "medium", "cx2"))
    with app.app_context():
        daily.publish(7)  # Sunday: no master, no expert, no hard
    assert schedule(app)[7] == ("medium", "cx2")


def test_the_pool_is_used_before_generating(
    app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    store(app, unlike_known(variant(known_puzzle, "2H", "hard", "cx1")))
    with app.app_context():
        daily.publish(3)
        daily.publish(4)
    assert schedule(app)[3] == ("hard", "cx1")
    assert fake_generator == [("hard", daily_seed(4))]  # from the day's number and the secret


def test_the_first_request_of_an_unpublished_day_publishes_it_from_the_pool(
    client: FlaskClient, app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    store(app, variant(known_puzzle, "2H", "master", "cx1"))
    assert schedule(app) == {}
    page = client.get("/")
    assert page.status_code == 200
    assert "Tavolo #7" in page.get_data(as_text=True)
    assert schedule(app) == {7: ("master", "cx1")}
    client.get("/")
    assert fake_generator == []  # only the clock and the commands generate


def test_a_request_takes_the_nearest_tier_rather_than_run_the_generator(
    client: FlaskClient, app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    store(app, variant(known_puzzle, "2H", "easy", "cx1"))
    assert client.get("/").status_code == 200
    assert schedule(app) == {7: ("easy", "cx1")} and fake_generator == []


def test_a_request_on_an_empty_pool_is_a_503_and_generates_nothing(
    client: FlaskClient, app: Flask, fake_generator: list
) -> None:
    page = client.get("/")
    assert page.status_code == 503 and "no puzzle could be published for #7" in page.get_data(as_text=True)
    assert schedule(app) == {} and fake_generator == []
    client.set_cookie("tavolo_language", "pl")
    page = client.get("/")
    assert page.status_code == 503 and "nie udało się opublikować" in page.get_data(as_text=True)


def test_the_fallback_is_deterministic(database_url: str, tmp_path: Path, clock: FrozenClock) -> None:
    from tests.webapp.conftest import make_app

    # the real generator, twice from an empty pool, on two databases
    first = make_app(database_url, clock)
    other = make_app(f"sqlite:///{tmp_path / 'other.sqlite3'}", clock)
    codes = []
    for app in (first, other):
        with app.app_context():
            codes.append(daily.publish(1).puzzle.canonical)  # a Monday: an easy puzzle, quick to make
        with app.app_context():
            database().dispose()
    assert codes[0] == codes[1]


def test_racing_publishers_get_the_same_row(app: Flask, fake_generator: list) -> None:
    results: list[str] = []
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def publish() -> None:
        try:
            with app.app_context():
                start.wait()
                results.append(daily.publish(7).puzzle.code)
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=publish) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(set(results)) == 1 and len(results) == 4
    assert list(schedule(app)) == [7]
    assert pool_size(app) == 1


def test_the_unique_constraints_hold_one_puzzle_per_day(app: Flask, known_puzzle: generator.Puzzle) -> None:
    from sqlalchemy.exc import IntegrityError

    first = store(app, known_puzzle, 7)
    with pytest.raises(IntegrityError), app.app_context(), database().write() as session:
        session.add(models.Daily(number=8, day=NOON.date().replace(day=30), puzzle_id=first, published=NOON))


def write_pool(path: Path, puzzles: list[generator.Puzzle]) -> Path:
    path.write_text("".join(json.dumps(puzzle.to_json()) + "\n" for puzzle in puzzles))
    return path


def test_import_adds_each_puzzle_once(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path, known_puzzle: generator.Puzzle
) -> None:
    path = write_pool(tmp_path / "pool.jsonl", [known_puzzle, known_puzzle])
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 0
    assert "imported 1 puzzle, 1 already in the pool" in result.output
    again = runner.invoke(args=["puzzles", "import", str(path)])
    assert "imported 0 puzzles, 2 already in the pool" in again.output
    assert pool_size(app) == 1
    with app.app_context(), database().reader() as session:
        row = session.scalars(
            select(models.PoolPuzzle).where(models.PoolPuzzle.code == known_puzzle.id)
        ).one()
        assert (row.hand_size, row.decoys) == (known_puzzle.hand_size, known_puzzle.decoys)


def test_import_leaves_out_near_duplicates_of_the_pools_puzzles_of_their_tier(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path, known_puzzle: generator.Puzzle
) -> None:
    # the same table with another decoy: a near-duplicate (and a puzzle whose claims hold)
    nearly = variant(known_puzzle, "3H", known_puzzle.tier, "cx3")
    path = write_pool(tmp_path / "pool.jsonl", [known_puzzle, nearly])
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 0, result.output
    assert "imported 1 puzzle, 0 already in the pool, 1 left out as near-duplicates" in result.output
    with app.app_context(), database().reader() as session:
        codes = set(session.scalars(select(models.PoolPuzzle.code)))
    assert codes == {known_puzzle.id}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json\n", "line 1: not JSON"),
        ('{"id": "cz1"}\n', "line 1: missing field 'rules'"),
        ("[" * 10_000 + "]" * 10_000 + "\n", "line 1: not JSON (nested more than 100 deep)"),
        ('{"id": ' + "9" * 5000 + "}\n", "line 1: not JSON (a number of more than"),
        (None, "cannot read it"),
    ],
)
def test_import_refuses_a_bad_file_with_one_line_and_status_2(
    runner: FlaskCliRunner,
    app: Flask,
    tmp_path: Path,
    known_puzzle: generator.Puzzle,
    content: str | None,
    message: str,
) -> None:
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(json.dumps(known_puzzle.to_json()) + "\n" + content)
        message = message.replace("line 1", "line 2")
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 2
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert pool_size(app) == 0  # nothing imported from a bad file


FORGED = {
    "id": "cb4dbls", "rules": "classic",
    "table": [["AS", "AH", "AC"], ["4S", "4H", "4C"], ["5S", "5H", "5C"], ["6S", "6H", "6C"],
              ["4D", "5D", "6D"], ["3C", "4C", "5C", "6C", "7C"], ["7C", "8C", "9C"]],
    "hand": ["8D", "AC", "3C", "10C"], "max_placed": 1, "laid": ["10C"],
    "solution": [["AS", "AH", "AC"], ["4S", "4H", "4C"], ["5S", "5H", "5C"], ["6S", "6H", "6C"],
                 ["4D", "5D", "6D"], ["3C", "4C", "5C", "6C", "7C"], ["7C", "8C", "9C", "10C"]],
    "depth": 1, "chain": 1, "tier": "easy", "themes": ["extend"], "hand_size": 4, "decoys": 3,
    "live_decoys": 0,
}  # fmt: skip
"""A line that holds together on its own (its solution is a legal play placing what it says) but
claims a maximum of 1 where the solver finds more."""


def test_import_refuses_claims_the_solver_refutes(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path, known_puzzle: generator.Puzzle
) -> None:
    path = tmp_path / "forged.jsonl"
    path.write_text(json.dumps(known_puzzle.to_json()) + "\n" + json.dumps(FORGED) + "\n")
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 2, result.output
    assert "line 2: max_placed is 1, but the maximum is" in result.output
    assert pool_size(app) == 0  # all or nothing: the good first line is not imported either


def test_import_refuses_an_id_that_another_puzzle_has(
    runner: FlaskCliRunner, app: Flask, tmp_path: Path, known_puzzle: generator.Puzzle
) -> None:
    other = variant(known_puzzle, "3H", known_puzzle.tier, known_puzzle.id)
    path = write_pool(tmp_path / "pool.jsonl", [known_puzzle, other])
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 2
    assert f"line 2: id {known_puzzle.id} belongs to another puzzle" in result.output
    assert pool_size(app) == 0  # all or nothing
    write_pool(path, [known_puzzle])
    assert runner.invoke(args=["puzzles", "import", str(path)]).exit_code == 0
    write_pool(path, [other])
    result = runner.invoke(args=["puzzles", "import", str(path)])
    assert result.exit_code == 2 and "line 1: id" in result.output and "Traceback" not in result.output
    assert pool_size(app) == 1


def test_ensure_publishes_today_and_the_next_days(
    runner: FlaskCliRunner, app: Flask, fake_generator: list
) -> None:
    result = runner.invoke(args=["puzzles", "ensure", "--days", "2"])
    assert result.exit_code == 0
    assert "published #7, #8, #9" in result.output
    again = runner.invoke(args=["puzzles", "ensure", "--days", "2"])
    assert "every day is already published" in again.output


@pytest.mark.usefixtures("distinct_generator")
def test_clock_once_catches_up_and_exits(
    runner: FlaskCliRunner, app: Flask, fake_generator: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one practice puzzle per tier, so the practice job ends by reaching its targets, not its time
    monkeypatch.setitem(app.config, "PRACTICE_POOL", {"classic": 1})
    result = runner.invoke(args=["clock", "--once"])
    assert result.exit_code == 0
    assert sorted(schedule(app)) == list(range(7, 15))
    with app.app_context(), database().reader() as session:
        practice = session.scalars(select(models.PoolPuzzle.tier).where(models.PoolPuzzle.practice.is_(True)))
        assert sorted(practice) == sorted(generator.TIERS)


def test_migrations_build_the_models_schema(database_url: str, clock: FrozenClock, tmp_path: Path) -> None:
    from webapp import create_app

    app = create_app({"DATABASE_URL": database_url, "SECRET_KEY": "x", "NOW": clock})
    with app.app_context():
        upgrade(database())
        upgrade(database())  # a second upgrade is a no-op
        tables = set(inspect(database().engine).get_table_names())
        database().dispose()
    assert {"puzzle", "daily", "player", "attempt", "alembic_version"} <= tables
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0 and "database at head" in result.output


def test_practice_puzzles_are_never_published_as_daily_ones(
    app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    practice_id = store(app, variant(known_puzzle, "2H 3D", "hard", "cp1"))
    with app.app_context(), database().write() as session:
        session.get_one(models.PoolPuzzle, practice_id).practice = True
    with app.app_context():
        row = daily.publish(9)  # a Tuesday: medium, else the easier or harder tiers
        assert row.puzzle_id != practice_id
    assert len(fake_generator) == 1  # the only stored puzzle was practice: a new one was made


def test_no_day_nearly_repeats_the_table_of_a_day_less_than_90_days_away(
    app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    # Wednesday has the known table; of the pool's hard puzzles, one has a meld laid otherwise
    store(app, variant(known_puzzle, "2H", "hard", "cx0"), 3)
    for index, pair in enumerate(DECOY_PAIRS[:8], start=1):
        store(app, variant(known_puzzle, " ".join(pair), "hard", f"cx{index}"))
    store(app, unlike_known(variant(known_puzzle, "4H", "hard", "cx9")))
    with app.app_context():
        daily.publish(4)  # Thursday
        daily.publish(3 + 91)  # 91 days on, the known table may come back
    days = schedule(app)
    assert days[4] == ("hard", "cx9")
    assert days[3 + 91][1] in {f"cx{index}" for index in range(1, 9)}
    assert fake_generator == []


def test_a_made_puzzle_that_nearly_repeats_a_nearby_day_is_refused(
    app: Flask, known_puzzle: generator.Puzzle, fake_generator: list
) -> None:
    # every puzzle here has the known table, the fake generator's too
    store(app, variant(known_puzzle, "2H", "hard", "cx1"))
    with app.app_context():
        daily.publish(3)  # Wednesday: the pool's
        daily.publish(3 + 91)  # 91 days on: the first puzzle made is welcome
        # between them, every try of the generator is refused; only then, rather than no
        # puzzle, does the day repeat a table
        daily.publish(3 + 84)
    days = schedule(app)
    assert days[3 + 91][1] == f"cy{fake_generator[0][1]}"
    assert len(fake_generator) == 1 + daily.SEED_TRIES
    assert days[3 + 84][1] in {f"cy{seed}" for _, seed in fake_generator[1:]}
