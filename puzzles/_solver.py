"""The solver's questions: maximum, uniqueness, chain depth, chain length, the step check and the
skill-limited player.

Each question is one or two solves of `puzzles._model.Model` within an explicit time limit, and
each answer says whether the solver proved it.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache

from puzzles._candidates import JOKER_INDEX, Candidate, Keeping, allowed_by, meld_of
from puzzles._cards import Card
from puzzles._melds import Meld, MeldKind, join_runs, table_order
from puzzles._model import LinearExpr, Model, Objective, Solution, Status
from puzzles._plays import Play
from puzzles._position import Position, PositionError
from puzzles._rules import FreedJoker

DEFAULT_TIME_LIMIT = 10.0
FORK_WORK_LIMIT = 2.0
"""The work a key idea's check (`reaches_otherwise`) may do, in OR-Tools' deterministic seconds:
one solve of the position with one card's end ruled out, a few milliseconds on a Master table. A
limit on work, not the clock, so that a puzzle's stored ideas are the same on any machine (the
generator's `check` works them out again)."""
FORK_TIME_LIMIT = 10.0
"""The clock's limit on that check, only a backstop on a machine far slower than the work limit."""
CHAIN_SHARE = 0.5
"""The share of an analysis's time limit kept for the chain length, the one part that can take long."""


@dataclass(frozen=True, slots=True)
class Best:
    """The answer of `maximum`: a best play, and what it is worth by the objective."""

    play: Play
    objective: Objective
    objective_value: int
    """What `objective` counts of the play: the cards it places (`Objective.CARDS`, the same as
    `placed`), or the hand points it sheds, less its freed jokers' (`Objective.POINTS`)."""
    proven: bool
    """True only when the solver proved that no play does better."""
    ms: float

    @property
    def placed(self) -> int:
        """The cards the best play places: the maximum, when the objective counts cards."""
        return self.play.placed


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
    proven: bool
    ms: float
    layout: Counter[Candidate | Keeping] = field(default_factory=Counter, compare=False, repr=False)
    """The solver's candidate melds of `play`, for laying it out by rearrangement."""


