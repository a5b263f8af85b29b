"""The puzzle pool in the database: imported from generator files or made on demand, stored once.

`make_puzzle` is called here alone, so a test replaces the generator in one place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

import generator
from generator import TIERS, PuzzleError, make_puzzle
from puzzles import argtypes
from webapp import models


class PoolError(ValueError):
    """A puzzle file that cannot be imported, or no puzzle to be had; the message says which line."""


def stored(session: Session, puzzle: generator.Puzzle) -> models.PoolPuzzle | None:
    canonical = puzzle.canonical
    return session.scalar(select(models.PoolPuzzle).where(models.PoolPuzzle.canonical == canonical))


def add(session: Session, puzzle: generator.Puzzle, now: datetime) -> tuple[models.PoolPuzzle, bool]:
    """The pool's row for this puzzle, inserted unless the same puzzle is there; and whether it was new."""
    row = stored(session, puzzle)
    if row is not None:
        return row, False
    row = models.PoolPuzzle(
        code=puzzle.id,
        canonical=puzzle.canonical,
        rules=puzzle.rules,
        tier=puzzle.tier,
        depth=puzzle.depth,
        chain=puzzle.chain,
        themes=list(puzzle.themes),
        live_decoys=puzzle.live_decoys,
        max_placed=puzzle.max_placed,
        decisions=puzzle.decisions,
        decisions_at_least=puzzle.decisions_at_least,
        forks=puzzle.forks,
        forks_at_least=puzzle.forks_at_least,
        real_forks=puzzle.real_forks,
        key_ideas=None if puzzle.key_ideas is None else [idea.to_json() for idea in puzzle.key_ideas],
        hand_size=puzzle.hand_size,
        decoys=puzzle.decoys,
        table=[list(meld) for meld in puzzle.table],
        hand=list(puzzle.hand),
        solution=[list(meld) for meld in puzzle.solution],
        added=now,
    )
    session.add(row)
    session.flush()
    return row, True


IMPORT_TIME_LIMIT = 10.0
"""Seconds the solver may take to prove an imported puzzle's claims: generous, as the generator had 2."""


def read_file(path: Path) -> list[tuple[int, generator.Puzzle]]:
    """Every puzzle of a generator output file (JSON Lines) with its line number; PoolError naming
    the first bad line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PoolError(f"{path}: cannot read it ({error.__class__.__name__})") from None
    puzzles = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}: line {number}"
        try:
            data = argtypes.load_json(line)
        except argtypes.NotJSON as error:
            raise PoolError(f"{where}: not JSON ({error})") from None
        try:
            puzzles.append((number, generator.Puzzle.from_json(data)))
        except PuzzleError as error:
            raise PoolError(f"{where}: {error}") from None
    return puzzles


def new_lines(
    session: Session, lines: Iterable[tuple[int, generator.Puzzle]], path: Path
) -> list[tuple[int, generator.Puzzle]]:
    """The lines whose puzzle the pool lacks; PoolError naming the first that takes an id another
    puzzle has."""
    ids: dict[str, str] = {}
    fresh = []
    for number, puzzle in lines:
        if stored(session, puzzle) is not None:
            continue
        taken = session.scalar(select(models.PoolPuzzle.canonical).where(models.PoolPuzzle.code == puzzle.id))
        if taken is not None or ids.setdefault(puzzle.id, puzzle.canonical) != puzzle.canonical:
            raise PoolError(f"{path}: line {number}: id {puzzle.id} belongs to another puzzle")
        fresh.append((number, puzzle))
    return fresh


def prove(lines: Iterable[tuple[int, generator.Puzzle]], path: Path, time_limit: float) -> None:
    """PoolError naming the first line with a claim (maximum, uniqueness, laid cards, depth, tier)
    the solver refutes: a file from elsewhere is checked as the generator's own output was."""
    for number, puzzle in lines:
        problems = generator.verify(puzzle, time_limit)
        if problems:
            raise PoolError(f"{path}: line {number}: {problems[0]}")


