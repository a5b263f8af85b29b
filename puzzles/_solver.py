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

from puzzles._candidates import Candidate, Keeping, fits, keepings, pieces
from puzzles._cards import Card
from puzzles._groups import Option, TooMany, options
from puzzles._melds import Meld, join_runs, table_order
from puzzles._model import LinearExpr, Model, Objective, Solution, Status, connected_groups, cover
from puzzles._plays import Play, play_of
from puzzles._position import Position, PositionError
from puzzles._rules import FreedJoker

DEFAULT_TIME_LIMIT = 10.0
DESCEND_FROM = 3
"""Once the climb has proved every k below this one impossible, the chain length tries k = its bound
less one, if that is higher: figures (ladders, walls) have large chains that their bound meets, and
one proof there saves a proof at every k between. Measured on the slowest real-game tables of
bench/solver.py: tried first, before k = 1 and 2, it cost seconds where the chain was 1 or 2 far
below a bound of 4 or 5, and ran out of time as often as it proved anything."""
TOP_SHARE = 0.25
"""The share of the time left that the try just below the bound may take."""
GREEDY_FROM = 3
"""The least k for which the chain length tries greedy independent steps before the search."""
GROUPS_MOST = 3000
FIXED = False
"""The most groups of melds the chain length's search at one k takes as fixed rearrangements."""
COLUMNS = True
OPTIONS_MOST = 20000
"""The most options (ways a group breaks) the chain length's search at one k takes as columns."""
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
    # ... that leaves another hand: with equal totals, some card is played fewer times
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
    model = Model(position, best.objective, keep=True)
    # the play must be a best one
    model.add(model.objective == best.value)
    # keep as many original melds whole as possible, then shed as many hand points as possible
    model.maximize((sum(model.kept), len(position.table)), _points_term(model))
    found = model.solve(time_limit)
    if found.play is None:
        return Depth(None, None, (), False, _ms(started))
    broken = tuple(i for i, kept in enumerate(found.kept) if not kept)
    optimal = found.status is Status.OPTIMAL and best.optimal
    return Depth(len(broken), found.play, broken, optimal, _ms(started), found.layout)


