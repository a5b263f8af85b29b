"""The rules of a run, as data, and a run's state read off its attempts: pure, no Flask, no database.

A run's state is never stored beside its attempts, it is counted from them: the score is the puzzles
solved; a rush's deadline is its start plus its seconds, less a penalty for every slip, every turn
ended short of the maximum and every skip, plus a bonus for every puzzle solved without a slip; a
streak is over at its first failed puzzle (a turn ended short, or a give-up once the skip is spent).
Counting it again on each request costs one small query and leaves nothing to fall out of step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from webapp.models import TIER_RATINGS, TURN_GRACE, Status


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of run: its clock, what a mistake costs, its skips and how fast its puzzles rise."""

    name: str
    """`rush` or `streak`: also the name its views are registered under, and its URL."""
    seconds: int | None
    """The run's time; None: no clock."""
    penalty: int
    """Seconds off the clock for a slip, a turn ended short and a skip (a run with a clock)."""
    skips: int | None
    """Puzzles a run may skip; None: any number, each costing the penalty."""
    rise: float
    """Rating points the next puzzle aims higher for each puzzle solved."""
    bonus: int = 0
    """Seconds put back on the clock for a puzzle solved without a slip (a run with a clock)."""


RUSH = Kind("rush", seconds=180, penalty=10, skips=None, rise=50.0, bonus=5)
STREAK = Kind("streak", seconds=None, penalty=0, skips=1, rise=50.0)
KINDS = {kind.name: kind for kind in (RUSH, STREAK)}
RULES = "classic"
"""Runs deal classic puzzles only, so that every player's best score is of the same game."""
FIRST_RATING = TIER_RATINGS["easy"]
"""A run's first puzzle is rated near an Easy puzzle's starting rating."""


@dataclass(frozen=True, slots=True)
class Played:
    """A run's attempt, as the run's state needs it."""

    status: Status
    slips: int
    finished: datetime | None = None


@dataclass(frozen=True, slots=True)
class RunState:
    """Where a run stands at one moment."""

    kind: Kind
    solved: int
    """The score: puzzles solved in this run."""
    failed: int
    """Turns ended short of the maximum."""
    skipped: int
    slips: int
    deadline: datetime | None
    """When a rush's time runs out, its penalties taken off and its bonuses put back; None for a
    streak."""
    over: bool
    playing: bool
    """A puzzle of the run is being played."""
    combo: int = 0
    """Puzzles solved without a slip in a row, up to the last one finished."""
    clean: int = 0
    """Puzzles solved without a slip: each puts `kind.bonus` seconds back on a rush's clock."""

    @property
    def skips_left(self) -> int | None:
        """Skips the run still has; None: any number (each costs the penalty)."""
        return None if self.kind.skips is None else max(0, self.kind.skips - self.skipped)

    @property
    def target_rating(self) -> float:
        """The rating the next puzzle is dealt near: each solve raises it."""
        return next_rating(self.kind, self.solved)

    def seconds_left(self, moment: datetime) -> int | None:
        """Whole seconds left on a rush's clock at `moment` (never below 0); None without a clock."""
        if self.deadline is None:
            return None
        return max(0, int((self.deadline - moment).total_seconds() + 0.999))


def next_rating(kind: Kind, solved: int) -> float:
    return FIRST_RATING + kind.rise * solved


def run_state(
    kind: Kind, started: datetime, ended: datetime | None, played: Sequence[Played], moment: datetime
) -> RunState:
    """The run's state at `moment`, from its attempts in the order they were dealt. A streak's turn
    that ran out of time failed, as a turn ended short does (not a free skip); a rush's solve counts
    only if it was finished by the deadline (with the grace for the last request's travel): the score
    never moves once the time is up."""
    failing = (Status.MISSED,) if kind.seconds is not None else (Status.MISSED, Status.TIMED_OUT)
    failed = sum(1 for one in played if one.status in failing)
    skipped = sum(1 for one in played if one.status is Status.GAVE_UP)
    slips = sum(one.slips for one in played)
    clean = sum(1 for one in played if one.status is Status.SOLVED and not one.slips)
    finished = [one for one in played if one.status is not Status.PLAYING]
    combo = 0
    for one in reversed(finished):
        if one.status is not Status.SOLVED or one.slips:
            break
        combo += 1
    deadline = None
    over = ended is not None
    if kind.seconds is not None:
        lost = kind.penalty * (slips + failed + skipped)
        # a clean solve puts its seconds back only if it came in time: one after the deadline must
        # not move the deadline past itself
        clean = 0
        cleans = [one for one in played if one.status is Status.SOLVED and not one.slips]
        for one in sorted(cleans, key=lambda one: one.finished or started):
            reached = started + timedelta(seconds=kind.seconds - lost + kind.bonus * clean)
            if one.finished is None or one.finished <= reached + TURN_GRACE:
                clean += 1
        deadline = started + timedelta(seconds=kind.seconds - lost + kind.bonus * clean)
        # the last request may travel for a moment after the page's clock reads 0:00
        over = over or moment > deadline + TURN_GRACE
    else:
        over = over or failed > 0 or (kind.skips is not None and skipped > kind.skips)
    solved = sum(
        1
        for one in played
        if one.status is Status.SOLVED
        and (deadline is None or one.finished is None or one.finished <= deadline + TURN_GRACE)
    )
    playing = not over and any(one.status is Status.PLAYING for one in played)
    return RunState(kind, solved, failed, skipped, slips, deadline, over, playing, combo, clean)
