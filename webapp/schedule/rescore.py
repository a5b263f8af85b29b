"""Grade the stored puzzles again by chain length, decisions and forks: `flask puzzles rescore`.

Each puzzle is analysed as the generator grades its own (`generator.puzzle_of`, under a time limit),
outside any transaction, and its row gets the chain length, themes and live decoys, the tier of its
chain length, decisions and forks (issue 38: a Master whose decisions are all declines is now
Hard; its ID still replays to its position), and as its solution the graded play (a maximal play whose
rearrangements each break at most the chain length: the same hand cards, laid the way the tier
measures). A puzzle the generator would no longer publish keeps no chain length (so it is never
chosen again), but its themes still count in the players' stats.

Days already open somewhere never change: their puzzle and tier stay, only the new columns are filled.
A future day whose puzzle no longer meets the day's tier loses it and is published again.

The key ideas (the decisions in words, `puzzles.key_ideas`) are found again with the graded play, as
they speak of its melds, and their forks judged weak or real (`judged_ideas`: a weak fork is said
plainly, never as the key), the real ones counted (`real_forks`). `flask puzzles key-ideas` finds
them for the puzzles stored before they were kept, and judges the forks of those not judged yet
(`fill_key_ideas`: stored before forks were judged, or below Expert, which a run does not judge),
without grading anything again; the clock does the same every hour.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import or_, select

import generator
import puzzles
from puzzles import parse_cards
from webapp import db, models
from webapp.schedule import daily
from webapp.schedule.clock import calendar, now
from webapp.schedule.days import weekly_tier

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Grade:
    """What the analysis of one stored puzzle found."""

    chain: int | None
    """The chain length, when proven."""
    tier: str | None
    """The tier the generator would publish it at; None when it would not publish it."""
    themes: tuple[str, ...]
    live_decoys: int | None
    solution: list[list[str]] | None = None
    """The graded play's final table, when the analysis found one."""
    decisions: int | None = None
    """The forcing player's decisions, when counted."""
    decisions_at_least: int | None = None
    forks: int | None = None
    forks_at_least: int | None = None
    key_ideas: list[dict[str, object]] | None = None
    """The decisions in words against `solution` (`puzzles.KeyIdea.to_json`)."""
    real_forks: int | None = None
    """The forks that are not weak (`judged_ideas`), when `solution` is known."""


def judged_ideas(
    position: puzzles.Position, table: Sequence[Sequence[puzzles.Card]], ideas: Sequence[puzzles.KeyIdea]
) -> tuple[tuple[puzzles.KeyIdea, ...], int]:
    """The ideas with their forks judged weak or real (`puzzles.weak_forks`, `puzzles.mark_weak`),
    whatever the tier (a run judges them at Expert and Master only), where a fork's idea is not
    judged yet (as they are otherwise); and the puzzle's real forks, the proved lower bound a run's
    line carries. The forcing player's count and a solve a card of one home, each with a limit of
    work (`bench/judge_cost.py` times them)."""
    play = puzzles.play_of(position, [puzzles.Meld.of(meld, position.rules) for meld in table])
    found = puzzles.weak_forks(position, play.placed, play.laid)
    if any(idea.kind == "fork" and idea.weak is None for idea in ideas):
        ideas = puzzles.mark_weak(ideas, found.weak)
    return tuple(ideas), found.forks_at_least


def grade(code: str, position: puzzles.Position, time_limit: float) -> Grade:
    """The puzzle graded as the generator grades its own, or, if it would no longer publish it, what
    the analysis still says (its chain length and themes)."""
    try:
        made = generator.puzzle_of(code, position, time_limit)
    except generator.PuzzleError:
        analysis = puzzles.analyse(position, time_limit=time_limit)
        if not analysis.proven:
            return Grade(None, None, (), None)
        graded = analysis.chain.play
        if graded is None:
            return Grade(analysis.chain.length, None, generator.themes_of(analysis), None)
        # a retired puzzle may still be an opened day's: its result card still says its key ideas
        table = [meld.cards for meld in graded.table]
        ideas, real_forks = judged_ideas(position, table, puzzles.key_ideas(position, table))
        return Grade(
            analysis.chain.length,
            None,
            generator.themes_of(analysis),
            None,
            [meld.tokens() for meld in graded.table],
            key_ideas=[idea.to_json() for idea in ideas],
            real_forks=real_forks,
        )
    solution = [parse_cards(meld) for meld in made.solution]
    ideas, real_forks = judged_ideas(position, solution, made.key_ideas or ())
    return Grade(
        made.chain,
        made.tier,
        made.themes,
        made.live_decoys,
        [list(meld) for meld in made.solution],
        made.decisions,
        made.decisions_at_least,
        made.forks,
        made.forks_at_least,
        None if made.key_ideas is None else [idea.to_json() for idea in ideas],
        real_forks,
    )


@dataclass
class Report:
    graded: int = 0
    retired: int = 0
    """Puzzles the generator would no longer publish (on no day yet, or on a future one)."""
    replaced: list[int] = field(default_factory=list)
    """Future days whose puzzle no longer met the day's tier, published again."""


