"""The CP-SAT solver: maximum, uniqueness, chain depth and the step check.

This is the only module that imports OR-Tools. Every solve runs on one worker with a fixed seed and
an explicit time limit, and says whether it proved its answer.
"""

from __future__ import annotations

import enum
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ortools.sat.python import cp_model

from puzzles._candidates import JOKER_INDEX, Candidate, cards_of, fits, keepings, pieces
from puzzles._cards import JOKER, Card, sorted_cards
from puzzles._melds import Meld, join_runs
from puzzles._plays import Play
from puzzles._position import Position, PositionError
from puzzles._rules import FreedJoker

DEFAULT_TIME_LIMIT = 10.0
SEED = 0


class Objective(enum.Enum):
    CARDS = "cards"
    """Place as many hand cards as possible."""
    POINTS = "points"
    """Leave the fewest hand points, with the preset's values."""


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
    """A best play that breaks only that many."""
    broken: tuple[int, ...]
    """Indices into the original table of the melds that play breaks."""
    optimal: bool
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
class Analysis:
    position: Position
    best: Best
    uniqueness: Uniqueness
    depth: Depth
    ms: float

    @property
    def proven(self) -> bool:
        return self.best.optimal and self.uniqueness.unique is not None and self.depth.optimal

    @property
    def shown(self) -> Play:
        """The play an answer shows: the best play that breaks the fewest melds."""
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
    return _maximum(_Model(position, objective), time_limit, started)


def _maximum(model: _Model, time_limit: float, started: float) -> Best:
    position = model.position
    model.model.maximize(model.objective)
    status, solver = model.solve(time_limit)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        play = model.play(solver)
        value = int(solver.value(model.objective))
    else:  # no solution in time: the untouched table is always legal, so fall back to it
        play, value = Play(join_runs(position.table, position.rules), ()), 0
    return Best(play, model.objective_kind, value, status == cp_model.OPTIMAL, _ms(started))


def uniqueness(position: Position, best: Best, time_limit: float = DEFAULT_TIME_LIMIT) -> Uniqueness:
    """Whether every best play leaves the same hand; if not, a best play that leaves another."""
    started = time.perf_counter()
    return _uniqueness(_Model(position, best.objective), best, time_limit, started)


def _uniqueness(model: _Model, best: Best, time_limit: float, started: float) -> Uniqueness:
    """Solves `model` again for a best play that leaves another hand; the model may be the one
    `maximum` solved, since only its objective is replaced."""
    if not best.optimal:
        return Uniqueness(None, None, _ms(started))
    if best.value == model.ceiling:
        # the whole hand is placed: every best play leaves the same, empty, hand
        return Uniqueness(True, None, _ms(started))
    model.model.clear_objective()  # type: ignore[no-untyped-call]  # untyped in OR-Tools 9.15
    # a best play ...
    model.model.add(model.objective == best.value)
    # ... that leaves another hand: with equal totals, some card is played fewer times
    model.require_fewer_somewhere(best.play)
    status, solver = model.solve(time_limit)
    if status == cp_model.INFEASIBLE:
        return Uniqueness(True, None, _ms(started))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Uniqueness(False, model.play(solver), _ms(started))
    return Uniqueness(None, None, _ms(started))


def chain_depth(position: Position, best: Best, time_limit: float = DEFAULT_TIME_LIMIT) -> Depth:
    """The fewest original melds a best play must break, and such a play."""
    started = time.perf_counter()
    model = _Model(position, best.objective, keep=True)
    # the play must be a best one
    model.model.add(model.objective == best.value)
    # keep as many original melds whole as possible
    model.model.maximize(sum(model.kept))
    status, solver = model.solve(time_limit)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return Depth(None, None, (), False, _ms(started))
    broken = tuple(i for i, kept in enumerate(model.kept) if not solver.boolean_value(kept))
    optimal = status == cp_model.OPTIMAL and best.optimal
    return Depth(len(broken), model.play(solver), broken, optimal, _ms(started))


