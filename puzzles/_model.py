"""The CP-SAT model of a position: the only module that imports OR-Tools.

The final table is a multiset of candidate melds (see `puzzles._candidates`). Every solve runs on
one worker with a fixed seed and an explicit time limit, and says whether it proved its answer.

For chain depth the model also knows which original melds stay whole ("kept"); for chain length it
splits the turn into rearrangements ("slots"), each of which takes the cards of the melds it breaks
and some hand cards and lays them out on its own, so that any of them could be done alone.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from puzzles._candidates import JOKER_INDEX, Candidate, Keeping, cards_of, fits, keepings, pieces
from puzzles._cards import JOKER, Card, sorted_cards
from puzzles._melds import Meld, join_runs, table_order
from puzzles._plays import Play
from puzzles._position import Position
from puzzles._rules import FreedJoker

SEED = 0

LinearExpr = cp_model.LinearExpr | int
Constraint = cp_model.BoundedLinearExpression


class Objective(enum.Enum):
    CARDS = "cards"
    """Place as many hand cards as possible."""
    POINTS = "points"
    """Leave the fewest hand points, with the preset's values."""


class Status(enum.Enum):
    OPTIMAL = "optimal"
    """A solution, proved best (or, with no objective, proved to exist)."""
    FEASIBLE = "feasible"
    """A solution, not proved best in the time allowed."""
    INFEASIBLE = "infeasible"
    """Proved: no solution at all."""
    UNKNOWN = "unknown"
    """Nothing found and nothing proved in the time allowed."""

    @property
    def found(self) -> bool:
        return self in (Status.OPTIMAL, Status.FEASIBLE)


_STATUS = {
    cp_model.OPTIMAL: Status.OPTIMAL,
    cp_model.FEASIBLE: Status.FEASIBLE,
    cp_model.INFEASIBLE: Status.INFEASIBLE,
}


@dataclass(frozen=True, slots=True)
class Solution:
    """What one solve found: the play, and the values the caller asks about."""

    status: Status
    play: Play | None
    kept: tuple[bool, ...]
    """For each original meld, whether the play keeps it whole (models built with `keep`)."""
    rearrangements: tuple[tuple[int, ...], ...]
    """The broken original melds, grouped by rearrangement (models built with `grouped`)."""
    values: tuple[int, ...]
    """The values of the expressions passed to `solve`, in order."""
    layout: Counter[Candidate | Keeping]
    """The candidate melds of the final table, before runs are joined."""


class _CpModel(cp_model.CpModel):
    def _add_pre_pep8_methods(self) -> None:
        # OR-Tools adds camelCase aliases to every new model, a third of the time it takes us to
        # build one; we only use the snake_case API.
        pass