def rescore(time_limit: float) -> Report:
    """Grade every stored puzzle again; needs an app context."""
    database, dates, moment = db.database(), calendar(), now()
    report = Report()
    with database.reader() as session:
        ids = list(session.scalars(select(models.PoolPuzzle.id).order_by(models.PoolPuzzle.id)))
    stale: list[int] = []
    for puzzle_id in ids:
        with database.reader() as session:
            row = session.get_one(models.PoolPuzzle, puzzle_id)
            code, position = row.code, row.position()
            number = session.scalar(select(models.Daily.number).where(models.Daily.puzzle_id == puzzle_id))
        found = grade(code, position, time_limit)  # seconds each: outside any transaction
        opened = number is not None and not dates.is_future(number, moment)
        with database.write() as session:
            row = session.get_one(models.PoolPuzzle, puzzle_id)
            row.themes = list(found.themes)
            row.live_decoys = found.live_decoys
            row.decisions = found.decisions
            row.decisions_at_least = found.decisions_at_least
            row.forks, row.forks_at_least = found.forks, found.forks_at_least
            if found.solution is not None:
                # the same hand cards laid (the maximal play is unique), so safe on an opened day too;
                # the key ideas speak of its melds, so they change with it
                row.solution = found.solution
                row.key_ideas = found.key_ideas
                row.real_forks = found.real_forks
            if opened:
                row.chain = found.chain  # a day that has opened keeps its puzzle and its tier
            else:
                row.chain = found.chain if found.tier is not None else None
                row.tier = found.tier or row.tier
                report.retired += found.tier is None
            if number is not None and not opened and found.tier != weekly_tier(dates.day(number)):
                session.delete(session.get_one(models.Daily, number))
                stale.append(number)
        report.graded += 1
    for number in stale:
        daily.publish(number)
        report.replaced.append(number)
    return report


@dataclass
class Filled:
    """What `fill_key_ideas` stored."""

    found: int = 0
    """Puzzles whose key ideas it found, or changed (their forks marked weak or real)."""
    judged: int = 0
    """Puzzles whose real forks it counted."""
    refused: list[str] = field(default_factory=list)
    """The codes of puzzles whose stored table or solution the engine refuses: left as they are."""


def fill_key_ideas(again: bool = False) -> Filled:
    """Find the key ideas of every stored puzzle that has none yet (stored before they were kept),
    or with `again` of every stored puzzle (after the engine learned to state more of them, as it
    did for jokers); and judge the forks of every puzzle not judged yet (stored before forks were
    judged, or below Expert, which a run does not judge: `judged_ideas`), its ideas marked and its
    real forks counted. Needs an app context. The forcing player works under its node limit,
    outside any transaction; a row whose solution, ideas or real forks changed meanwhile is left
    for the next run, and one the engine refuses to read is left as it is (logged, in `refused`),
    never stopping the others. The clock calls it every hour: a first pass over a pool of thousands takes
    minutes (`bench/judge_cost.py`), and later ones only the puzzles added since."""
    database = db.database()
    with database.reader() as session:
        rows = select(models.PoolPuzzle.id).order_by(models.PoolPuzzle.id)
        if not again:
            rows = rows.where(
                or_(models.PoolPuzzle.key_ideas.is_(None), models.PoolPuzzle.real_forks.is_(None))
            )
        ids = list(session.scalars(rows))
    filled = Filled()
    for puzzle_id in ids:
        with database.reader() as session:
            row = session.get_one(models.PoolPuzzle, puzzle_id)
            code, solution, stored, real = row.code, row.solution, row.key_ideas, row.real_forks
            position = (row.rules, row.table, row.hand)
        try:
            ideas, real_forks = _judged_row(position, solution, None if again else stored)
        except ValueError as error:  # the engine's errors: a card, meld or position it refuses
            # the clock meets it again every hour: one bad row must not hold up the rest of the pool
            log.error("key ideas: puzzle %s left as it is: %s", code, error)
            filled.refused.append(code)
            continue
        with database.write() as session:
            row = session.get_one(models.PoolPuzzle, puzzle_id)
            if (row.solution, row.key_ideas, row.real_forks) != (solution, stored, real):
                continue  # changed meanwhile (a rescore): the next run sees it as it is now
            if stored != ideas:
                row.key_ideas = ideas
                filled.found += 1
            if real != real_forks:
                row.real_forks = real_forks
                filled.judged += 1
    return filled


def _judged_row(
    position: tuple[str, list[list[str]], list[str]],
    solution: list[list[str]],
    stored: list[dict[str, object]] | None,
) -> tuple[list[dict[str, object]], int]:
    """A stored puzzle's key ideas (`stored`, where they read; else found against the solution) with
    its forks judged, as JSON, and its real forks (`judged_ideas`). `position`: its rules, table and
    hand as stored. ValueError where the engine refuses a card, meld or position."""
    rules, table, hand = position
    start = puzzles.Position.build(rules, table, hand)
    cards = [parse_cards(meld) for meld in solution]
    found = _stored_ideas(stored)
    if found is None:
        found = puzzles.key_ideas(start, cards)
    judged, real_forks = judged_ideas(start, cards, found)
    return [idea.to_json() for idea in judged], real_forks


def _stored_ideas(stored: list[dict[str, object]] | None) -> tuple[puzzles.KeyIdea, ...] | None:
    """A row's stored key ideas; None where it has none, or none that read (found again then)."""
    if stored is None:
        return None
    try:
        return puzzles.ideas_from_json(stored)
    except puzzles.KeyIdeaError:
        return None
