"""The schedule's commands: `flask puzzles import|ensure|rescore` and `flask practice fill`.

The clock (`flask clock`, in `scheduler`) runs the same jobs by itself; these are for doing one now.
"""

from __future__ import annotations

from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy.exc import IntegrityError

from webapp import db
from webapp.schedule import daily, pool, practice, rescore
from webapp.schedule.clock import now
from webapp.settings import practice_pool


class CommandError(click.ClickException):
    """Bad input to a command: one line on stderr and exit status 2."""

    exit_code = 2


puzzles_cli = AppGroup("puzzles", help="The puzzle pool and the daily schedule.")
practice_cli = AppGroup("practice", help="The practice pool.")


@puzzles_cli.command(
    "import",
    help="Add a generator output file (JSON Lines) to the pool, skipping known puzzles and near-duplicates.",
)
@click.argument("path", type=click.Path(dir_okay=False, path_type=Path))
def import_command(path: Path) -> None:
    try:
        lines = pool.read_file(path)
        with db.database().reader() as session:
            fresh = pool.new_lines(session, lines, path)
        # the solver's proofs take seconds each: outside any transaction
        pool.prove(fresh, path, pool.IMPORT_TIME_LIMIT)
    except pool.PoolError as error:
        raise CommandError(str(error)) from None
    try:
        with db.database().write() as session:
            added, skipped, near = pool.import_puzzles(session, [puzzle for _, puzzle in lines], now())
    except IntegrityError:
        raise CommandError(f"{path}: another import ran at the same time: run this one again") from None
    left_out = f", {near} left out as near-duplicates" if near else ""
    click.echo(f"imported {added} puzzle{'s' if added != 1 else ''}, {skipped} already in the pool{left_out}")


@puzzles_cli.command("ensure", help="Publish today's puzzle and the next days' (the clock's job, once).")
@click.option("--days", type=click.IntRange(0, 60), default=None, help="How many days ahead (default 7).")
def ensure_command(days: int | None) -> None:
    try:
        made = daily.publish_ahead(days)
    except (daily.ScheduleError, pool.PoolError) as error:
        raise CommandError(str(error)) from None
    click.echo(f"published {', '.join(f'#{n}' for n in made)}" if made else "every day is already published")


@puzzles_cli.command(
    "rescore",
    help="Grade every stored puzzle again (chain length, decisions and forks); store the graded play;"
    " replace future days that fail.",
)
@click.option("--time-limit", type=click.FloatRange(0.1, 600), default=None, help="Seconds per puzzle.")
def rescore_command(time_limit: float | None) -> None:
    limit = time_limit if time_limit is not None else float(current_app.config["RESCORE_TIME_LIMIT"])
    try:
        report = rescore.rescore(limit)
    except (daily.ScheduleError, pool.PoolError) as error:
        raise CommandError(str(error)) from None
    replaced = ", ".join(f"#{number}" for number in report.replaced) or "none"
    click.echo(f"graded {report.graded}, retired {report.retired}; future days published again: {replaced}")


@puzzles_cli.command(
    "key-ideas",
    help="Find the key ideas (the decisions in words) of the stored puzzles that have none yet,"
    " so that no page works them out, and judge their forks weak or real where that is not done yet.",
)
@click.option(
    "--again", is_flag=True, help="Work out the key ideas of every stored puzzle, not only those without."
)
def key_ideas_command(again: bool) -> None:
    filled = rescore.fill_key_ideas(again)
    found, judged = filled.found, filled.judged
    click.echo(
        f"found the key ideas of {found} puzzle{'s' if found != 1 else ''}; judged the forks of {judged}"
    )
    if filled.refused:
        click.echo(f"left as they are, the engine refuses them: {', '.join(filled.refused)}", err=True)


@practice_cli.command("fill", help="Top up the practice pool now (the clock does it every ten minutes).")
@click.option(
    "--target", type=click.IntRange(0, 100_000), default=None, help="Unplayed classic puzzles per tier."
)
@click.option("--seconds", type=click.FloatRange(1, 86_400), default=None, help="Stop after this long.")
def fill_command(target: int | None, seconds: float | None) -> None:
    config = current_app.config
    targets = practice_pool(target) if target is not None else config["PRACTICE_POOL"]
    budget = seconds if seconds is not None else float(config["PRACTICE_FILL_SECONDS"])
    added = practice.top_up(targets, budget, config["GENERATE_TIME_LIMIT"])
    click.echo(f"added {sum(added.values())} practice puzzle{'s' if sum(added.values()) != 1 else ''}")


def init_app(app: Flask) -> None:
    app.cli.add_command(puzzles_cli)
    app.cli.add_command(practice_cli)