class Model:
    """How many of each candidate meld the final table holds, and which hand cards reach it.

    `keep`: also which original melds stay whole. `grouped`: also which rearrangement breaks each
    broken meld (implies `keep`), with room for up to `rearrangements` of them. `layout`: the final
    melds are these candidates (from `Solution.layout`), only how they group is open. `laid`: hand
    cards that must reach the table.
    """

    def __init__(
        self,
        position: Position,
        objective: Objective,
        *,
        keep: bool = False,
        grouped: bool = False,
        rearrangements: int = 0,
        layout: Counter[Candidate | Keeping] | None = None,
        laid: Counter[Card] | None = None,
    ) -> None:
        self.position = position
        self.objective_kind = objective
        self.grouped = grouped
        keep = keep or grouped
        rules = position.rules
        model = self.model = _CpModel()
        melds = [Counter(card.index for card in meld.cards) for meld in position.table]
        hand = Counter({card.index: n for card, n in position.hand_counts().items()})
        table: Counter[int] = Counter()
        for cards in melds:
            table.update(cards)
        available = table + hand

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
        self.freed: LinearExpr = sum(v for v, _ in self.swaps)

        # -- slots: the cards each part of the turn lays out. Without grouping one slot takes the
        # whole table. Grouped, each slot is one rearrangement, with the new melds and extensions
        # made of hand cards alone wherever they fall. A rearrangement that places no card could
        # be undone, so a best play needs no more rearrangements than it places hand cards.
        n = len(melds)
        slots = max(1, min(n, rearrangements)) if grouped else 1
        # members[s]: (meld, 0/1 expression) for the melds whose cards slot s lays out
        members: list[list[tuple[int, LinearExpr]]] = [[] for _ in range(slots)]
        self.kept: list[cp_model.IntVar] = [model.new_bool_var("") for _ in melds] if keep else []
        leads: list[LinearExpr] = []
        if not keep:
            members[0] = [(i, 1) for i in range(n)]
        elif not grouped:
            members[0] = [(i, 1 - self.kept[i]) for i in range(n)]
        else:
            breaks = [[model.new_bool_var("") for _ in range(slots)] for _ in range(n)]
            for i in range(n):
                # an original meld is kept, or broken by exactly one rearrangement
                model.add(sum(breaks[i]) + self.kept[i] == 1)
                for s in range(slots):
                    members[s].append((i, breaks[i][s]))
                    # rearrangements in the order of the first meld each breaks (one order of
                    # many equal ones): a meld joins a rearrangement only after the one before
                    # has broken an earlier meld
                    if s > 0:
                        model.add(breaks[i][s] <= sum(breaks[j][s - 1] for j in range(i)))
            for s in range(slots):
                lead = model.new_bool_var("")
                model.add_max_equality(lead, [breaks[i][s] for i in range(n)])
                leads.append(lead)
        self.members = members

        # -- candidate melds in each slot, and the ways each kept meld stays whole
        self.pieces: list[tuple[cp_model.IntVar, Candidate, int]] = []
        self.keepings: list[tuple[cp_model.IntVar, Keeping, int]] = []
        ways: list[Keeping] = []
        if keep:
            for i in range(n):
                ways += [w for w in keepings(position.table, i, rules) if fits(w.cards, available)]
        shapes = [piece for piece in pieces(rules) if fits(piece, available)]
        if layout is not None:
            shapes = [piece for piece in shapes if layout[piece]]
            ways = [way for way in ways if layout[way]]
        for s in range(slots):
            for piece in shapes:
                bound = min(available[i] // k for i, k in piece)
                self.pieces.append((model.new_int_var(0, bound, ""), piece, s))
            for way in ways:
                self.keepings.append((model.new_bool_var(""), way, s))
        if layout is not None:
            # the final melds are those of the layout, only their slots are open
            copies: dict[Candidate | Keeping, list[cp_model.IntVar]] = {}
            for var, shape, _ in self._shapes():
                copies.setdefault(shape, []).append(var)
            for shape, shape_vars in copies.items():
                model.add(sum(shape_vars) == layout[shape])
        for i, kept in enumerate(self.kept):
            # a kept meld sits whole in exactly one final meld
            model.add(sum(v for v, way, _ in self.keepings if i in way.melds) == kept)

        # -- hand cards and freed jokers, shared out among the slots
        hand_in: list[dict[int, LinearExpr]] = [{} for _ in range(slots)]
        freed_in: list[LinearExpr] = [self.freed, *([0] * (slots - 1))]
        if grouped:
            for index, placed in self.placed.items():
                shares = [model.new_int_var(0, hand[index], "") for _ in range(slots)]
                # every hand card placed is laid by one slot
                model.add(sum(shares) == placed)
                for s, share in enumerate(shares):
                    hand_in[s][index] = share
            if self.swaps:
                shares = [model.new_int_var(0, len(self.swaps), "") for _ in range(slots)]
                model.add(sum(shares) == self.freed)
                for s, share in enumerate(shares):
                    jokers = [var for i, var in members[s] if melds[i][JOKER_INDEX]]
                    # a joker goes back to the hand from a meld that its slot breaks
                    model.add(share <= sum(jokers))
                    freed_in[s] = share
            for s in range(slots):
                # a rearrangement places a card at least (see above)
                model.add(sum(hand_in[s].values()) - freed_in[s] >= leads[s])
        else:
            hand_in[0] = dict(self.placed)

        # -- in every slot, the final melds hold exactly the cards of the melds it breaks and of
        # the hand cards it lays, less the jokers freed from them: no table card goes back to the
        # hand, and the melds it keeps lay their own cards
        for s in range(slots):
            uses: dict[int, list[tuple[LinearExpr, int]]] = {}
            for var, piece, slot in self.pieces:
                if slot == s:
                    for index, count in piece:
                        uses.setdefault(index, []).append((var, count))
            for var, way, slot in self.keepings:
                if slot == s:
                    for index, count in way.extra:
                        uses.setdefault(index, []).append((var, count))
            for index in available:
                terms = uses.get(index, [])
                laid_out = cp_model.LinearExpr.weighted_sum([v for v, _ in terms], [n for _, n in terms])
                # without kept melds every table card is laid out again: a constant supply
                given: LinearExpr = (
                    table[index]
                    if not keep
                    else sum(expr * melds[i][index] for i, expr in members[s] if melds[i][index])
                ) + hand_in[s].get(index, 0)
                if index == JOKER_INDEX:
                    given = given - freed_in[s]
                model.add(laid_out == given)

        # -- what the hand gives up: cards, or hand points, less the freed jokers
        indices = list(self.placed)
        points = [rules.points.of(Card.from_index(i)) for i in indices]
        self.points: LinearExpr = (
            cp_model.LinearExpr.weighted_sum([self.placed[i] for i in indices], points)
            - rules.points.joker * self.freed
        )
        self.points_ceiling = sum(p * hand[i] for i, p in zip(indices, points, strict=True))
        self.cards: LinearExpr = sum(self.placed.values()) - self.freed
        self.objective = self.cards if objective is Objective.CARDS else self.points
        # what placing the whole hand is worth: no play does better
        self.ceiling = sum(hand.values()) if objective is Objective.CARDS else self.points_ceiling
        self.broken: LinearExpr = n - sum(self.kept) if keep else 0
        self.sizes: list[LinearExpr] = (
            [sum(var for _, var in members[s]) for s in range(slots)] if grouped else []
        )
        # how many rearrangements there are: each is led by the first meld it breaks
        self.rearrangements: LinearExpr = sum(leads)

    def add(self, constraint: Constraint | bool) -> None:
        self.model.add(constraint)

    def new_int(self, low: int, high: int) -> cp_model.IntVar:
        return self.model.new_int_var(low, high, "")

    def maximize(self, *terms: tuple[LinearExpr, int]) -> None:
        """Maximize the terms lexicographically: each is an expression and how far it can range."""
        self.model.maximize(_lexicographic(terms))

    def require_fewer_somewhere(self, play: Play) -> None:
        """Constrain to plays whose hand after differs from `play`'s, given an equal objective.

        Every card is worth a positive amount, so a different hand with the same total must have
        played some card fewer times than `play` did.
        """
        target = Counter(card.index for card in play.placed)
        target.subtract(card.index for card in play.freed)
        fewer = []
        for index, (net, lowest) in self._net_played().items():
            if lowest <= target[index] - 1:
                flag = self.model.new_bool_var("")
                self.model.add(net <= target[index] - 1).only_enforce_if(flag)
                fewer.append(flag)
        self.model.add_bool_or(fewer)

    def _net_played(self) -> dict[int, tuple[LinearExpr, int]]:
        """For each card type, how many the hand gives up (a freed joker counts -1), and the least."""
        net: dict[int, tuple[LinearExpr, int]] = {index: (var, 0) for index, var in self.placed.items()}
        if self.swaps:
            placed_jokers = self.placed.get(JOKER_INDEX, 0)
            net[JOKER_INDEX] = (placed_jokers - self.freed, -len(self.swaps))
        return net

    def solve(self, time_limit: float, values: Sequence[LinearExpr] = ()) -> Solution:
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
        if not self.grouped:
            solver.parameters.cp_model_presolve = False
            solver.parameters.cp_model_probing_level = 0
        # Measured on large real-game tables: the grouped model (one copy of every candidate per
        # rearrangement) proves its chain length about a third sooner with presolve and the
        # lightest symmetry detection.
        solver.parameters.symmetry_level = 1 if self.grouped else 0
        status = _STATUS.get(solver.solve(self.model), Status.UNKNOWN)
        if not status.found:
            return Solution(status, None, (), (), (), Counter())
        kept = tuple(solver.boolean_value(var) for var in self.kept)
        groups: tuple[tuple[int, ...], ...] = ()
        if self.grouped:
            groups = tuple(
                group
                for s in range(len(self.members))
                if (group := tuple(i for i, var in self.members[s] if solver.value(var)))
            )
        values_found = tuple(int(solver.value(expr)) for expr in values)
        layout: Counter[Candidate | Keeping] = Counter()
        if self.kept:  # only kept-meld models are laid out again by rearrangement
            for var, shape, _ in self._shapes():
                layout[shape] += int(solver.value(var))
        return Solution(status, self._play(solver), kept, groups, values_found, +layout)

    def _shapes(self) -> list[tuple[cp_model.IntVar, Candidate | Keeping, int]]:
        """Every candidate meld's variable, with the candidate and its slot."""
        return [*self.pieces, *self.keepings]

    def _play(self, solver: cp_model.CpSolver) -> Play:
        rules = self.position.rules
        by_slot: dict[int, list[Meld]] = {}
        chosen = [(solver.value(v), piece, s) for v, piece, s in self.pieces]
        chosen += [(int(solver.boolean_value(v)), way.cards, s) for v, way, s in self.keepings]
        for copies, candidate, s in chosen:
            for _ in range(copies):
                by_slot.setdefault(s, []).append(Meld.of(cards_of(candidate), rules))
        # runs are joined within a rearrangement only, so that the table shows them apart
        table = sorted(
            (meld for melds in by_slot.values() for meld in join_runs(melds, rules)), key=table_order
        )
        placed = [Card.from_index(i) for i, v in self.placed.items() for _ in range(solver.value(v))]
        freed = [JOKER for v, _ in self.swaps if solver.boolean_value(v)]
        return Play(tuple(table), sorted_cards(placed), tuple(freed))


def _lexicographic(terms: Sequence[tuple[LinearExpr, int]]) -> LinearExpr:
    """One expression that orders like the terms, first term first; each term ranges over at most
    `span` values above its least (its weight is the product of the later spans)."""
    total: LinearExpr = 0
    weight = 1
    for expr, span in reversed(terms):
        total = total + weight * expr
        weight *= span + 1
    return total