def step_check(position: Position, laid: Iterable[Card], time_limit: float = DEFAULT_TIME_LIMIT) -> StepCheck:
    """The most cards still placeable when the hand cards in `laid` must stay on the table."""
    started = time.perf_counter()
    laid_counts = Counter(laid)
    missing = laid_counts - position.hand_counts()
    if missing:
        card = next(iter(missing))
        raise PositionError(f"{card.pretty()} is not in the hand")
    model = _Model(position, Objective.CARDS, laid=laid_counts)
    model.model.maximize(model.objective)
    status, solver = model.solve(time_limit)
    if status == cp_model.INFEASIBLE:
        return StepCheck(None, True, _ms(started))
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return StepCheck(int(solver.value(model.objective)), status == cp_model.OPTIMAL, _ms(started))
    return StepCheck(None, False, _ms(started))


def analyse(
    position: Position,
    objective: Objective = Objective.CARDS,
    time_limit: float = DEFAULT_TIME_LIMIT,
) -> Analysis:
    """Maximum, uniqueness and chain depth within one time limit for the three."""
    started = time.perf_counter()
    deadline = started + time_limit
    model = _Model(position, objective)
    best = _maximum(model, time_limit, started)
    unique = _uniqueness(model, best, _left(deadline), time.perf_counter())
    depth = chain_depth(position, best, _left(deadline))
    return Analysis(position, best, unique, depth, _ms(started))


def is_puzzle(analysis: Analysis) -> bool:
    """A puzzle: proved maximum of at least one card, proved unique, chain depth proved."""
    return (
        analysis.best.objective is Objective.CARDS
        and analysis.proven
        and analysis.uniqueness.unique is True
        and analysis.best.value >= 1
    )


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)


class _CpModel(cp_model.CpModel):
    def _add_pre_pep8_methods(self) -> None:
        # OR-Tools adds camelCase aliases to every new model, a third of the time it takes us to
        # build one; we only use the snake_case API.
        pass


