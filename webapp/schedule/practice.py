"""Practice: endless puzzles from the pool, by tier or near the player's rating, for every preset.

Practice puzzles are made for it (never daily ones) and the clock keeps the pool topped up ahead of
the players, so no request ever waits for the generator: `top_up` runs in the clock process (and as
`flask practice fill`), and a request only picks among the puzzles already stored (`choose`).
"""

from __future__ import annotations

import logging
import random
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from flask import current_app
from sqlalchemy import ColumnElement, String, cast, exists, func, select, true
from sqlalchemy.orm import Session

from generator import THEMES, TIERS, recipe_for
from puzzles import PRESETS
from webapp import db
from webapp.models import PlayerAttempt, PoolPuzzle, Status
from webapp.schedule import pool
from webapp.schedule.clock import now

log = logging.getLogger(__name__)

NEAREST = 12
"""A practice pick is random among this many candidates, so that players do not all get one puzzle."""
SEED_BASE = 100_000_000
"""Practice seeds start far above the daily ones (the day's number, plus a million per retry)."""


def unplayed_by(player: str | None) -> ColumnElement[bool]:
    """Puzzles this player has no attempt at."""
    if player is None:
        return true()
    return ~exists().where(PlayerAttempt.puzzle_id == PoolPuzzle.id, PlayerAttempt.player_id == player)


RATING_WINDOWS = (100.0, 200.0, 400.0, None)
"""How far from the player's rating a pick may be: the narrowest window that holds a puzzle wins."""


def with_theme(theme: str) -> ColumnElement[bool]:
    """Puzzles tagged with this theme (a name of `generator.THEMES`): its quoted name in the stored
    JSON list, which reads the same on SQLite and PostgreSQL."""
    return cast(PoolPuzzle.themes, String).contains(f'"{theme}"')


def choose(
    session: Session,
    player: str | None,
    rules: str,
    tier: str | None,
    near: float | None,
    rng: random.Random,
    theme: str | None = None,
) -> PoolPuzzle | None:
    """A practice puzzle of these rules the player has not played: of the tier, or rated near `near`,
    and with the theme if one is asked; random among a few, so that players do not all get the same one."""
    query = select(PoolPuzzle).where(
        PoolPuzzle.practice.is_(True), pool.graded(), PoolPuzzle.rules == rules, unplayed_by(player)
    )
    if tier is not None:
        query = query.where(PoolPuzzle.tier == tier)
    if theme is not None:
        query = query.where(with_theme(theme))
    if near is None:
        candidates = list(session.scalars(query.order_by(PoolPuzzle.id).limit(NEAREST)))
        return rng.choice(candidates) if candidates else None
    distance = func.abs(PoolPuzzle.rating - near)
    for window in RATING_WINDOWS:
        within = query if window is None else query.where(distance <= window)
        candidates = list(session.scalars(within.order_by(distance, PoolPuzzle.id).limit(NEAREST)))
        if candidates:
            return rng.choice(candidates)
    return None


@dataclass(frozen=True, slots=True)
class Offer:
    """What practice offers a player, read from the pool: for each preset, the tiers with any theme
    (`""`) and the tiers of each theme. The clock's job fills the presets it has a target for by
    tier, never by theme, so a theme is offered only at the tiers where the pool holds a puzzle of it
    the player has not played: a pair that never fills is never offered."""

    tiers: dict[str, dict[str, tuple[str, ...]]]
    """rules -> theme (`""` for any) -> tiers, easiest first."""

    def of(self, rules: str, theme: str = "") -> tuple[str, ...]:
        return self.tiers.get(rules, {}).get(theme, ())

    def themes(self, rules: str) -> list[str]:
        """The themes offered under these rules, in `generator.THEMES`'s order."""
        offered = self.tiers.get(rules, {})
        return [name for name in THEMES if offered.get(name)]


def offered(session: Session, player: str | None, targets: Mapping[str, int]) -> Offer:
    """What practice can give this player now (`Offer`): every tier of a preset the clock's job fills
    (`targets`: a preset's unplayed puzzles kept per tier; the generator has a recipe for each tier),
    and each preset's, theme's and tier's puzzles in the pool that the player has not played."""
    tiers: dict[str, dict[str, set[str]]] = {
        rules: {"": {tier for tier in TIERS if targets.get(rules, 0) > 0 and recipe_for(tier, rules)}}
        for rules in PRESETS
    }
    query = select(PoolPuzzle.rules, PoolPuzzle.tier, PoolPuzzle.themes).where(
        PoolPuzzle.practice.is_(True), pool.graded(), unplayed_by(player)
    )
    for rules, tier, themes in session.execute(query):
        if rules not in tiers or tier not in TIERS:
            continue
        for theme in ("", *themes):
            tiers[rules].setdefault(theme, set()).add(tier)
    return Offer(
        {
            rules: {
                theme: tuple(tier for tier in TIERS if tier in found) for theme, found in by_theme.items()
            }
            for rules, by_theme in tiers.items()
        }
    )