def import_puzzles(
    session: Session, puzzles: Iterable[generator.Puzzle], now: datetime
) -> tuple[int, int, int]:
    """Add the puzzles the pool lacks, but for those whose table `repeats` one of a pool puzzle of
    the same preset and tier; returns (added, already there, near-duplicates left out)."""
    added = skipped = near = 0
    for puzzle in puzzles:
        if stored(session, puzzle) is None and repeats(puzzle.table, _tables(session, puzzle), puzzle.rules):
            near += 1
            continue
        _, new = add(session, puzzle, now)
        added += new
        skipped += not new
    return added, skipped, near


def _tables(session: Session, puzzle: generator.Puzzle) -> list[list[list[str]]]:
    """The tables of the pool's puzzles of the puzzle's preset and tier."""
    return list(
        session.scalars(
            select(models.PoolPuzzle.table).where(
                models.PoolPuzzle.rules == puzzle.rules, models.PoolPuzzle.tier == puzzle.tier
            )
        )
    )


def graded() -> ColumnElement[bool]:
    """Puzzles graded by chain length: the only ones chosen for a new day or for practice."""
    return models.PoolPuzzle.chain.is_not(None)


def tier_preference(tier: str) -> list[str]:
    """The tier asked for, then the next easier ones, then the harder ones."""
    rank = TIERS.index(tier)
    return [tier, *reversed(TIERS[:rank]), *TIERS[rank + 1 :]]


Table = Sequence[Sequence[str]]


def repeats(table: Table, tables: Iterable[Table], rules: str) -> bool:
    """Whether a table nearly repeats one of these, up to relabelling, its melds read under these
    rules (`generator.near_duplicate`): the schedule's one test for it."""
    return any(generator.near_duplicate(table, other, rules) for other in tables)


UNUSED_CANDIDATES = 64
"""A day's puzzle is one of this many unused pool puzzles of its tier (the oldest), chosen by the secret."""


def unused(
    session: Session,
    rules: str,
    tier: str,
    exact: bool = False,
    avoid: frozenset[str] = frozenset(),
    choice: int = 0,
    unlike: Sequence[Table] = (),
) -> models.PoolPuzzle | None:
    """A graded pool puzzle of these rules never yet a daily, of the tier asked (`exact`) or else of
    the nearest tier to it, whose main theme is not in `avoid` and whose table `repeats` none of
    `unlike`: the `choice`-th (modulo how many) of the oldest few.

    Practice puzzles never become daily ones: players may have played them already."""
    for candidate_tier in [tier] if exact else tier_preference(tier):
        rows = session.scalars(
            select(models.PoolPuzzle)
            .outerjoin(models.Daily, models.Daily.puzzle_id == models.PoolPuzzle.id)
            .where(
                models.Daily.number.is_(None),
                models.PoolPuzzle.practice.is_(False),
                graded(),
                models.PoolPuzzle.rules == rules,
                models.PoolPuzzle.tier == candidate_tier,
            )
            .order_by(models.PoolPuzzle.id)
            .limit(UNUSED_CANDIDATES)
        )
        candidates = [
            row
            for row in rows
            if generator.motif_of(row.themes) not in avoid and not repeats(row.table, unlike, rules)
        ]
        if candidates:
            return candidates[choice % len(candidates)]
    return None


def make_exact(rules: str, tier: str, seed: int, time_limit: float) -> generator.Puzzle | None:
    """A new puzzle of exactly this tier, or None; deterministic for the same arguments."""
    try:
        made = make_puzzle(rules, tier=tier, seed=seed, time_limit=time_limit)
    except PuzzleError:
        return None
    return made if made.tier == tier else None


def make(rules: str, tier: str, seed: int, time_limit: float) -> generator.Puzzle:
    """A new puzzle of the tier, or the nearest easier one; deterministic for the same arguments."""
    for candidate_tier in [*tier_preference(tier)[: TIERS.index(tier) + 1], None]:
        try:
            return make_puzzle(rules, tier=candidate_tier, seed=seed, time_limit=time_limit)
        except PuzzleError:
            continue
    raise PoolError(f"the generator found no {rules} puzzle from seed {seed}")
