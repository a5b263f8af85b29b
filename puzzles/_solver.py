"""The solver's questions: maximum, uniqueness, chain depth, chain length, the step check and the
skill-limited player.

Each question is one or two solves of `puzzles._model.Model` within an explicit time limit, and
each answer says whether the solver proved it.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from puzzles._candidates import JOKER_INDEX, Candidate, Keeping, meld_of
from puzzles._cards import Card
from puzzles._melds import Meld, join_runs, table_order
from puzzles._model import LinearExpr, Model, Objective, Solution, Status
from puzzles._plays import Play
from puzzles._position import Position, PositionError
from puzzles._rules import FreedJoker

DEFAULT_TIME_LIMIT = 10.0
CHAIN_SHARE = 0.5
"""The share of an analysis's time limit kept for the chain length, the one part that can take long."""


@dataclass(frozen=True, slots=True)
class Best:
    """The answer of `maximum`."""

    play: Play
    objective: Objective
    value: int
    """Cards placed, or hand points placed, by the play."""
    optimal: bool
    """True only when the solver proved that no play does better."""
    ms: float


@dataclass(frozen=True, slots=True)
class Uniqueness:
    unique: bool | None
    """True: proved that every best play leaves the same hand. False: `witness` is a best play that
    leaves a different hand. None: not proved either way in the time allowed."""
    witness: Play | None
    ms: float


@dataclass(frozen=True, slots=True)
class Depth:
    depth: int | None
    """The fewest original melds a best play must break; None when no best play was found in time."""
    play: Play | None
    """A best play that breaks only that many and, among those, leaves the fewest hand points."""
    broken: tuple[int, ...]
    """Indices into the original table of the melds that play breaks."""
    optimal: bool
    ms: float
    layout: Counter[Candidate | Keeping] = field(default_factory=Counter, compare=False, repr=False)
    """The solver's candidate melds of `play`, for laying it out by rearrangement."""


@dataclass(frozen=True, slots=True)
class Chain:
    length: int | None
    """Chain length: the smallest k such that some best play splits into rearrangements that each
    break at most k melds; None when no best play was found in time."""
    optimal: bool
    rearrangements: tuple[tuple[int, ...], ...]
    """The melds the depth play breaks, grouped by rearrangement (indices into the original table)."""
    play: Play | None
    """A best play whose rearrangements each break at most `length` melds."""
    ms: float


@dataclass(frozen=True, slots=True)
class StepCheck:
    reachable: int | None
    """The most cards a play can place that keeps the cards already laid; None for a dead end."""
    proven: bool
    """False when the time ran out before the solver could prove `reachable` (or the dead end)."""
    ms: float

    @property
    def dead_end(self) -> bool:
        return self.proven and self.reachable is None


@dataclass(frozen=True, slots=True)
class SkillRun:
    """What the skill-limited player achieves: steps that each break at most `skill` melds."""

    skill: int
    placed: int
    """Cards placed by all its steps together: the number by which its hand shrank."""
    steps: tuple[Play, ...]
    """Each step's play, on the table as it stood before the step."""
    proven: bool
    """True when every step was proved to place the most its skill allows."""
    ms: float


@dataclass(frozen=True, slots=True)
class Analysis:
    position: Position
    best: Best
    uniqueness: Uniqueness
    depth: Depth
    chain: Chain
    ms: float

    @property
    def proven(self) -> bool:
        return (
            self.best.optimal
            and self.uniqueness.unique is not None
            and self.depth.optimal
            and self.chain.optimal
        )

    @property
    def shown(self) -> Play:
        """The play an answer shows: a best play that breaks the fewest melds and, among those,
        leaves the fewest hand points."""
        return self.depth.play if self.depth.play is not None else self.best.play

    @property
    def other_play(self) -> Play | None:
        """When the best play is not unique, a best play that leaves a different hand from `shown`.

        The uniqueness witness differs from the first best play found, and `shown` may be the
        witness's twin; then the first best play is the one that differs from it."""
        witness = self.uniqueness.witness
        if witness is not None and witness.hand_after(self.position) == self.shown.hand_after(self.position):
            return self.best.play
        return witness