def unfinished(session: Session, player: str | None) -> PoolPuzzle | None:
    """The practice puzzle the player last started and has not finished, if any."""
    if player is None:
        return None
    return session.scalar(
        select(PoolPuzzle)
        .join(PlayerAttempt, PlayerAttempt.puzzle_id == PoolPuzzle.id)
        .where(
            PlayerAttempt.player_id == player,
            PlayerAttempt.number.is_(None),
            PlayerAttempt.run_id.is_(None),  # a run deals its own puzzles
            PlayerAttempt.review == 0,
            PlayerAttempt.status == Status.PLAYING,
            PoolPuzzle.practice.is_(True),
        )
        .order_by(PlayerAttempt.started.desc())
        .limit(1)
    )


# -- topping up the pool: the clock's job


def unplayed_count(session: Session, rules: str, tier: str) -> int:
    """Practice puzzles of these rules and tier that nobody has played yet."""
    return (
        session.scalar(
            select(func.count())
            .select_from(PoolPuzzle)
            .where(
                PoolPuzzle.practice.is_(True),
                pool.graded(),
                PoolPuzzle.rules == rules,
                PoolPuzzle.tier == tier,
                ~exists().where(PlayerAttempt.puzzle_id == PoolPuzzle.id),
            )
        )
        or 0
    )


def top_up(
    targets: Mapping[str, int],
    seconds: float,
    time_limit: float,
    timer: Callable[[], float] = time.monotonic,
) -> Counter[tuple[str, str]]:
    """Generate practice puzzles until every preset and tier has its target of unplayed ones, or
    `seconds` have passed on `timer`; returns how many were added per (rules, tier). The tiers take
    turns, so a short run still gives each a share. A puzzle whose table nearly repeats one of the
    pool's of its preset and tier is left out, as `flask puzzles import` leaves it out. Needs an app
    context."""
    database = db.database()
    deadline = timer() + seconds
    wanting: dict[tuple[str, str], int] = {}
    with database.reader() as session:
        for rules, target in targets.items():
            for tier in TIERS:
                missing = target - unplayed_count(session, rules, tier)
                if missing > 0:
                    wanting[(rules, tier)] = missing
    seeds = {key: _first_seed(*key) for key in wanting}
    added: Counter[tuple[str, str]] = Counter()
    while wanting and timer() < deadline:
        for key in list(wanting):
            rules, tier = key
            made = pool.make_exact(rules, tier, seeds[key], time_limit)
            seeds[key] += 1
            if made is None:
                continue
            with database.write() as session:
                added_now, _, _ = pool.import_puzzles(session, [made], now())
                new = bool(added_now)
                if new:
                    row = pool.stored(session, made)
                    assert row is not None
                    row.practice = True
            if new:
                added[key] += 1
                wanting[key] -= 1
                if not wanting[key]:
                    del wanting[key]
            if timer() >= deadline:
                break
    return added


def _first_seed(rules: str, tier: str) -> int:
    # each (rules, tier) has its own seed range; a restart begins again where the pool stands
    with db.database().reader() as session:
        made = session.scalar(
            select(func.count())
            .select_from(PoolPuzzle)
            .where(
                PoolPuzzle.practice.is_(True),
                PoolPuzzle.rules == rules,
                PoolPuzzle.tier == tier,
            )
        )
    return SEED_BASE + (list(PRESETS).index(rules) * len(TIERS) + TIERS.index(tier)) * 1_000_000 + (made or 0)


def fill_job() -> Counter[tuple[str, str]]:
    """One run of the clock's practice job; needs an app context."""
    config = current_app.config
    added = top_up(
        config["PRACTICE_POOL"], float(config["PRACTICE_FILL_SECONDS"]), config["GENERATE_TIME_LIMIT"]
    )
    log.info("practice: added %d puzzles", sum(added.values()))
    return added
