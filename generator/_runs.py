"""Generation runs: many attempts in seed order, in one process or several, deduplicated.

The attempts of a seed are numbered; workers take them in chunks, and results are consumed in
attempt order, so the output depends on the seed alone, whatever the number of workers.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from itertools import islice
from multiprocessing.pool import AsyncResult, Pool
from typing import TypeVar

from generator._duplicates import near_duplicate
from generator._grading import LEAST_DECISIONS
from generator._make import SEED_STRIDE, Attempt, attempt, attempt_id, forks_enough, judged
from generator._puzzle import Melds, Puzzle
from generator._search import plain
from generator._shapes import Template, template_of
from generator._themes import motif_of

Job = TypeVar("Job")
Result = TypeVar("Result")

CHUNK = 4
"""Attempts per task: enough to make the cost of handing work to a process negligible."""
AHEAD = 6
"""Tasks queued per worker, so no worker waits while the next result in order is pending."""
MOTIF_SHARE = 0.4
"""At most this share of a run's puzzles of a VARIED tier have one motif (`motif_of`): a puzzle
whose motif would hold more is left out (issue 21: from Hard up a player met one trick made bigger;
a chain made longer must not take its place). The fastest method of a tier makes one motif of most
of its puzzles (chains made "cycle" of nearly every Master)."""
VARIED = frozenset({"expert", "master"})
"""The tiers whose runs keep their motifs under MOTIF_SHARE. Below Expert the methods that make a
tier's live decoys make one motif too, and a cap costs the decoys: at Medium every rival (0b) is an
end card, and capping it took Medium's live decoys under 30%; capping Hard's runs to sets took its
live decoys from 77% to 67% of 30 puzzles (bench/generate.py, seed 7), under the 70% they must reach."""
FIGURE_SHARE = 1 / 3
"""At most this share of a run's puzzles of a VARIED tier have a table that is a figure
(`generator._shapes.is_figure`, issue 21): a figure puzzle that would take the share over it is left
out. 5m's climbs made figures of 29% of its Masters with two real forks (seeds 11, 23, 47), and a
run of 10 kept half on seed 11; pruning cannot take off sets the best play breaks."""
TEMPLATE_SHARE = 1 / 5
"""At most this share of a run's puzzles of any tier have one template (`generator._shapes.template_of`:
the melds the shown play breaks and the spacing of its sets; issue 38 item 3): a puzzle whose
template would take it over is left out. Unlike the motif cap it holds below Expert too, where a
run of 30 Easy puzzles made 9 of one template (seed 359)."""
DEEPER_SHARE: dict[str, float] = {"master": 1 / 3}
"""At least this share of a run's puzzles of these tiers count more decisions than the tier needs
(`generator._grading.LEAST_DECISIONS`): a puzzle with just the tier's decisions that would take the
share under it is left out (issue 38 item 1: a Master's decisions are no fixed quota, a third or
more count more than 3). About a quarter of the Masters the recipe makes count more than 3."""
MOTIF_GRACE = 5
"""A short run's first puzzles of a tier are kept whatever their motif: a share of two or three
puzzles says nothing, and a short run (a test, a top-up of the pool) should not wait for a rare
motif. A run planned for this many puzzles of the tier or more has no grace: its ceilings (motifs,
figures, templates) count against the size it is planned to reach (`_over`), since a grace let the
first five hold one motif or five figures, which no later puzzle can take back."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What a run generates."""

    rules: str
    recipe: tuple[str, ...]
    """The method letters that take turns, attempt by attempt."""
    seed: int
    tier: str | None = None
    time_limit: float = 2.0


@dataclass(slots=True)
class Tally:
    """Running statistics of a generation run."""

    attempts: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    tiers: Counter[str] = field(default_factory=Counter)
    duplicates: int = 0
    near_duplicates: int = 0
    """Puzzles left out because they share too many melds with one kept before (`near_duplicate`)."""
    motif_refusals: int = 0
    """Puzzles left out because their motif already held MOTIF_SHARE of their tier's (`_too_common`)."""
    weak_forks: int = 0
    """Expert and Master puzzles left out because their forks are weak (`generator._make.forks_enough`)."""
    figure_refusals: int = 0
    """Puzzles left out because their table is a figure and figures already held FIGURE_SHARE of
    their tier's (`_Kept.too_many_figures`)."""
    template_refusals: int = 0
    """Puzzles left out because their template already held TEMPLATE_SHARE of their tier's
    (`_Kept.too_many_alike`)."""
    decision_refusals: int = 0
    """Puzzles left out because they count just their tier's decisions and the puzzles that count
    more would fall under DEEPER_SHARE of their tier's (`_Kept.too_few_deeper`)."""
    other_tier: int = 0
    kept: int = 0

    def add(self, result: Attempt) -> None:
        self.attempts += 1
        self.outcomes[result.outcome] += 1

    @property
    def acceptance(self) -> float:
        """The share of attempts that gave a puzzle the run kept."""
        return self.kept / self.attempts if self.attempts else 0.0