def maximum(
    position: Position,
    objective: Objective = Objective.CARDS,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Best:
    """The best play: the most hand cards placed (or the most hand points shed)."""
    started = time.perf_counter()
    return _maximum(Model(position, objective), time_limit, started)


def _maximum(model: Model, time_limit: float, started: float) -> Best:
    position = model.position
    model.maximize((model.objective, model.ceiling))
    found = model.solve(time_limit, [model.objective])
    if found.play is not None:
        play, value = found.play, found.values[0]
    else:  # no solution in time: the untouched table is always legal, so fall back to it
        play, value = Play(join_runs(position.table, position.rules), ()), 0
    return Best(play, model.objective_kind, value, found.status is Status.OPTIMAL, _ms(started))


def uniqueness(position: Position, best: Best, time_limit: float = DEFAULT_TIME_LIMIT) -> Uniqueness:
    """Whether every best play leaves the same hand; if not, a best play that leaves another."""
    started = time.perf_counter()
    return _uniqueness(Model(position, best.objective), best, time_limit, started)


def _uniqueness(model: Model, best: Best, time_limit: float, started: float) -> Uniqueness:
    """Solves `model` again for a best play that leaves another hand; the model may be the one
    `maximum` solved, since only its objective is replaced."""
    if not best.optimal:
        return Uniqueness(None, None, _ms(started))
    if best.value == model.ceiling:
        # the whole hand is placed: every best play leaves the same, empty, hand
        return Uniqueness(True, None, _ms(started))
    model.model.clear_objective()  # type: ignore[no-untyped-call]  # untyped in OR-Tools 9.15
    # a best play ...
    model.add(model.objective == best.value)
    # ... that leaves another hand: with equal totals, some card is placed fewer times
    model.require_fewer_somewhere(best.play)
    found = model.solve(time_limit)
    if found.status is Status.INFEASIBLE:
        return Uniqueness(True, None, _ms(started))
    if found.play is not None:
        return Uniqueness(False, found.play, _ms(started))
    return Uniqueness(None, None, _ms(started))


def chain_depth(position: Position, best: Best, time_limit: float = DEFAULT_TIME_LIMIT) -> Depth:
    """The fewest original melds a best play must break, and such a play that, among those,
    leaves the fewest hand points."""
    started = time.perf_counter()
    # Measured and not kept (bench/solver.py's classic positions, both corpora, alternating per
    # position, CPU): with uniqueness proved, the model of the best play's hand cards alone
    # (`_laid_alone`, as the chain length's), depth phase 0.84 -> 0.83 s, noise; nor, then (every
    # best play leaving the same hand points), the kept melds alone as the objective: 3.93 ->
    # 3.94 s on `--per-preset 87`, every preset.
    model = Model(position, best.objective, keep=True)
    # the play must be a best one
    model.add(model.objective == best.value)
    # keep as many original melds whole as possible, then shed as many hand points as possible
    model.maximize((sum(model.kept), len(position.table)), _points_term(model))
    model.hint_whole()
    found = model.solve(time_limit)
    if found.play is None:
        return Depth(None, None, (), False, _ms(started))
    broken = tuple(i for i, kept in enumerate(found.kept) if not kept)
    optimal = found.status is Status.OPTIMAL and best.optimal
    return Depth(len(broken), found.play, broken, optimal, _ms(started), found.layout)


def chain_length(
    position: Position,
    best: Best,
    depth: Depth,
    time_limit: float = DEFAULT_TIME_LIMIT,
    unique: bool | None = None,
) -> tuple[Chain, Depth]:
    """The chain length, and the depth play laid out by rearrangement (its `broken` may name other
    melds of the same count, with the same hand points left).

    Up to one broken meld needs no solve. Otherwise the depth play's own rearrangements, read off
    its layout (`_rearranged`), bound the chain length from above; where the layout does not say,
    a first solve groups the depth play's breaks as finely as it can instead. A bound of 1 is the
    answer. Otherwise a solve asks for a best play (breaking any number of melds, at least the
    depth) whose rearrangements each break fewer melds than the bound, the largest of them as
    small as it can be, in a model pruned to what rearrangements that small reach: its optimum is
    the chain length, and a proof that there is no such play settles the bound. Not proven in
    time, the length is the least bound found: the chain length is at most that.

    `unique` (True when proved that every best play leaves the same hand) lets every model take
    the depth play's hand cards alone, all of them laid.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    if depth.depth is None or depth.play is None:
        return Chain(None, False, (), None, _ms(started)), depth
    if depth.depth <= 1:
        shown_groups = (depth.broken,) if depth.broken else ()
        return Chain(depth.depth, depth.optimal, shown_groups, depth.play, _ms(started)), depth
    # The bound from the depth play's own layout, beside the grouping solve it replaces
    # (bench/solver.py's corpus, `--per-preset 87` and `--per-preset 100 --seed 1`: 935 positions,
    # old and new alternating per position, CPU time, load 15-20): the chain phase 14.1 -> 13.0 s
    # and 14.6 -> 13.0 s in all, every chain length the same, and the same proven given the time
    # (three joker tables ran out of wall clock under load, one way or the other, and settle
    # alike with it). The layout said on all 502 of depth 2 or more. A bound of 1 needs no solve
    # (97 positions, 0.85 -> 0.12 s), a bound of 2 one (222, 4.3 -> 2.8 s); at 3 or more the
    # proof is most of the time (183, 23.5 -> 23.0 s), and where
    # the bound was a guess (a card type from several places) and a smaller play turned up
    # (87 positions) the grouping solve still runs after it: 13.8 -> 14.2 s. (The grouping solve
    # first for guesses of 3 or more: measured below, no gain.) Measured and left alone: the
    # proof's model at k = bound - 1 on the nine slowest tables has 1,203-2,738 variables, a
    # third of them keepings, and no candidate meld of hand card types alone (the laid cards
    # share their types with the table), so nothing moves out of the slots; building it takes
    # 22-36 ms against 95-378 ms of search (CPU).
    # Measured on the 36 positions of `--per-preset 87` whose chain phase took over 40 ms, each
    # variant beside this search per position (CPU; load 5-9, noise about 10%), and not kept:
    # the bound was the answer on 7; on the other 29 the search is finding a smaller play (2.4 s
    # with the answer as a lower bound) and then the proof one below it (3.4 s in a model of its
    # own), so a lower bound that matched the answer would save at most the proof.
    # - the grouping solve first where the bound is a guess: on all 34 guesses it gave the same
    #   bound (the depth play has no finer grouping; the smaller plays break other melds), 5.20
    #   -> 5.18 s;
    # - a step up (a model for k = 1, 2, ... up to the first with a play): 5.1 -> 7.5 s; a first
    #   play with no objective at u - 1, then this search below its largest: 4.3 -> 5.4 s (faster
    #   where u is 3, slower above);
    # - hinting the depth play's kept melds, or every meld kept: 4.6 -> 5.0 and 4.9 s;
    # - fixing the melds that every best play breaks (0-8 a table, one kept-meld probe for each of
    #   the depth play's breaks): the search 4.28 -> 3.90 s, the probes 2.35 s more;
    # - a rearrangement's final meld (or kept meld's added cards) holding a card type of a meld it
    #   breaks, melds of hand cards alone going to the last slot: sound, 3.9 -> 4.7 s (one more
    #   constraint per candidate copy);
    # - pruning slots: at k >= 3 the first melds reach every later one, and every slot reaches a
    #   candidate meld with a laid hand card, so there is nothing to prune.
    # Profiled on the 120 positions of both corpora whose chain phase took over 20 ms: where it
    # takes 20-40 ms, a third each is building the model, presolve (10-20 ms for 1,500 variables)
    # and a search of tens to hundreds of conflicts. Kept: at a bound of 2, a slot holds no
    # candidate meld that its leader, the hand and one other meld cannot complete (`_Cover` in
    # puzzles/_model.py; at every bound it was slower on three presets). Measured beside it
    # (positions whose chain phase took 10 ms or more, CPU, old and new per position) and not
    # kept:
    # - labels (each broken meld labelled by its rearrangement's first meld, at most k a label):
    #   that is the slot model already, a slot being a label with its reach; nothing to compare;
    # - a meld joining a slot only where some candidate meld of the slot holds each of its card
    #   types: prunes nothing, since every meld can be laid out again as it was; at bounds above
    #   2, the melds that complete a candidate hanging together with the leader: 957 more of
    #   200,485 variables left out on the 120;
    # - no final meld of just the cards of a meld its rearrangement breaks (not its leader): sound,
    #   since keeping the meld instead is as good a play; conflicts 6% fewer, deterministic time
    #   6.53 -> 6.45 s, CPU 8.69 -> 8.52 s: noise;
    # - at a bound of 2, each kept candidate copy tied to the melds that complete it (a copy only
    #   where one of them joins): implied by the card balances, and 6.45 -> 6.57 s of deterministic
    #   time, CPU 9% more (all 502 of depth 2 or more);
    # - presolve keeping every feasible solution, no substitution, or no inclusion and overlap
    #   detection: 8.8-9.4 s against 9.0 s (170 positions), noise; no presolve 14.6 s, slower
    #   even where the phase takes 15-80 ms (4.7 -> 6.9 s).
    # Measured with bench/phases_ab.py (`--per-preset 87`, every preset, old and new alternating per
    # position, CPU, load about 1; every answer the same) and not kept:
    # - a first bound over all depth plays: where the layout's bound u is 3 or more, the slot model
    #   at u - 1 over best plays breaking exactly the depth, least largest, then this search below
    #   it (or, with none, above the depth): chain 5.4 -> 11.8 s, classic p95 58 -> 135 ms. The
    #   restricted solve costs more than the open one, and the smaller plays often break more melds
    #   (classic-28, -49: none at u - 1); on classic-13, -38, -46, -74, -75, -78 a depth play did
    #   better, and even a free pick of it would have saved some 80 of classic's 600 ms of chain
    #   phase, the p95 not moving;
    # - as a tie-break in the depth solve (fewest final melds whose cards could come from two or
    #   more melds): depth 3.6 -> 4.5 s, chain 5.3 -> 5.2 s; `--seed 1 --per-preset 100` depth
    #   3.7 -> 4.7, chain 4.7 -> 4.5 s, p50 up 15% everywhere;
    # - pruning slots and joins by the hand: a slot must reach a meld that a candidate shares with a
    #   hand card type, but on the 13 slowest classic tables all melds but one are such melds and
    #   every slot reaches one (0 of 1,749 joins go);
    # - where u >= 4, a play at 3 looked for with no objective, then the proof below it: chain 5.4
    #   -> 6.7 s, classic p95 52 -> 74 ms (the search finds that play sooner with the objective);
    #   where u is 3, a play at 2 so: 0.98 -> 0.99 s on the 45 such positions (in one process);
    # - the depth play laid out again only around its largest rearrangements (their melds, those
    #   near them, the hand cards laid there; the rest of the play as it is), a play found there
    #   the bound: the near melds are most of the table (12-24 of 12-25), and the 13 slowest
    #   classic tables took 1.7 times as long (in one process, alternating);
    # - stopping at each first play and proving one below in a model of its own (at 2, `_Cover`'s
    #   smaller model): chain 5.5 -> 7.5 s. On classic-28 the search finds a play at 3 in 10 ms
    #   and spends 30 ms proving none at 2 in the model at 3, the model at 2 15 ms; but each model
    #   costs 10-20 ms to build and presolve, and first plays are often not the least.
    laid_out = _rearranged(position, depth)
    position = _laid_alone(position, depth.play) if unique else position
    if laid_out is not None:
        return _chain_from_layout(position, best, depth, laid_out, started, deadline)
    grouped = _grouped(position, best, depth, depth.depth, deadline)
    if grouped is None:
        # keep the plain depth play: all its breaks as one rearrangement is true, if coarse
        return Chain(depth.depth, False, (depth.broken,), depth.play, _ms(started)), depth
    grouped_depth, groups, upper = grouped
    proven = best.optimal and grouped_depth.optimal

    # any best play (breaking any number of melds) whose rearrangements each break fewer melds
    # than the bound, its largest rearrangement as small as can be: a play found lowers the bound,
    # and the optimum settles it. Measured on 170 slow real-game tables of bench/solver.py beside
    # the step down this replaced (a model and a first play for each k below the bound, down to
    # the first k with none): the chain length's solves took 16-31% less time in all, since a
    # bound two or more above the answer is one search instead of a model and a search per step;
    # the proof alone, where the bound is the answer, takes as long. A first play at k = u - 1
    # and then one optimisation below it saved less (the second model's building).
    # Lower bounds measured beside the step down (bench/solver.py's 500 real-game positions, 100
    # a preset, the two alternating per position in one run, load 8-12) and not kept:
    # - a set-partitioning model for k = 1 and 2, one column per group of at most k melds connected
    #   in the model's `near` graph, each seeing only its own cards' candidate melds: two to three
    #   times the slot model's variables (a copy of the candidates per group, not per leader), and
    #   no faster; full p95 2,276 -> 2,740 ms, proven within 2 s 92.4% -> 90.2%. The slot model's
    #   proofs at k <= 2 took 50-400 ms already; the slow ones are at k >= 3 (groups too many to list);
    # - the hand cards' reach: when every best play places the whole hand, each card's
    #   rearrangement is a play by itself, so the fewest breaks of any play placing a card bounds
    #   the chain length from below (one small kept-meld solve per card and bound, checked
    #   against the brute force). Below the chain length on most slow tables (1-2 where it is 3-4):
    #   full p95 2,740 -> 4,058 ms, proven within 2 s 90.6% -> 86.4%. Commit 24e0188 has it.
    # Measured on the 63 real-game positions of bench/solver.py (seeds 20240601 and 1, every
    # preset) whose chain length took over 0.5 s, by the CPU time of this search, each variant
    # beside it in one run (15.6 s in all, of which one `jokers` table 3.5-4.6 s and one
    # `german-jokers` table 1.6 s; under load the wall time is that times about half the load
    # average), and not kept:
    # - splitting the table where the cards of its parts (with the hand's, or only the laid ones)
    #   can never meet in one candidate meld or keeping: none of the 63 splits, since sets, runs
    #   and jokers tie every table together;
    # - a search at k = L - 1 once a play at L is found: the proof costs the same in either model
    #   (with jokers both see every meld), and the step down was measured slower before;
    # - requiring each rearrangement to hang together (a meld beyond the leader's reach joins only
    #   beside a near meld of its rearrangement): 15.57 -> 15.52 s, noise;
    # - of two equal melds side by side (the canonical order puts them so), the first kept when
    #   the second is: 15.17 -> 15.13 s, noise (25 of the 63 have such twins);
    # - at least ceil(broken / k) rearrangements, or branching first on the kept melds or on which
    #   rearrangement breaks each meld: no faster;
    # - other solver settings for this search: LP level 2 took 10.6 -> 42.6 CPU s on 32 of them (it
    #   halves the two hardest joker proofs and slows all else), level 1 slower still; on the 22
    #   slowest, against 12.1 s: no presolve, no SAT presolve, zero presolve rounds, reverse
    #   variable order, no phase saving, the objective lower-bound search 12.9-13.9 s, the
    #   quick-restart portfolio 38.4 s, probing level 1 17.7 s against 11.5 in another run; full
    #   presolve with probing and symmetry, symmetry level 2 and inprocessing no faster in all.
    length, play, settled = upper, grouped_depth.play, True
    if length > 1:
        better = _smaller(position, best, grouped_depth, length - 1, _left(deadline))
        if better.play is None:
            settled = better.status is Status.INFEASIBLE
        else:
            length, play = max(map(len, better.rearrangements), default=0), better.play
            settled = better.status is Status.OPTIMAL
    proven = proven and settled
    return Chain(length, proven, groups, play, _ms(started)), grouped_depth


def _grouped(
    position: Position, best: Best, depth: Depth, largest: int, deadline: float
) -> tuple[Depth, tuple[tuple[int, ...], ...], int] | None:
    """The depth play, grouped as finely as it can be: the play laid out by rearrangement, its
    groups and the largest of them; None when no grouping was found in time."""
    shown = Model(position, best.objective, largest=largest, layout=depth.layout)
    shown.add(shown.objective == best.value)
    most = _largest(shown, len(position.table))
    shown.maximize((-most, len(position.table)), (shown.rearrangements, len(position.table)))
    found = shown.solve(_left(deadline), [most])
    if found.play is None:
        return None
    grouped_depth = replace(
        depth,
        play=found.play,
        broken=tuple(sorted(i for group in found.rearrangements for i in group)),
        optimal=depth.optimal and found.status is Status.OPTIMAL,
    )
    return grouped_depth, found.rearrangements, found.values[0]


def _chain_from_layout(
    position: Position,
    best: Best,
    depth: Depth,
    laid_out: tuple[tuple[tuple[int, ...], ...], Play, bool],
    started: float,
    deadline: float,
) -> tuple[Chain, Depth]:
    """The chain length from the depth play's own rearrangements (`_rearranged`): their largest,
    u, bounds it, and only a play whose rearrangements each break fewer than u melds can lower
    it. No such play settles u with one solve instead of two (the grouping solve, then this
    one); none is looked for when u is 1."""
    groups, play, finest = laid_out
    upper = max(map(len, groups))
    shown_depth = replace(depth, play=play)
    proven = best.optimal and depth.optimal
    if upper == 1:
        return Chain(1, proven, groups, play, _ms(started)), shown_depth
    better = _smaller(position, best, depth, upper - 1, _left(deadline))
    if better.status is Status.INFEASIBLE:
        return Chain(upper, proven, groups, play, _ms(started)), shown_depth
    if better.play is None:
        return Chain(upper, False, groups, play, _ms(started)), shown_depth
    length = max(map(len, better.rearrangements), default=0)
    if finest:
        proven = proven and better.status is Status.OPTIMAL
        return Chain(length, proven, groups, better.play, _ms(started)), shown_depth
    # a smaller play: the depth play's own grouping may be finer than the one laid out here
    grouped = _grouped(position, best, depth, upper, deadline)
    if grouped is None:
        return Chain(length, False, groups, better.play, _ms(started)), shown_depth
    grouped_depth, groups, _ = grouped
    proven = proven and grouped_depth.optimal and better.status is Status.OPTIMAL
    return Chain(length, proven, groups, better.play, _ms(started)), grouped_depth


def _laid_alone(position: Position, play: Play) -> Position:
    """The position with only the hand cards `play` lays, when every best play lays just those.

    A best play lays the same hand cards as any other when it leaves the same hand and frees no
    joker; with jokers freed to the hand, leaving the same hand does not say which cards it laid.
    Measured on the slowest real-game tables of bench/solver.py: the chain length's models lose
    the candidates of the cards no best play lays, and the laid cards are fixed from the start.
    """
    if position.rules.freed_joker is FreedJoker.HAND and any(meld.jokers for meld in position.table):
        return position
    return Position(position.rules, position.table, play.laid)


_HAND = -1
"""Where a card comes from or goes to when that is the hand, in `_rearranged`."""


def _rearranged(position: Position, depth: Depth) -> tuple[tuple[tuple[int, ...], ...], Play, bool] | None:
    """The depth play's breaks grouped as one way of laying its cards out sends them, and the play
    with runs joined within a rearrangement only; None where its layout does not say (none, or a
    rearrangement that would place no card).

    Each final meld of the layout takes each card it holds from a broken meld or from the hand,
    and two broken melds whose cards share a final meld are one rearrangement. A card type found
    in one place only goes where it must; the copies of one found in several go first to final
    melds already joined to their meld, then to those that join nothing yet, and the hand fills
    the rest. That is one way, not always the finest: its largest group bounds the chain length
    from above, and where a play with smaller rearrangements turns up, the grouping solve still
    finds the finest.
    """
    layout, play = depth.layout, depth.play
    if not layout or play is None:
        return None
    n = len(position.table)
    shapes = sorted(
        layout.elements(),
        key=lambda shape: (1, shape.cards, shape.melds) if isinstance(shape, Keeping) else (0, shape, ()),
    )
    kept = {i for shape in shapes if isinstance(shape, Keeping) for i in shape.melds}
    broken = tuple(i for i in range(n) if i not in kept)
    if broken != depth.broken:
        return None
    flows = _flows(position, play, shapes, broken)
    if flows is None:
        return None
    groups = _Groups(n, len(shapes))
    sent = _send(*flows, groups)
    if sent is None:
        return None
    hand_to, freed_from, finest = sent
    found = groups.of(broken)
    placed = Counter(groups.root(k) for k in hand_to)
    placed.subtract(groups.root(i) for i in freed_from)
    if any(placed[group] < 1 for group in found):
        return None
    table = _grouped_table(position, shapes, groups, found)
    rearrangements = tuple(sorted(tuple(group) for group in found.values()))
    return rearrangements, Play(table, play.laid, play.freed), finest


def _grouped_table(
    position: Position, shapes: list[Candidate | Keeping], groups: _Groups, found: dict[int, list[int]]
) -> tuple[Meld, ...]:
    """The layout's final melds, with runs joined within a rearrangement only, as the grouped model
    lays them out."""
    rules = position.rules
    melds_of: dict[int, list[Meld]] = {}
    for k, shape in enumerate(shapes, start=len(position.table)):
        group = groups.root(k) if groups.root(k) in found else _HAND
        melds_of.setdefault(group, []).append(
            meld_of(shape.cards if isinstance(shape, Keeping) else shape, rules)
        )
    return tuple(
        sorted((meld for melds in melds_of.values() for meld in join_runs(melds, rules)), key=table_order)
    )


_Flows = tuple[dict[int, Counter[int]], dict[int, list[int]]]
"""For each card type, the places its copies come from (broken melds, `_HAND`) with how many, and
the places they go to (final melds numbered from the table's length on, `_HAND` for freed jokers)."""


def _flows(
    position: Position, play: Play, shapes: list[Candidate | Keeping], broken: tuple[int, ...]
) -> _Flows | None:
    """Where each card type of the layout comes from and goes to; None where the two differ in
    number."""
    sources: dict[int, Counter[int]] = {}
    for i in broken:
        for card in position.table[i].cards:
            sources.setdefault(card.index, Counter())[i] += 1
    for card in play.laid:
        sources.setdefault(card.index, Counter())[_HAND] += 1
    needs: dict[int, list[int]] = {}
    for k, shape in enumerate(shapes, start=len(position.table)):
        for index, count in shape.extra if isinstance(shape, Keeping) else shape:
            needs.setdefault(index, []).extend([k] * count)
    if play.freed:
        needs.setdefault(JOKER_INDEX, []).extend([_HAND] * len(play.freed))
    if {index: sum(counts.values()) for index, counts in sources.items()} != {
        index: len(places) for index, places in needs.items()
    }:
        return None
    return sources, needs


class _Groups:
    """Broken melds and final melds joined into rearrangements (a union-find); the first `melds`
    nodes are the broken melds' places, the next `finals` the final melds'."""

    def __init__(self, melds: int, finals: int) -> None:
        self.parent = list(range(melds + finals))
        self.size = [int(node < melds) for node in self.parent]
        """Broken melds in each group."""

    def root(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def join(self, meld: int, final: int) -> None:
        # the meld's side stays the root: a group with a meld in it is named by a meld
        a, b = self.root(meld), self.root(final)
        if a != b:
            self.parent[b] = a
            self.size[a] += self.size[b]

    def of(self, broken: Iterable[int]) -> dict[int, list[int]]:
        """The broken melds of each group, by the group's root."""
        found: dict[int, list[int]] = {}
        for i in broken:
            found.setdefault(self.root(i), []).append(i)
        return found


def _send(
    sources: dict[int, Counter[int]], needs: dict[int, list[int]], groups: _Groups
) -> tuple[list[int], list[int], bool] | None:
    """Send each card to a final meld, joining the groups it links: the final melds the hand
    fills, the broken melds freed jokers leave, and whether the groups are the finest; None where
    a freed joker has no broken meld to leave."""
    hand_to: list[int] = []
    freed_from: list[int] = []
    # True while every card type comes from one place: then no other way of laying out the same
    # final melds exists, and the groups are the finest
    finest = True
    root, join = groups.root, groups.join
    for index in sorted(needs, key=lambda index: (len(sources[index]) > 1, index)):
        given, places = sources[index], needs[index]
        finest = finest and len(given) == 1
        melds = [i for i in sorted(given.elements()) if i != _HAND]
        left = []
        for place in places:
            if place == _HAND:
                if not melds:
                    return None
                freed_from.append(melds.pop(0))  # a freed joker leaves a broken meld
            elif len(given) == 1 and melds:
                join(melds.pop(), place)
            elif (near := next((i for i in melds if root(i) == root(place)), None)) is not None:
                melds.remove(near)
            else:
                left.append(place)
        for meld in melds:
            place = min(left, key=lambda k: (groups.size[root(k)], k))
            left.remove(place)
            join(meld, place)
        hand_to += left
    return hand_to, freed_from, finest


def _smaller(position: Position, best: Best, depth: Depth, largest: int, time_limit: float) -> Solution:
    """A best play whose rearrangements each break at most `largest` melds, and of those one whose
    largest rearrangement breaks the fewest (optimal only when proved)."""
    model = Model(position, best.objective, largest=largest)
    model.add(model.objective == best.value)
    if depth.optimal and depth.depth is not None:
        # every best play breaks at least as many melds as the depth: true, and it cuts the search
        model.add(model.broken >= depth.depth)
    model.maximize((-_largest(model, largest), largest))
    return model.solve(time_limit)


def _largest(model: Model, n: int) -> LinearExpr:
    """A new variable at least the size of every rearrangement of the model."""
    largest = model.new_int(0, n)
    for size in model.sizes:
        model.add(size <= largest)
    return largest


SKILL_TIES = 64
"""The most tables the skill-limited player's tie-equal steps may lead to, in all, and the most
layouts one step may tie on, before its run counts as unproven: a limit on work, not on the clock,
so that a generator's replayed ID grades the same."""


def skill_limited(
    position: Position, skill: int, time_limit: float = DEFAULT_TIME_LIMIT, goal: int | None = None
) -> SkillRun:
    """The skill-limited player of RULES.md with `skill` = k: each step breaks at most k melds of
    the table as it then stands and places as many hand cards as it can (then, as a person would,
    breaks the fewest melds and leaves the fewest hand points), until no step places a card.

    Steps can still tie: as many cards placed, with as few breaks and hand points, that leave
    another table (other melds broken, other cards placed, or the same cards laid out otherwise).
    The player may take any of them, so every such step is followed, and the run returned is one
    that places the most: a puzzle defeats this player only when no way through the ties beats it.
    The tables are the engine's, its runs joined where they meet (the brute force of the tests,
    which splits them every way too, has reached no other total). The search stops once a run
    places `goal` cards (the whole hand when None), and finds a step's ties only when the runs
    through the ones before them fall short: a position without ties costs what it always did.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    target = len(position.hand) if goal is None else goal
    best: tuple[Play, ...] = ()
    most = 0
    proven = True
    seen = {_seen_key(position)}
    # depth first: each position's next tie is found once every run through the last one is known
    stack = [(position, best, _Ties(position, skill, deadline))]
    while stack and most < target:
        current, steps, ties = stack[-1]
        play = ties.next()
        if play is None:
            proven = proven and ties.proven
            stack.pop()
            continue
        after = Position(current.rules, play.table, play.hand_after(current))
        if (placed := len(position.hand) - len(after.hand)) > most:
            best, most = (*steps, play), placed
        if (key := _seen_key(after)) in seen:
            continue
        if len(seen) == SKILL_TIES:
            proven = False
            break
        seen.add(key)
        stack.append((after, (*steps, play), _Ties(after, skill, deadline)))
    return SkillRun(skill, most, best, proven, _ms(started))


def _seen_key(position: Position) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """The position whatever the order of its melds."""
    melds = sorted(tuple(card.index for card in meld.cards) for meld in position.table)
    return tuple(melds), tuple(sorted(card.index for card in position.hand))


class _Ties:
    """The best steps of the skill-limited player from one position, one for each way of laying out
    the table they leave, found one at a time (none when no step places a card)."""

    def __init__(self, position: Position, skill: int, deadline: float) -> None:
        self.deadline = deadline
        self.model = model = Model(position, Objective.CARDS, keep=True)
        # break at most k melds of the table as it stands
        model.add(model.broken <= skill)
        self.value = model.maximize(
            (model.cards, model.ceiling + len(model.swaps)),
            (sum(model.kept), len(position.table)),
            _points_term(model),
        )
        self.last: Solution | None = None
        self.found = 0
        self.proven = True
        """False once a solve could not prove its answer, or the ties ran past SKILL_TIES."""
        self.over = False

    def next(self) -> Play | None:
        """The next tie, or None when there is none left."""
        found = None if self.over else self._first() if self.last is None else self._another()
        if found is None or found.play is None:
            self.over = True
            return None
        self.last, self.found = found, self.found + 1
        return found.play

    def _first(self) -> Solution | None:
        model = self.model
        found = model.solve(_left(self.deadline), [model.cards, self.value])
        if found.play is None or found.values[0] <= 0:
            self.proven = found.status in (Status.OPTIMAL, Status.INFEASIBLE)
            return None
        if found.status is not Status.OPTIMAL:
            # a better step may exist: no tie of this one is worth finding
            self.proven, self.over = False, True
        else:
            model.model.clear_objective()  # type: ignore[no-untyped-call]  # untyped in OR-Tools 9.15
            model.add(self.value == found.values[1])
        return found

    def _another(self) -> Solution | None:
        assert self.last is not None
        if self.found == SKILL_TIES:
            self.proven = False
            return None
        self.model.require_another_layout(self.last)
        found = self.model.solve(_left(self.deadline))
        if found.play is None and found.status is not Status.INFEASIBLE:
            self.proven = False
        return found


def step_check(position: Position, laid: Iterable[Card], time_limit: float = DEFAULT_TIME_LIMIT) -> StepCheck:
    """The most cards still placeable when the hand cards in `laid` must stay on the table."""
    started = time.perf_counter()
    laid_counts = Counter(laid)
    missing = laid_counts - position.hand_counts()
    if missing:
        card = next(iter(missing))
        raise PositionError(f"{card.pretty()} is not in the hand")
    model = Model(position, Objective.CARDS, laid=laid_counts)
    model.maximize((model.objective, model.ceiling))
    found = model.solve(time_limit, [model.objective])
    if found.status is Status.INFEASIBLE:
        return StepCheck(None, True, _ms(started))
    if found.play is not None:
        return StepCheck(found.values[0], found.status is Status.OPTIMAL, _ms(started))
    return StepCheck(None, False, _ms(started))


def analyse(
    position: Position,
    objective: Objective = Objective.CARDS,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Analysis:
    """Maximum, uniqueness, chain depth and chain length within one time limit for them all.

    The chain length has a share of the limit of its own (`CHAIN_SHARE`): the other three cannot
    leave it nothing, and it cannot hold them up. The melds are solved in a canonical order, so
    that an answer, proven or not, does not depend on the order they were given in; the meld
    numbers in the answer are the position's own.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    ordered, order = _canonical(position)
    first = started + time_limit * (1 - CHAIN_SHARE)
    # Where the CPU goes (bench/solver.py's classic positions, `--per-preset 87` and `--seed 1
    # --per-preset 100`, the 94 at or above the p50): chain 53% (of it, model building 26%, CP-SAT
    # 45% with its presolve about half of that, `_rearranged` and the other glue 4%), depth 26%
    # (building 28%, search 55%, reading the play back 10%), maximum 11%, uniqueness 3%, the
    # maximum's model, `_canonical` and `_in_order` 7%; in the slowest tenth the chain is 77%.
    # Building models is a quarter of all the CPU (6.1 of 24 s on the 935 positions of every
    # preset), spread over the candidates, the card balances and the proto's text, no one hot spot.
    # Measured beside this sequence (those 935 positions, old and new alternating per position,
    # CPU time, load 3-10), every answer the same, and not kept:
    # - the maximum and the depth in one solve of the kept-meld model (most cards, then most melds
    #   kept, then hand points; uniqueness on a plain model built only when it solves): 24.0 ->
    #   22.7 and 23.0 -> 21.7 s in all, p50 12-22% less on every preset, but worse at p95 (classic
    #   49-55 -> 54-64 ms, jokers and german-jokers up to 4% and 7%): the one solve costs more than
    #   the two on deep tables, and it returns another depth play on 385 of the 935, whose chain
    #   phase then took 7.6 -> 8.2 s (the chain length's time swings tenfold, either way, with the
    #   depth play on single tables). With the depth solve run again where the depth is 2 or more,
    #   for the same depth play: classic p95 50 -> 64 and 34 -> 38 ms. Only on tables of at most
    #   6 to 14 melds (read off the same run, position by position): 0.9-2.1% less in all;
    # - one kept-meld model for all three (the depth play unchanged): classic 1.34 -> 1.44 s, the
    #   maximum's search 181 -> 309 ms and uniqueness 40 -> 60 ms on the larger model;
    # - the depth before uniqueness, its play the witness where it leaves another hand than the
    #   maximum's (no uniqueness solve then): uniqueness 1.13 -> 0.84 s, but 27.3 -> 27.1 s in all.
    model = Model(ordered, objective)
    best = _maximum(model, _left(first), started)
    unique = _uniqueness(model, best, _left(first), time.perf_counter())
    depth = chain_depth(ordered, best, _left(first))
    chain, depth = chain_length(ordered, best, depth, _left(deadline), unique.unique)
    return _in_order(Analysis(position, best, unique, depth, chain, _ms(started)), order)


def _canonical(position: Position) -> tuple[Position, tuple[int, ...]]:
    """The position with its melds in a fixed order, and where each of them is in the original.

    The melds that touch the most others come first: a rearrangement is led by its first meld, and
    hubs first keep what each leader reaches small (measured on real-game tables: chain lengths
    settle two to three times sooner than with the melds in card order). Ties go by the cards.
    Counting the touches from each meld's ranks and suited ranks, not card by card: 0.30 -> 0.19
    ms a position (3,000 positions of every preset, the same order), not kept: under 1% of an
    analysis.
    """
    table = position.table
    touching = [sum(_near(meld, other) for other in table if other is not meld) for meld in table]
    order = tuple(
        sorted(range(len(table)), key=lambda i: (-touching[i], [card.index for card in table[i].cards]))
    )
    return Position(position.rules, tuple(table[i] for i in order), position.hand), order


def _near(meld: Meld, other: Meld) -> bool:
    """Whether one final meld could well hold cards of both: a joker, a rank in common, or cards of
    one suit within a run of five."""
    return any(
        card.is_joker
        or mate.is_joker
        or card.rank == mate.rank
        or (card.suit == mate.suit and abs(card.rank - mate.rank) < 5)
        for card in meld.cards
        for mate in other.cards
    )


def _in_order(analysis: Analysis, order: tuple[int, ...]) -> Analysis:
    """An analysis of the canonical position, its meld numbers turned back into the position's."""

    def back(melds: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted(order[meld] for meld in melds))

    layout: Counter[Candidate | Keeping] = Counter()
    for shape, copies in analysis.depth.layout.items():
        if isinstance(shape, Keeping):
            shape = replace(shape, melds=tuple(order[meld] for meld in shape.melds))
        layout[shape] += copies
    depth = replace(analysis.depth, broken=back(analysis.depth.broken), layout=layout)
    groups = tuple(sorted(back(group) for group in analysis.chain.rearrangements))
    return replace(analysis, depth=depth, chain=replace(analysis.chain, rearrangements=groups))


def is_puzzle(analysis: Analysis) -> bool:
    """A puzzle: proved maximum of at least one card, proved unique, chain depth proved."""
    return (
        analysis.best.objective is Objective.CARDS
        and analysis.proven
        and analysis.uniqueness.unique is True
        and analysis.best.value >= 1
    )


def _points_term(model: Model) -> tuple[LinearExpr, int]:
    """Hand points shed, as a lexicographic term: they range from every freed joker's value below
    zero up to the whole hand's points."""
    rules = model.position.rules
    return model.points, model.points_ceiling + rules.points.joker * len(model.swaps)


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