def chain_length(
    position: Position, best: Best, depth: Depth, time_limit: float = DEFAULT_TIME_LIMIT
) -> tuple[Chain, Depth]:
    """The chain length, and the depth play laid out by rearrangement (its `broken` may name other
    melds of the same count, with the same hand points left).

    Up to one broken meld needs no solve. Otherwise a first solve groups the depth play's breaks
    as finely as it can, which bounds the chain length from above. Then each solve asks for a best
    play (breaking any number of melds, at least the depth) whose rearrangements each break at
    most k melds: for k = 1, 2, ... below the least found, with one try just below a large bound
    once k reaches `DESCEND_FROM`; the first k that has one is the chain length. Each is a model
    of its own, pruned to what rearrangements that small reach.
    """
    started = time.perf_counter()
    deadline = started + time_limit
    if depth.depth is None or depth.play is None:
        return Chain(None, False, (), None, _ms(started)), depth
    if depth.depth <= 1:
        shown_groups = (depth.broken,) if depth.broken else ()
        return Chain(depth.depth, depth.optimal, shown_groups, depth.play, _ms(started)), depth
    n = len(position.table)

    # the depth play, grouped as finely as it can be
    shown = Model(position, best.objective, largest=depth.depth, layout=depth.layout)
    shown.add(shown.objective == best.value)
    largest = _largest(shown, n)
    shown.maximize((-largest, n), (shown.rearrangements, n))
    found = shown.solve(_left(deadline), [largest])
    if found.play is None:
        # keep the plain depth play: all its breaks as one rearrangement is true, if coarse
        return Chain(depth.depth, False, (depth.broken,), depth.play, _ms(started)), depth
    upper = found.values[0]
    grouped_depth = replace(
        depth,
        play=found.play,
        broken=tuple(sorted(i for group in found.rearrangements for i in group)),
        optimal=depth.optimal and found.status is Status.OPTIMAL,
    )
    proven = best.optimal and grouped_depth.optimal
    groups = found.rearrangements

    # any best play (breaking any number of melds) whose rearrangements break at most k melds,
    # for k = 1, 2, ... below the least found: the first k that has one is it. A large bound is
    # often the answer, so once the climb reaches DESCEND_FROM, one try just below the bound
    # comes first, with a share of the time
    length, play, settled = upper, found.play, True
    k, descended = 1, False
    while k < length:
        columns = _columns(position, k) if COLUMNS else None
        if columns is not None:
            least = grouped_depth.depth if grouped_depth.optimal and grouped_depth.depth is not None else 0
            within = cover(position, best.objective, columns, best.value, least, _left(deadline))
        fixed = None if columns is not None or not FIXED else connected_groups(position, k, GROUPS_MOST)
        if fixed is not None:
            within = _within(position, best, grouped_depth, fixed, _left(deadline))
        if columns is not None or fixed is not None:
            if within.status is Status.INFEASIBLE:
                k += 1
                continue
            settled = within.play is not None
            if within.play is not None:
                length, play = k, within.play
            break
        if k >= DESCEND_FROM and length - 1 > k and not descended:
            descended = True
            top = _smaller(position, best, grouped_depth, length - 1, _left(deadline) * TOP_SHARE)
            if top.status is Status.INFEASIBLE:
                break
            if top.play is not None:
                length, play = max(len(group) for group in top.rearrangements), top.play
            continue
        # measured on real-game tables: below 3 the search settles k sooner than the greedy
        # steps fail, and from 3 on the greedy steps often find a play the search takes seconds to
        greedy = _independent_steps(position, best, k, deadline) if k >= GREEDY_FROM else None
        if greedy is not None:
            length, play = k, greedy
            break
        better = _smaller(position, best, grouped_depth, k, _left(deadline))
        if better.status is Status.INFEASIBLE:
            k += 1
            continue
        settled = better.play is not None
        if better.play is not None:
            length, play = k, better.play
        break
    proven = proven and settled
    return Chain(length, proven, groups, play, _ms(started)), grouped_depth


def _smaller(position: Position, best: Best, depth: Depth, largest: int, time_limit: float) -> Solution:
    """Any best play whose rearrangements each break at most `largest` melds: the first found."""
    model = Model(position, best.objective, largest=largest)
    model.add(model.objective == best.value)
    if depth.optimal and depth.depth is not None:
        # every best play breaks at least as many melds as the depth: true, and it cuts the search
        model.add(model.broken >= depth.depth)
    return model.solve(time_limit, first=True)


def _columns(position: Position, largest: int) -> list[Option] | None:
    """Every way each group of at most `largest` melds can break on its own; None where there are
    too many, or where a freed joker goes back to the hand (the columns do not model swaps)."""
    rules = position.rules
    if rules.freed_joker is FreedJoker.HAND and any(meld.jokers for meld in position.table):
        return None
    groups = connected_groups(position, largest, GROUPS_MOST)
    if groups is None:
        return None
    melds = [Counter(card.index for card in meld.cards) for meld in position.table]
    hand = Counter(card.index for card in position.hand)
    available = Counter(hand)
    for cards in melds:
        available.update(cards)
    shapes = [piece for piece in pieces(rules) if fits(piece, available)]
    ways = [
        way
        for i in range(len(melds))
        for way in keepings(position.table, i, rules)
        if way.extra and fits(way.cards, available)
    ]
    found: list[Option] = []
    try:
        for group in groups:
            found += options(group, melds, hand, shapes, ways, OPTIONS_MOST - len(found))
    except TooMany:
        return None
    return found