def _chunk(plan: Plan, first: int, limit: int) -> list[Attempt]:
    # the real forks are counted in the worker: the parent process never calls the solver
    return [
        judged(attempt(attempt_id(plan.rules, plan.recipe, plan.seed, n), plan.time_limit), plan.tier)
        for n in range(first, min(first + CHUNK, limit))
    ]


def _quiet_worker() -> None:
    # the parent process handles Ctrl-C and stops the workers itself, with SIGTERM
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def in_order(
    task: Callable[[Job], list[Result]], jobs: Iterable[Job], workers: int, stop: Callable[[], bool]
) -> Generator[Result, None, None]:
    """The results of `task` on each job, in the order of the jobs, computed by `workers` processes,
    until `stop()` says so.

    Even one worker is a process of its own: the solver takes over Ctrl-C while it runs (OR-Tools
    catches SIGINT and afterwards restores the default), so the process that listens for Ctrl-C
    must never call it.
    """
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool: Pool = context.Pool(workers, initializer=_quiet_worker)
    try:
        queue = iter(jobs)
        pending: deque[AsyncResult[list[Result]]] = deque(
            pool.apply_async(task, (job,)) for job in islice(queue, workers * AHEAD)
        )
        while pending:
            running = pending.popleft()
            while not running.ready() and not stop():
                running.wait(0.1)
            if stop():
                return
            yield from running.get()
            for job in islice(queue, 1):
                pending.append(pool.apply_async(task, (job,)))
    finally:
        pool.terminate()
        pool.join()


def attempts(
    plan: Plan, workers: int, stop: Callable[[], bool], limit: int = SEED_STRIDE
) -> Generator[Attempt, None, None]:
    """The attempts of the plan's seed in order, computed by `workers` processes, until `stop()`
    says so, `limit` attempts were made, or the seed's stream ends."""
    limit = min(limit, SEED_STRIDE)
    task = partial(_chunk, plan, limit=limit)
    for result in in_order(task, range(0, limit, CHUNK), workers, stop):
        if stop():
            return
        yield result


def generate(
    plan: Plan,
    count: int,
    workers: int,
    stop: Callable[[], bool],
    seen: set[str],
    tally: Tally,
    limit: int = SEED_STRIDE,
    progress: Callable[[Tally], None] = lambda tally: None,
    earlier: Iterable[Puzzle] = (),
) -> Iterator[Puzzle]:
    """Up to `count` new puzzles of the plan, in attempt order, skipping canonical forms in `seen`
    (which grows), puzzles of another tier than the plan's, Experts and Masters whose forks are
    weak (`generator._make.forks_enough`), and near-duplicates of a puzzle of the
    same tier kept before or in `earlier` (the puzzles already in the output file), and, at a
    VARIED tier, puzzles whose motif already holds MOTIF_SHARE of that tier's, and figures once they
    hold FIGURE_SHARE, and at every tier puzzles whose template holds TEMPLATE_SHARE (`earlier`
    counts too)."""
    if count <= 0:
        return
    kept = _Kept()
    for puzzle in earlier:
        if puzzle.rules == plan.rules:
            kept.add(puzzle)
    with closing(attempts(plan, workers, stop, limit)) as results:
        yield from _keep(plan, count, results, seen, kept, tally, progress)


@dataclass(slots=True)
class _Kept:
    """What a run has kept so far, by tier: the tables (near-duplicates) and the motifs (variety)."""

    tables: dict[str, list[Melds]] = field(default_factory=dict)
    motifs: dict[str, Counter[str | None]] = field(default_factory=dict)
    figures: Counter[str] = field(default_factory=Counter)
    least: Counter[str] = field(default_factory=Counter)
    """Puzzles kept by tier that count just the decisions their tier needs (`_least`)."""
    templates: dict[str, Counter[Template]] = field(default_factory=dict)
    """Puzzles kept by tier and template (`generator._shapes.template_of`)."""
    planned: Counter[str] = field(default_factory=Counter)
    """How many puzzles of a tier the run means to hold when it ends, those given before it
    included (0 when it does not know: a run of any tier)."""

    def plan(self, tier: str | None, count: int) -> None:
        """Plan `count` more puzzles of `tier` beside those kept so far."""
        if tier is not None:
            self.planned[tier] = self.count(tier) + count

    def add(self, puzzle: Puzzle) -> None:
        self.tables.setdefault(puzzle.tier, []).append(puzzle.table)
        self.motifs.setdefault(puzzle.tier, Counter())[motif_of(puzzle.themes)] += 1
        self.figures[puzzle.tier] += _figure(puzzle)
        self.least[puzzle.tier] += _least(puzzle)
        self.templates.setdefault(puzzle.tier, Counter())[_template(puzzle)] += 1

    def count(self, tier: str) -> int:
        """The puzzles of the tier kept so far (each has a motif, maybe None)."""
        return sum(self.motifs.get(tier, Counter()).values())

    def too_few_deeper(self, puzzle: Puzzle) -> bool:
        """Whether the puzzle counts just its tier's decisions and one more would take the puzzles
        that count more under DEEPER_SHARE of the tier's puzzles kept (after the first MOTIF_GRACE of
        them, as for motifs)."""
        share = DEEPER_SHARE.get(puzzle.tier)
        kept = self.count(puzzle.tier)
        if share is None or kept < MOTIF_GRACE or not _least(puzzle):
            return False
        return self.least[puzzle.tier] + 1 > (1 - share) * (kept + 1)

    def too_common(self, puzzle: Puzzle) -> bool:
        """Whether one more puzzle of this motif would put it over MOTIF_SHARE of the tier's puzzles
        (`_over`; a puzzle without a motif is never left out for it)."""
        motifs = self.motifs.get(puzzle.tier, Counter())
        motif = motif_of(puzzle.themes)
        return _too_common(motifs, motif, self.planned[puzzle.tier])

    def too_many_alike(self, puzzle: Puzzle) -> bool:
        """Whether one more puzzle of this template would put it over TEMPLATE_SHARE of the tier's
        puzzles (`_over`)."""
        tier = puzzle.tier
        held = self.templates.get(tier, Counter())[_template(puzzle)]
        return _over(held, TEMPLATE_SHARE, self.count(tier), self.planned[tier])

    def too_many_figures(self, puzzle: Puzzle) -> bool:
        """Whether the puzzle's table is a figure and one more would put figures over FIGURE_SHARE of
        the tier's puzzles (`_over`)."""
        if not _figure(puzzle):
            return False
        tier = puzzle.tier
        return _over(self.figures[tier], FIGURE_SHARE, self.count(tier), self.planned[tier])