class _Model:
    """The CP-SAT model of one position: how many of each candidate meld the final table holds."""

    def __init__(
        self,
        position: Position,
        objective: Objective,
        *,
        keep: bool = False,
        laid: Counter[Card] | None = None,
    ) -> None:
        self.position = position
        self.objective_kind = objective
        rules = position.rules
        model = self.model = _CpModel()
        table = Counter({card.index: n for card, n in position.table_counts().items()})
        hand = Counter({card.index: n for card, n in position.hand_counts().items()})
        available = table + hand

        # -- candidate melds: sets and short runs made only of cards this position holds
        self.pieces: list[Candidate] = [c for c in pieces(rules) if fits(c, available)]
        # how many copies of each candidate meld the final table holds
        self.piece_vars = [
            model.new_int_var(0, min(available[i] // n for i, n in c), "") for c in self.pieces
        ]

        # -- which hand cards reach the table
        minimum = Counter({card.index: n for card, n in (laid or Counter()).items()})
        self.placed = {i: model.new_int_var(minimum[i], n, "") for i, n in hand.items()}

        # -- jokers freed to the hand: each needs the hand to give up a real card it stands for
        self.swaps: list[tuple[cp_model.IntVar, int]] = []
        if rules.freed_joker is FreedJoker.HAND:
            for meld in position.table:
                for options in meld.stand_ins():
                    # sorted, so the model is the same whatever the hash seed
                    choices = sorted(c.index for c in options if c.index in self.placed)
                    swap_vars = [(model.new_bool_var(""), i) for i in choices]
                    # one joker is freed at most once
                    model.add_at_most_one(v for v, _ in swap_vars)
                    self.swaps.extend(swap_vars)
            for index, placed in self.placed.items():
                swapped_in = [v for v, i in self.swaps if i == index]
                if swapped_in:
                    # each swap lays its own copy of the real card from the hand
                    model.add(sum(swapped_in) <= placed)
        freed = self.freed = sum(v for v, _ in self.swaps)

        # -- kept melds, for chain depth: each original meld either stays whole one way or breaks
        self.kept: list[cp_model.IntVar] = []
        self.keepings: list[tuple[cp_model.IntVar, Candidate]] = []
        if keep:
            for meld in position.table:
                ways = [c for c in keepings(meld, rules) if fits(c, available)]
                way_vars = [model.new_bool_var("") for _ in ways]
                kept = model.new_bool_var("")
                # a kept meld sits whole in exactly one final meld
                model.add(sum(way_vars) == kept)
                self.kept.append(kept)
                self.keepings.extend(zip(way_vars, ways, strict=True))

        # -- every card on the final table: the old table cards plus the placed hand cards, less
        # the freed jokers; no table card goes back to the hand
        uses: dict[int, list[tuple[cp_model.IntVar, int]]] = {i: [] for i in available}
        for var, candidate in [*zip(self.piece_vars, self.pieces, strict=True), *self.keepings]:
            for index, count in candidate:
                uses[index].append((var, count))
        for index, terms in uses.items():
            laid_out = cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [n for _, n in terms])
            supply = table[index] + self.placed.get(index, 0)
            if index == JOKER_INDEX:
                supply = supply - freed
            model.add(laid_out == supply)

        # -- objective: the cards (or hand points) by which the hand shrinks
        indices = list(self.placed)
        if objective is Objective.CARDS:
            weights = [1] * len(indices)
            joker_weight = 1
        else:
            weights = [rules.points.of(Card.from_index(i)) for i in indices]
            joker_weight = rules.points.joker
        self.objective = (
            cp_model.LinearExpr.weighted_sum([self.placed[i] for i in indices], weights)
            - joker_weight * freed
        )
        # what placing the whole hand is worth: no play does better
        self.ceiling = sum(weight * hand[i] for i, weight in zip(indices, weights, strict=True))

    def require_fewer_somewhere(self, play: Play) -> None:
        """Constrain to plays whose hand after differs from `play`'s, given an equal objective.

        Every card is worth a positive amount, so a different hand with the same total must have
        played some card fewer times than `play` did.
        """
        target = Counter(card.index for card in play.placed)
        target.subtract(card.index for card in play.freed)
        fewer = []
        for index, (net, lowest) in self.net_played().items():
            if lowest <= target[index] - 1:
                flag = self.model.new_bool_var("")
                self.model.add(net <= target[index] - 1).only_enforce_if(flag)
                fewer.append(flag)
        self.model.add_bool_or(fewer)

    def net_played(self) -> dict[int, tuple[cp_model.LinearExprT, int]]:
        """For each card type, how many the hand gives up (a freed joker counts -1), and the least."""
        net: dict[int, tuple[cp_model.LinearExprT, int]] = {
            index: (var, 0) for index, var in self.placed.items()
        }
        if self.swaps:
            placed_jokers = self.placed.get(JOKER_INDEX, 0)
            net[JOKER_INDEX] = (placed_jokers - self.freed, -len(self.swaps))
        return net

    def solve(self, time_limit: float) -> tuple[cp_model.CpSolverStatus, cp_model.CpSolver]:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = SEED
        solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        # OR-Tools would take over Ctrl-C during a solve and leave it killing the process after;
        # the CLI and the web workers need Python's KeyboardInterrupt.
        solver.parameters.catch_sigint_signal = False
        # Measured on bench/corpus.py: the stronger LP relaxation proves large joker tables in
        # ~0.1 s where the default timed out at 10 s; presolve, probing and symmetry detection
        # cost more than they save on models this small (they are built tight already).
        solver.parameters.linearization_level = 2
        solver.parameters.cp_model_presolve = False
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.symmetry_level = 0
        status = solver.solve(self.model)
        return status, solver

    def play(self, solver: cp_model.CpSolver) -> Play:
        rules = self.position.rules
        melds: list[Meld] = []
        chosen = [(solver.value(v), c) for v, c in zip(self.piece_vars, self.pieces, strict=True)]
        chosen += [(int(solver.boolean_value(v)), c) for v, c in self.keepings]
        for copies, candidate in chosen:
            for _ in range(copies):
                melds.append(Meld.of(cards_of(candidate), rules))
        placed = [Card.from_index(i) for i, v in self.placed.items() for _ in range(solver.value(v))]
        freed = [JOKER for v, _ in self.swaps if solver.boolean_value(v)]
        return Play(join_runs(melds, rules), sorted_cards(placed), tuple(freed))
