"""The clock process: `flask clock` keeps the coming days published and the practice pool full.

It is its own process (the Procfile's `clock:` line), never inside a web worker. It runs once at
start, catching up whatever it missed while down, then every hour, in UTC. Publishing is idempotent,
so a second run, or a second clock by mistake, changes nothing.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime

import click
from apscheduler.schedulers.blocking import BlockingScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.interval import IntervalTrigger
from flask import Flask, current_app
from flask.cli import with_appcontext

from webapp.schedule.daily import publish_ahead
from webapp.schedule.practice import fill_job
from webapp.schedule.rescore import fill_key_ideas

log = logging.getLogger(__name__)
DAILY_JOBS = "tavolo.daily_clock_jobs"
"""Jobs other areas give the clock (`add_daily_job`): the schedule imports no other area."""


def add_daily_job(app: Flask, job_id: str, run: Callable[[Flask], object]) -> None:
    """Have the clock run `run(app)` daily at 03:35 UTC, and once with `flask clock --once`."""
    app.extensions.setdefault(DAILY_JOBS, []).append((job_id, run))


def publish_job(app: Flask) -> list[int]:
    """One run of the clock; returns the puzzle numbers it published. It also finds the key ideas of
    any puzzle stored without them (before they were kept), so that no page works them out, and
    judges the forks of any not judged yet (below Expert, or stored before forks were judged), so
    that a weak fork is never called the key (docs/DEPLOYING.md says what that costs)."""
    with app.app_context():
        made = publish_ahead()
        filled = fill_key_ideas()
    log.info("clock: published %s", ", ".join(f"#{n}" for n in made) or "nothing new")
    if filled.found or filled.judged:
        log.info(
            "clock: found the key ideas of %d stored puzzles, judged the forks of %d",
            filled.found,
            filled.judged,
        )
    return made


def practice_job(app: Flask) -> int:
    """One top-up of the practice pool; returns how many puzzles it added."""
    with app.app_context():
        return sum(fill_job().values())


def scheduler(app: Flask) -> BlockingScheduler:
    clock = BlockingScheduler(timezone=UTC)
    clock.add_job(
        publish_job,
        CronTrigger(minute=5, timezone=UTC),
        args=[app],
        id="publish",
        next_run_time=datetime.now(UTC),  # catch up at once on start
        coalesce=True,
        max_instances=1,
        misfire_grace_time=3600,
    )
    # practice puzzles are made here, ahead of the players, so that no request waits for the generator
    clock.add_job(
        practice_job,
        IntervalTrigger(minutes=10, timezone=UTC),
        args=[app],
        id="practice",
        next_run_time=datetime.now(UTC),
        coalesce=True,
        max_instances=1,
    )
    for job_id, run in app.extensions.get(DAILY_JOBS, []):
        clock.add_job(
            run,
            CronTrigger(hour=3, minute=35, timezone=UTC),
            args=[app],
            id=job_id,
            coalesce=True,
            max_instances=1,
            misfire_grace_time=6 * 3600,
        )
    return clock


@click.command("clock", help="Keep the next days' puzzles published: now, then hourly (runs until stopped).")
@click.option("--once", is_flag=True, help="Catch up once and exit.")
@with_appcontext
def clock_command(once: bool) -> None:
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    if once:
        publish_job(app)
        practice_job(app)
        for _, run in app.extensions.get(DAILY_JOBS, []):
            run(app)
        return
    click.echo("clock: publishing now, then hourly at :05 UTC; topping up practice every 10 minutes")
    with contextlib.suppress(KeyboardInterrupt, SystemExit):
        scheduler(app).start()


def init_app(app: Flask) -> None:
    app.cli.add_command(clock_command)
