"""Practice: endless puzzles from the pool, by tier or near the player's rating, for every preset.

Practice puzzles are made for it (never daily ones) and the clock keeps the pool topped up ahead of
the players, so no request ever waits for the generator: `top_up` runs in the clock process (and as
`flask practice fill`), and a request only picks among the puzzles already stored.
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Mapping

import click
from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from sqlalchemy import ColumnElement, exists, func, select, true
from sqlalchemy.orm import Session
from werkzeug.wrappers import Response

import generator
from generator import TIERS, PuzzleError, make_puzzle
from puzzles import PRESETS
from webapp import db, models
from webapp.models import Status
from webapp.players.identity import current_player_id
from webapp.schedule import pool
from webapp.schedule.clock import now
from webapp.settings import practice_pool
from webapp.turn.views import PuzzlePage, add_turn_views, render_turn

log = logging.getLogger(__name__)

bp = Blueprint("practice", __name__)

NEAREST = 12
"""A practice pick is random among this many candidates, so that players do not all get one puzzle."""
SEED_BASE = 100_000_000
"""Practice seeds start far above the daily ones (the day's number, plus a million per retry)."""


class Choice:
    """What the player asked practice for: a preset, and a tier or `rating`."""

    def __init__(self, rules: str, tier: str) -> None:
        if rules not in PRESETS:
            abort(400, description=f"unknown rules {rules[:30]!r}: one of {', '.join(PRESETS)}")
        if tier != "rating" and tier not in TIERS:
            abort(400, description=f"unknown tier {tier[:30]!r}: one of {', '.join(TIERS)}, or rating")
        self.rules = rules
        self.tier = tier


def unplayed_by(player: str | None) -> ColumnElement[bool]:
    """Puzzles this player has no attempt at."""
    if player is None:
        return true()
    return ~exists().where(
        models.PlayerAttempt.puzzle_id == models.PoolPuzzle.id, models.PlayerAttempt.player_id == player
    )


RATING_WINDOWS = (100.0, 200.0, 400.0, None)
"""How far from the player's rating a pick may be: the narrowest window that holds a puzzle wins."""


def choose(
    session: Session, player: str | None, rules: str, tier: str | None, near: float | None, rng: random.Random
) -> models.PoolPuzzle | None:
    """A practice puzzle of these rules the player has not played: of the tier, or rated near `near`;
    random among a few, so that players do not all get the same one."""
    query = select(models.PoolPuzzle).where(
        models.PoolPuzzle.practice.is_(True), models.PoolPuzzle.rules == rules, unplayed_by(player)
    )
    if tier is not None:
        query = query.where(models.PoolPuzzle.tier == tier)
    if near is None:
        candidates = list(session.scalars(query.order_by(models.PoolPuzzle.id).limit(NEAREST)))
        return rng.choice(candidates) if candidates else None
    distance = func.abs(models.PoolPuzzle.rating - near)
    for window in RATING_WINDOWS:
        within = query if window is None else query.where(distance <= window)
        candidates = list(session.scalars(within.order_by(distance, models.PoolPuzzle.id).limit(NEAREST)))
        if candidates:
            return rng.choice(candidates)
    return None


def practice_puzzle(code: str) -> PuzzlePage:
    row = db.session().scalar(
        select(models.PoolPuzzle).where(
            models.PoolPuzzle.code == code[:16], models.PoolPuzzle.practice.is_(True)
        )
    )
    if row is None:
        abort(404, description=f"There is no practice puzzle {code[:16]!r}.")
    return PuzzlePage(row, "practice", (("code", row.code),))


def _player_rating(session: Session, player: str | None) -> float | None:
    if player is None:
        return None
    return session.scalar(select(models.Player.rating).where(models.Player.id == player))


@bp.get("/practice")
def practice_page() -> tuple[str, int]:
    return _render(), 200


def _render(message: str | None = None, choice: Choice | None = None) -> str:
    reader = db.session()
    player = current_player_id()
    unfinished = None
    if player is not None:
        unfinished = reader.scalar(
            select(models.PoolPuzzle)
            .join(models.PlayerAttempt, models.PlayerAttempt.puzzle_id == models.PoolPuzzle.id)
            .where(
                models.PlayerAttempt.player_id == player,
                models.PlayerAttempt.number.is_(None),
                models.PlayerAttempt.status == Status.PLAYING,
                models.PoolPuzzle.practice.is_(True),
            )
            .order_by(models.PlayerAttempt.started.desc())
            .limit(1)
        )
    return render_template(
        "practice.html",
        presets=list(PRESETS),
        tiers=TIERS,
        rules=choice.rules if choice else request.args.get("rules", "classic"),
        rating=_player_rating(reader, player),
        unfinished=unfinished,
        message=message,
    )


@bp.get("/practice/next")
def next_puzzle() -> Response | tuple[str, int]:
    choice = Choice(request.args.get("rules", "classic"), request.args.get("tier", "rating"))
    reader = db.session()
    player = current_player_id()
    near = None
    if choice.tier == "rating":
        near = _player_rating(reader, player) or models.TIER_RATINGS["hard"]
    tier = None if choice.tier == "rating" else choice.tier
    found = choose(reader, player, choice.rules, tier, near, random.Random())
    if found is None:
        wanted = f"{choice.tier} {choice.rules}" if tier else choice.rules
        message = (
            f"No {wanted} puzzle you have not played is ready: the pool is being topped up. Try another tier."
        )
        return _render(message, choice), 404
    return redirect(url_for("practice.puzzle", code=found.code), 303)


@bp.get("/practice/<code>")
def puzzle(code: str) -> tuple[str, int]:
    return render_turn(practice_puzzle(code))


add_turn_views(bp, "/practice/<code>", practice_puzzle)


# -- topping up the pool: the clock's job


def unplayed_count(session: Session, rules: str, tier: str) -> int:
    """Practice puzzles of these rules and tier that nobody has played yet."""
    return (
        session.scalar(
            select(func.count())
            .select_from(models.PoolPuzzle)
            .where(
                models.PoolPuzzle.practice.is_(True),
                models.PoolPuzzle.rules == rules,
                models.PoolPuzzle.tier == tier,
                ~exists().where(models.PlayerAttempt.puzzle_id == models.PoolPuzzle.id),
            )
        )
        or 0
    )


def top_up(targets: Mapping[str, int], seconds: float, time_limit: float) -> Counter[tuple[str, str]]:
    """Generate practice puzzles until every preset and tier has its target of unplayed ones, or the
    time is up; returns how many were added per (rules, tier). The tiers take turns, so a short
    run still gives each a share. Needs an app context."""
    database = db.database()
    deadline = time.monotonic() + seconds
    wanting: dict[tuple[str, str], int] = {}
    with database.reader() as session:
        for rules, target in targets.items():
            for tier in TIERS:
                missing = target - unplayed_count(session, rules, tier)
                if missing > 0:
                    wanting[(rules, tier)] = missing
    seeds = {key: _first_seed(*key) for key in wanting}
    added: Counter[tuple[str, str]] = Counter()
    while wanting and time.monotonic() < deadline:
        for key in list(wanting):
            rules, tier = key
            made = _make(rules, tier, seeds[key], time_limit)
            seeds[key] += 1
            if made is None:
                continue
            with database.write() as session:
                row, new = pool.add(session, made, now())
                if new:
                    row.practice = True
            if new:
                added[key] += 1
                wanting[key] -= 1
                if not wanting[key]:
                    del wanting[key]
            if time.monotonic() >= deadline:
                break
    return added


def _first_seed(rules: str, tier: str) -> int:
    # each (rules, tier) has its own seed range; a restart begins again where the pool stands
    with db.database().reader() as session:
        made = session.scalar(
            select(func.count())
            .select_from(models.PoolPuzzle)
            .where(
                models.PoolPuzzle.practice.is_(True),
                models.PoolPuzzle.rules == rules,
                models.PoolPuzzle.tier == tier,
            )
        )
    return SEED_BASE + (list(PRESETS).index(rules) * len(TIERS) + TIERS.index(tier)) * 1_000_000 + (made or 0)


def _make(rules: str, tier: str, seed: int, time_limit: float) -> generator.Puzzle | None:
    """One practice puzzle of exactly this tier, or None."""
    try:
        made = make_puzzle(rules, tier=tier, seed=seed, time_limit=time_limit)
    except PuzzleError:
        return None
    if made.tier != tier:
        return None
    return made


def fill_job() -> Counter[tuple[str, str]]:
    """One run of the clock's practice job; needs an app context."""
    config = current_app.config
    added = top_up(
        config["PRACTICE_POOL"], float(config["PRACTICE_FILL_SECONDS"]), config["GENERATE_TIME_LIMIT"]
    )
    log.info("practice: added %d puzzles", sum(added.values()))
    return added


@bp.cli.command("fill", help="Top up the practice pool now (the clock does it every ten minutes).")
@click.option(
    "--target", type=click.IntRange(0, 100_000), default=None, help="Unplayed classic puzzles per tier."
)
@click.option("--seconds", type=click.FloatRange(1, 86_400), default=None, help="Stop after this long.")
def fill_command(target: int | None, seconds: float | None) -> None:
    config = current_app.config
    targets = practice_pool(target) if target is not None else config["PRACTICE_POOL"]
    budget = seconds if seconds is not None else float(config["PRACTICE_FILL_SECONDS"])
    added = top_up(targets, budget, config["GENERATE_TIME_LIMIT"])
    click.echo(f"added {sum(added.values())} practice puzzle{'s' if sum(added.values()) != 1 else ''}")