def _within(
    position: Position, best: Best, depth: Depth, groups: list[tuple[int, ...]], time_limit: float
) -> Solution:
    """Any best play whose rearrangements each break one of these groups of melds: the first found."""
    model = Model(position, best.objective, groups=groups)
    model.add(model.objective == best.value)
    if depth.optimal and depth.depth is not None:
        model.add(model.broken >= depth.depth)
    return model.solve(time_limit, first=True)


def _independent_steps(position: Position, best: Best, skill: int, deadline: float) -> Play | None:
    """A best play made of rearrangements of at most `skill` melds each, if a greedy search finds
    one: each step breaks at most `skill` of the original melds that no step has touched yet and
    places as much as it can; None when the steps together fall short of the best play.

    Each step leaves the melds it made alone, so the steps are rearrangements of the end table
    that do not depend on one another. It proves nothing when it fails, and often saves the
    search for such a play when it succeeds.
    """
    untouched = list(position.table)
    made: list[Meld] = []
    hand = position.hand
    value = 0
    while hand and value < best.value:
        current = Position(position.rules, tuple(untouched), hand)
        model = Model(current, best.objective, keep=True)
        # break at most `skill` of the melds no step has touched
        model.add(model.broken <= skill)
        model.maximize((model.objective, model.ceiling), (sum(model.kept), len(untouched)))
        found = model.solve(_left(deadline), [model.objective])
        if found.play is None or found.values[0] <= 0:
            break
        value += found.values[0]
        left = Counter(found.play.table)
        still = []
        for meld in untouched:
            if left[meld] > 0:
                left[meld] -= 1
                still.append(meld)
        untouched = still
        made += left.elements()
        hand = found.play.hand_after(current)
    if value < best.value:
        return None
    # runs of different steps stay apart: joined, one final meld would hold cards of both
    return play_of(position, sorted([*made, *untouched], key=table_order))


def _largest(model: Model, n: int) -> LinearExpr:
    """A new variable at least the size of every rearrangement of the model."""
    largest = model.new_int(0, n)
    for size in model.sizes:
        model.add(size <= largest)
    return largest


def skill_limited(position: Position, skill: int, time_limit: float = DEFAULT_TIME_LIMIT) -> SkillRun:
    """The skill-limited player of RULES.md with `skill` = k: each step breaks at most k melds of
    the table as it then stands and places as many hand cards as it can (then, as a person would,
    breaks the fewest melds and leaves the fewest hand points), until no step places a card."""
    started = time.perf_counter()
    deadline = started + time_limit
    steps: list[Play] = []
    proven = True
    current = position
    while current.hand:
        model = Model(current, Objective.CARDS, keep=True)
        # break at most k melds of the table as it stands
        model.add(model.broken <= skill)
        model.maximize(
            (model.cards, model.ceiling + len(model.swaps)),
            (sum(model.kept), len(current.table)),
            _points_term(model),
        )
        found = model.solve(_left(deadline), [model.cards])
        if found.play is None or found.values[0] <= 0:
            proven = proven and found.status in (Status.OPTIMAL, Status.INFEASIBLE)
            break
        proven = proven and found.status is Status.OPTIMAL
        steps.append(found.play)
        current = Position(current.rules, found.play.table, found.play.hand_after(current))
    placed = len(position.hand) - len(current.hand)
    return SkillRun(skill, placed, tuple(steps), proven, _ms(started))


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
    model = Model(ordered, objective)
    best = _maximum(model, _left(first), started)
    unique = _uniqueness(model, best, _left(first), time.perf_counter())
    depth = chain_depth(ordered, best, _left(first))
    chain, depth = chain_length(ordered, best, depth, _left(deadline))
    return _in_order(Analysis(position, best, unique, depth, chain, _ms(started)), order)


def _canonical(position: Position) -> tuple[Position, tuple[int, ...]]:
    """The position with its melds in a fixed order, and where each of them is in the original.

    The melds that touch the most others come first: a rearrangement is led by its first meld, and
    hubs first keep what each leader reaches small (measured on real-game tables: chain lengths
    settle two to three times sooner than with the melds in card order). Ties go by the cards.
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