def _least(puzzle: Puzzle) -> bool:
    """Whether the puzzle counts no more decisions than its tier needs: a count not proved reads as
    its proved lower bound, as the grade reads it."""
    decisions = puzzle.decisions if puzzle.decisions is not None else puzzle.decisions_at_least
    return decisions is not None and decisions <= LEAST_DECISIONS.get(puzzle.tier, 0)


def _figure(puzzle: Puzzle) -> bool:
    return not plain(puzzle.position())


def _template(puzzle: Puzzle) -> Template:
    return template_of(puzzle.position(), puzzle.solution)


def _too_common(motifs: Counter[str | None], motif: str | None, planned: int = 0) -> bool:
    """Whether one more puzzle of this motif would put it over MOTIF_SHARE of the tier's puzzles
    (`_over`; a puzzle without a motif is never left out for it)."""
    if motif is None:
        return False
    return _over(motifs[motif], MOTIF_SHARE, sum(motifs.values()), planned)


def _over(held: int, share: float, kept: int, planned: int) -> bool:
    """Whether one more puzzle of a kind would take it over `share` of the tier's puzzles, when
    `held` of the `kept` so far are of it: a share of the size the run plans to reach
    (`_Kept.planned`) while it holds fewer, so that it ends within the share. A short run (planned
    under MOTIF_GRACE) keeps its first MOTIF_GRACE puzzles whatever they are."""
    if planned < MOTIF_GRACE and kept < MOTIF_GRACE:
        return False
    return held + 1 > share * max(kept + 1, planned)


def _keep(
    plan: Plan,
    count: int,
    results: Iterator[Attempt],
    seen: set[str],
    kept: _Kept,
    tally: Tally,
    progress: Callable[[Tally], None],
) -> Iterator[Puzzle]:
    """Up to `count` puzzles of `results`, as `_new_puzzle` keeps them; `kept` holds those given
    before, and the run's ceilings count against them and `count` more (`_Kept.plan`)."""
    kept.plan(plan.tier, count)
    for result in results:
        tally.add(result)
        puzzle = _new_puzzle(plan, result, seen, kept, tally)
        progress(tally)
        if puzzle is not None:
            yield puzzle
            if tally.kept >= count:
                return


def _new_puzzle(plan: Plan, result: Attempt, seen: set[str], kept: _Kept, tally: Tally) -> Puzzle | None:
    puzzle = result.puzzle
    if puzzle is None:
        return None
    if plan.tier is not None and puzzle.tier != plan.tier:
        tally.other_tier += 1
        return None
    if not forks_enough(result):
        tally.weak_forks += 1
        return None
    canonical = puzzle.canonical
    if canonical in seen:
        tally.duplicates += 1
        return None
    if any(near_duplicate(puzzle.table, table, puzzle.rules) for table in kept.tables.get(puzzle.tier, [])):
        tally.near_duplicates += 1
        return None
    if puzzle.tier in VARIED and kept.too_common(puzzle):
        tally.motif_refusals += 1
        return None
    if puzzle.tier in VARIED and kept.too_many_figures(puzzle):
        tally.figure_refusals += 1
        return None
    if kept.too_many_alike(puzzle):
        tally.template_refusals += 1
        return None
    if kept.too_few_deeper(puzzle):
        tally.decision_refusals += 1
        return None
    kept.add(puzzle)
    seen.add(canonical)
    tally.kept += 1
    tally.tiers[puzzle.tier] += 1
    return puzzle
