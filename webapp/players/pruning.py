"""Players who stopped playing are removed: a player with no attempt begun or finished for
`IDLE_PLAYER_MONTHS` months (a month here is 30 days), whose record is older than that, goes with
their attempts, runs, transfer codes and places at friends' tables, as `/me/forget` erases one.

Anonymous cookies are cheap: every visitor who moved one card left a row, and a script can leave
thousands. `flask players prune` does it now; the clock (`schedule.scheduler`) runs it daily. It works
in batches of `BATCH` players, each batch a transaction of its own, so that the site's writers never
wait long behind it.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

import click
from flask import Flask, current_app
from flask.cli import AppGroup
from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session

from webapp import db, models
from webapp.players.privacy import forget
from webapp.schedule import scheduler
from webapp.schedule.clock import now

BATCH = 200
DAYS_A_MONTH = 30
log = logging.getLogger(__name__)

players_cli = AppGroup("players", help="The players' records.")


def idle_since(moment: datetime, months: int) -> datetime:
    return moment - timedelta(days=DAYS_A_MONTH * months)


def idle_players(session: Session, since: datetime, most: int = BATCH) -> list[str]:
    """Up to `most` players created before `since` with no attempt begun or finished since."""
    attempt = models.PlayerAttempt
    recent = exists().where(
        attempt.player_id == models.Player.id, or_(attempt.started >= since, attempt.finished >= since)
    )
    return list(
        session.scalars(
            select(models.Player.id)
            .where(models.Player.created < since, ~recent)
            .order_by(models.Player.created)
            .limit(most)
        )
    )


def prune(moment: datetime, months: int) -> int:
    """Remove every player idle for `months` months at `moment`; how many went."""
    since = idle_since(moment, months)
    removed = 0
    while True:
        with db.write() as session:
            found = idle_players(session, since)
            for player in found:
                forget(session, player)
        removed += len(found)
        if len(found) < BATCH:
            return removed


def prune_job(app: Flask) -> int:
    """The clock's daily run."""
    with app.app_context():
        removed = prune(now(), int(current_app.config["IDLE_PLAYER_MONTHS"]))
    log.info("clock: removed %s idle player%s", removed, "" if removed == 1 else "s")
    return removed


@players_cli.command(
    "prune", help="Remove the players idle for IDLE_PLAYER_MONTHS months (the clock does daily)."
)
@click.option("--months", type=click.IntRange(min=1), help="Idle this many months (30 days each) instead.")
def prune_command(months: int | None) -> None:
    chosen = months or int(current_app.config["IDLE_PLAYER_MONTHS"])
    removed = prune(now(), chosen)
    click.echo(f"removed {removed} player{'' if removed == 1 else 's'} idle for {chosen} months")


def init_app(app: Flask) -> None:
    app.cli.add_command(players_cli)
    scheduler.add_daily_job(app, "prune-players", prune_job)