@dataclass(frozen=True, slots=True)
class Chain:
    length: int | None
    """Chain length: the smallest k such that some best play splits into rearrangements that each
    break at most k melds; None when no best play was found in time."""
    proven: bool
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
    cut_short: bool = False
    """True when `analyse`, asked for a puzzle only (`puzzle`, `least_chain`), proved that the
    position is none and did not look further: `chain` (and, where the best play is not unique or
    places nothing, `depth`) are then left unasked, with no length."""

    @property
    def proven(self) -> bool:
        """Whether every answer asked was proved (an answer left unasked by `cut_short` is none)."""
        if self.cut_short:
            return self.best.proven and self.uniqueness.unique is not None
        return (
            self.best.proven
            and self.uniqueness.unique is not None
            and self.depth.proven
            and self.chain.proven
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
    if not best.proven:
        return Uniqueness(None, None, _ms(started))
    if best.objective_value == model.ceiling:
        # the whole hand is placed: every best play leaves the same, empty, hand
        return Uniqueness(True, None, _ms(started))
    if _only_dead_left(model, best.play):
        # no play places a card the best one leaves: every best play places what it places
        return Uniqueness(True, None, _ms(started))
    model.model.clear_objective()  # type: ignore[no-untyped-call]  # untyped in OR-Tools 9.15
    # a best play ...
    model.add(model.objective == best.objective_value)
    # ... that leaves another hand: with equal totals, some card is placed fewer times
    model.require_fewer_somewhere(best.play)
    found = model.solve(time_limit)
    if found.status is Status.INFEASIBLE:
        return Uniqueness(True, None, _ms(started))
    if found.play is not None:
        return Uniqueness(False, found.play, _ms(started))
    return Uniqueness(None, None, _ms(started))


def _only_dead_left(model: Model, play: Play) -> bool:
    """Whether every hand card that `play` leaves in the hand fits no candidate meld of the cards
    there are (a dead card). Then every play lays only cards that `play` lays, so a best play lays
    them all (each card is worth a card, or its positive points): the same hand is left. Not where
    a joker may go back to the hand, which then counts against the cards laid."""
    if model.swaps:
        return False
    left = model.hand - Counter(card.index for card in play.laid)
    placeable = allowed_by(model.position, False).by_type
    return all(index not in placeable for index in left)


def reaches_otherwise(
    position: Position,
    maximum: int,
    card: Card,
    sets: int,
    runs: int,
    time_limit: float = FORK_TIME_LIMIT,
    work_limit: float = FORK_WORK_LIMIT,
) -> bool | None:
    """Whether some play places `maximum` hand cards with the card's copies (table and hand
    together) ending otherwise than `sets` in sets and `runs` in runs: True, and a key idea that
    says the card must end so is not true; False when proved that none does; None when the solve
    proved neither within its limits."""
    model = Model(position, Objective.CARDS)
    model.add(model.cards >= maximum)
    model.require_other_ends(card, sets, runs)
    return model.solve(time_limit, work_limit=work_limit).status.exists


SETTLE_SOLVES = 24
"""The most solves `unsettled` makes: each finds a maximal play that ends at least one more card
otherwise, so a position needs as many as it has groups of cards that change together, and one."""


def unsettled(
    position: Position,
    maximum: int,
    ends: Mapping[Card, tuple[int, int] | None],
    time_limit: float = FORK_TIME_LIMIT,
    work_limit: float = FORK_WORK_LIMIT,
) -> tuple[frozenset[Card], bool]:
    """Of these cards, each ending as `ends` says in one maximal play (copies in sets, in runs;
    table and hand together; None: as a maximal play the solver finds first ends them), those that
    another maximal play ends otherwise: cards that are not *settled* (docs/RULES.md), so that a
    decision on one is a free choice, no fork. Also whether that was proved: when a solve stops at
    its limits (the time limit and the work limit are each solve's; a work limit, not the clock, so
    the same position finds the same on any machine), or after SETTLE_SOLVES, the cards not yet
    found otherwise are given as unsettled too.

    One solve asks for a maximal play that ends any of the cards still open otherwise; the cards it
    ends otherwise are unsettled, and the rest are asked again, until no such play exists."""
    found: set[Card] = set()
    if not ends:
        return frozenset(), True
    # every solve starts from this model, copied: building it again each time took a third of
    # the solves' time
    maximal = Model(position, Objective.CARDS)
    maximal.add(maximal.cards >= maximum)
    if any(end is None for end in ends.values()):
        first = maximal.copy().solve(time_limit, work_limit=work_limit)
        if first.play is None:
            return frozenset(ends), False
        table = first.play.table
        ends = {card: ends_of(table, card) if end is None else end for card, end in ends.items()}
    open_ends = {card: end for card, end in ends.items() if end is not None}
    for _ in range(SETTLE_SOLVES):
        if not open_ends:
            return frozenset(found), True
        model = maximal.copy()
        model.require_some_other_end(open_ends)
        solved = model.solve(time_limit, work_limit=work_limit)
        if solved.status is Status.INFEASIBLE:
            return frozenset(found), True
        if solved.play is None:
            break
        moved = [card for card, end in open_ends.items() if ends_of(solved.play.table, card) != end]
        assert moved, "a play the model allows ends some card otherwise"
        for card in moved:
            del open_ends[card]
            found.add(card)
    return frozenset(found) | frozenset(open_ends), False


def ends_of(table: Iterable[Meld], card: Card) -> tuple[int, int]:
    """How many copies of the card a final table holds in sets, and in runs."""
    sets = runs = 0
    for meld in table:
        copies = meld.cards.count(card)
        if meld.kind is MeldKind.SET:
            sets += copies
        else:
            runs += copies
    return sets, runs


def chain_depth(position: Position, best: Best, time_limit: float = DEFAULT_TIME_LIMIT) -> Depth:
    """The fewest original melds a best play must break, and such a play that, among those,
    leaves the fewest hand points."""
    started = time.perf_counter()
    model = Model(position, best.objective, keep=True)
    # the play must be a best one
    model.add(model.objective == best.objective_value)
    # keep as many original melds whole as possible, then shed as many hand points as possible
    model.maximize((sum(model.kept), len(position.table)), _points_term(model))
    model.hint_whole()
    found = model.solve(time_limit)
    if found.play is None:
        return Depth(None, None, (), False, _ms(started))
    broken = tuple(i for i, kept in enumerate(found.kept) if not kept)
    proven = found.status is Status.OPTIMAL and best.proven
    return Depth(len(broken), found.play, broken, proven, _ms(started), found.layout)


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
    the chain length, and a proof that there is no such play proves the bound. Not proven in
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
        return Chain(depth.depth, depth.proven, shown_groups, depth.play, _ms(started)), depth
    # the depth play's own rearrangements bound the chain length with no grouping solve, where its
    # layout says how they go (docs/EXPERIMENTS.md: the bound, and what else was tried)
    laid_out = _rearranged(position, depth)
    position = _laid_alone(position, depth.play) if unique else position
    if laid_out is not None:
        return _chain_from_layout(position, best, depth, laid_out, started, deadline)
    grouped = _grouped(position, best, depth, depth.depth, deadline)
    if grouped is None:
        # keep the plain depth play: all its breaks as one rearrangement is true, if coarse
        return Chain(depth.depth, False, (depth.broken,), depth.play, _ms(started)), depth
    grouped_depth, groups, upper = grouped
    proven = best.proven and grouped_depth.proven

    # any best play (breaking any number of melds) whose rearrangements each break fewer melds
    # than the bound, its largest rearrangement as small as can be: a play found lowers the bound,
    # and the optimum proves it. One search below the bound, rather than a model and a search for
    # each k below it (docs/EXPERIMENTS.md)
    length, play, length_proven = upper, grouped_depth.play, True
    if length > 1:
        better = _smaller(position, best, grouped_depth, length - 1, _left(deadline))
        if better.play is None:
            length_proven = better.status is Status.INFEASIBLE
        else:
            length, play = max(map(len, better.rearrangements), default=0), better.play
            length_proven = better.status is Status.OPTIMAL
    proven = proven and length_proven
    return Chain(length, proven, groups, play, _ms(started)), grouped_depth


def _grouped(
    position: Position, best: Best, depth: Depth, largest: int, deadline: float
) -> tuple[Depth, tuple[tuple[int, ...], ...], int] | None:
    """The depth play, grouped as finely as it can be: the play laid out by rearrangement, its
    groups and the largest of them; None when no grouping was found in time."""
    shown = Model(position, best.objective, largest=largest, layout=depth.layout)
    shown.add(shown.objective == best.objective_value)
    most = _largest(shown, len(position.table))
    shown.maximize((-most, len(position.table)), (shown.rearrangements, len(position.table)))
    found = shown.solve(_left(deadline), [most])
    if found.play is None:
        return None
    grouped_depth = replace(
        depth,
        play=found.play,
        broken=tuple(sorted(i for group in found.rearrangements for i in group)),
        proven=depth.proven and found.status is Status.OPTIMAL,
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
    it. No such play proves u with one solve instead of two (the grouping solve, then this
    one); none is looked for when u is 1."""
    groups, play, finest = laid_out
    upper = max(map(len, groups))
    shown_depth = replace(depth, play=play)
    proven = best.proven and depth.proven
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
    proven = proven and grouped_depth.proven and better.status is Status.OPTIMAL
    return Chain(length, proven, groups, better.play, _ms(started)), grouped_depth


def _laid_alone(position: Position, play: Play) -> Position:
    """The position with only the hand cards `play` lays, when every best play lays just those.

    A best play lays the same hand cards as any other when it leaves the same hand and frees no
    joker; with jokers freed to the hand, leaving the same hand does not say which cards it laid.
    The chain length's models then lose the candidates of the cards no best play lays, and the laid
    cards are fixed from the start.
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


SMALLER_KEPT = 256
"""The proved answers of `_smaller` kept, the latest used."""
_smaller_found: OrderedDict[tuple[Position, Objective, int, int | None, int], Solution] = OrderedDict()
_smaller_lock = threading.Lock()


def _smaller(position: Position, best: Best, depth: Depth, largest: int, time_limit: float) -> Solution:
    """A best play whose rearrangements each break at most `largest` melds, and of those one whose
    largest rearrangement breaks the fewest (optimal only when proved).

    Proved answers are kept (SMALLER_KEPT): where every best play lays the same cards, the model
    holds only those (`_laid_alone`), and the generator's search tries position after position
    that differs from the last by a card no best play lays (a quarter of its searches below the
    bound were asked before: docs/EXPERIMENTS.md). A proved answer is the same whatever the time
    limit; one not proved is never kept."""
    key = (position, best.objective, best.objective_value, depth.depth if depth.proven else None, largest)
    with _smaller_lock:
        kept = _smaller_found.get(key)
        if kept is not None:
            _smaller_found.move_to_end(key)
            return kept
    found = _smaller_solved(position, best, depth, largest, time_limit)
    if found.status in (Status.OPTIMAL, Status.INFEASIBLE):
        with _smaller_lock:
            _smaller_found[key] = found
            while len(_smaller_found) > SMALLER_KEPT:
                _smaller_found.popitem(last=False)
    return found


def _smaller_solved(
    position: Position, best: Best, depth: Depth, largest: int, time_limit: float
) -> Solution:
    """`_smaller` itself, never kept."""
    model = Model(position, best.objective, largest=largest)
    model.add(model.objective == best.objective_value)
    if depth.proven and depth.depth is not None:
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


SKILL_RUNS_KEPT = 64
"""The proved runs `skill_limited` keeps, the latest used."""
_skill_runs: OrderedDict[tuple[Position, int, int | None, int], SkillRun] = OrderedDict()
_skill_runs_lock = threading.Lock()


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

    Proved runs are kept (SKILL_RUNS_KEPT): a run proved is the same whatever the time limit (the
    solves are deterministic, the ties limited by count), and the generator asks again for the run
    its search asked for. A run not proved depends on the clock, and is never kept.
    """
    key = (position, skill, goal, SKILL_TIES)
    with _skill_runs_lock:
        kept = _skill_runs.get(key)
        if kept is not None:
            _skill_runs.move_to_end(key)
            return kept
    run = _skill_limited(position, skill, time_limit, goal)
    if run.proven:
        with _skill_runs_lock:
            _skill_runs[key] = run
            while len(_skill_runs) > SKILL_RUNS_KEPT:
                _skill_runs.popitem(last=False)
    return run


def _skill_limited(position: Position, skill: int, time_limit: float, goal: int | None) -> SkillRun:
    """`skill_limited` itself, never kept."""
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
    *,
    puzzle: bool = False,
    least_chain: int = 0,
) -> Analysis:
    """Maximum, uniqueness, chain depth and chain length within one time limit for them all.

    The chain length has a share of the limit of its own (`CHAIN_SHARE`): the other three cannot
    leave it nothing, and it cannot hold them up. The melds are solved in a canonical order, so
    that an answer, proven or not, does not depend on the order they were given in; the meld
    numbers in the answer are the position's own.

    `puzzle`: only a puzzle's analysis is wanted (the generator's). Where the best play is proved
    to place no card or not to be unique, the depth and the chain length are not looked for; where
    the depth is proved below `least_chain`, the chain length is not (it is at most the depth).
    Such an analysis is `cut_short`: no puzzle, or none with that chain, as the full one would say
    too. Proved analyses asked so are kept (ANALYSES_KEPT), since a search comes back to positions
    it tried before; a proved answer is the same whatever the time limit.
    """
    if not puzzle:
        return _analysed(position, objective, time_limit, False, 0)
    # equal tables whose melds share objects otherwise are ordered otherwise (`_canonical`)
    key = (position, objective, _sharing(position.table))
    with _analyses_lock:
        kept = _analyses.get(key)
        if kept is not None and _serves(kept, least_chain):
            _analyses.move_to_end(key)
            # a new object each time, as a fresh analysis would be: callers tell them apart by identity
            return replace(kept)
    analysis = _analysed(position, objective, time_limit, True, least_chain)
    if analysis.proven:
        with _analyses_lock:
            _analyses[key] = analysis
            _analyses.move_to_end(key)
            while len(_analyses) > ANALYSES_KEPT:
                _analyses.popitem(last=False)
    return analysis


ANALYSES_KEPT = 512
"""The proved analyses `analyse(..., puzzle=True)` keeps, the latest used."""
_analyses: OrderedDict[tuple[Position, Objective, tuple[int, ...]], Analysis] = OrderedDict()
_analyses_lock = threading.Lock()


def _serves(kept: Analysis, least_chain: int) -> bool:
    """Whether a kept analysis answers an ask for a puzzle with this `least_chain`: a whole one
    does; one cut short for no puzzle does; one cut short at its depth only an ask above it."""
    if not kept.cut_short or kept.uniqueness.unique is not True or kept.best.placed < 1:
        return True
    return kept.depth.depth is not None and kept.depth.depth < least_chain


def _analysed(
    position: Position, objective: Objective, time_limit: float, puzzle: bool, least_chain: int
) -> Analysis:
    """`analyse` itself, never kept."""
    started = time.perf_counter()
    deadline = started + time_limit
    ordered, order = _canonical(position)
    first = started + time_limit * (1 - CHAIN_SHARE)
    # the maximum's model is solved again for uniqueness; the depth and the chain length build
    # their own (other sequences measured slower: docs/EXPERIMENTS.md)
    model = Model(ordered, objective)
    best = _maximum(model, _left(first), started)
    unique = _uniqueness(model, best, _left(first), time.perf_counter())
    if puzzle and best.proven and (unique.unique is False or best.placed < 1):
        # no puzzle: what the depth and the chain length would say is not wanted
        return _cut_short(position, best, unique, Depth(None, None, (), False, 0.0), started)
    depth = chain_depth(ordered, best, _left(first))
    if puzzle and unique.unique is not None and depth.proven and (depth.depth or 0) < least_chain:
        # the chain length is at most the depth: short of what is wanted, whatever it is
        return _cut_short(position, best, unique, _in_order_depth(depth, order), started)
    chain, depth = chain_length(ordered, best, depth, _left(deadline), unique.unique)
    return _in_order(Analysis(position, best, unique, depth, chain, _ms(started)), order)


def _cut_short(position: Position, best: Best, unique: Uniqueness, depth: Depth, started: float) -> Analysis:
    chain = Chain(None, False, (), None, 0.0)
    return Analysis(position, best, unique, depth, chain, _ms(started), cut_short=True)


def _canonical(position: Position) -> tuple[Position, tuple[int, ...]]:
    """The position with its melds in a fixed order, and where each of them is in the original.

    The melds that touch the most others come first: a rearrangement is led by its first meld, and
    hubs first keep what each leader reaches small (on real-game tables, chain lengths are found
    two to three times sooner than with the melds in card order). Ties go by the cards.
    """
    table = position.table
    order = _order(table, _sharing(table))
    return Position(position.rules, tuple(table[i] for i in order), position.hand), order


def _sharing(table: tuple[Meld, ...]) -> tuple[int, ...]:
    """For each meld, the first place that holds the same object. `_near` counts a meld as
    touching another only if it is another object, so a table that holds one object twice is
    ordered otherwise than one holding two equal melds: what is kept of it is told apart by this."""
    return tuple(next(j for j, other in enumerate(table) if other is meld) for meld in table)


@lru_cache(maxsize=256)
def _order(table: tuple[Meld, ...], same: tuple[int, ...]) -> tuple[int, ...]:
    """`_canonical`'s order, kept: it reads the table alone, and a search's steps that change the
    hand keep the table (half of the generator's analyses)."""
    touching = [
        sum(_near(meld, other) for j, other in enumerate(table) if same[j] != same[i])
        for i, meld in enumerate(table)
    ]
    return tuple(
        sorted(range(len(table)), key=lambda i: (-touching[i], [card.index for card in table[i].cards]))
    )


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
    depth = _in_order_depth(analysis.depth, order)
    groups = tuple(sorted(_back(group, order) for group in analysis.chain.rearrangements))
    return replace(analysis, depth=depth, chain=replace(analysis.chain, rearrangements=groups))


def _in_order_depth(depth: Depth, order: tuple[int, ...]) -> Depth:
    layout: Counter[Candidate | Keeping] = Counter()
    for shape, copies in depth.layout.items():
        if isinstance(shape, Keeping):
            shape = replace(shape, melds=tuple(order[meld] for meld in shape.melds))
        layout[shape] += copies
    return replace(depth, broken=_back(depth.broken, order), layout=layout)


def _back(melds: tuple[int, ...], order: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(order[meld] for meld in melds))


def is_puzzle(analysis: Analysis) -> bool:
    """A puzzle: proved maximum of at least one card, proved unique, chain depth proved (and not
    `cut_short`: no puzzle, or none of the chain asked for)."""
    return (
        analysis.best.objective is Objective.CARDS
        and analysis.proven
        and not analysis.cut_short
        and analysis.uniqueness.unique is True
        and analysis.best.placed >= 1
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
