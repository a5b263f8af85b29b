"""The CP-SAT model of a position: the only module that imports OR-Tools.

The final table is a multiset of candidate melds. They are listed in `puzzles._candidates`
(`allowed_by`, once a position); this module only builds the model over them, solves it and reads
the play back. Every solve runs on one worker with a fixed seed and an explicit time limit, and says
whether it proved its answer.

For chain depth the model also knows which original melds stay whole ("kept"); for chain length it
splits the turn into rearrangements ("slots"), each of which takes the cards of the melds it breaks
and some hand cards and lays them out on its own, so that any of them could be done alone. A slot
is led by the first meld it breaks and sees only the melds and candidates that a rearrangement of
its size could reach (at a size of two, a candidate only where one of those melds completes it); a
last slot takes the melds and extensions of hand cards alone.
"""

from __future__ import annotations

import copy
import enum
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ortools.sat.python import cp_model

from puzzles._candidates import (
    JOKER_INDEX,
    Allowed,
    Candidate,
    Keeping,
    allowed_by,
    laid_out,
    meld_of,
    reachable,
)
from puzzles._cards import JOKER, Card, sorted_cards
from puzzles._melds import Meld, MeldKind, join_runs, table_order
from puzzles._plays import Play
from puzzles._position import Position
from puzzles._rules import FreedJoker

SEED = 0
GROUPED_PRESOLVE_ITERATIONS = 1
"""Presolve rounds for the grouped model (one copy of every candidate per rearrangement): one
round, without probing or symmetry detection, finishes the chain length's solves about a third
sooner than full presolve, which took most of a big table's time, and sooner than none
(docs/EXPERIMENTS.md)."""

GROUPED_LINEARIZATION = 0
GROUPED_INPROCESSING = False
"""The grouped model's search: no LP relaxation and no inprocessing. The LP (level 2, which the
other models need) and the clause inprocessing cost more than they prune on these feasibility
searches: without them the chain length's searches take about half the time (docs/EXPERIMENTS.md)."""

GROUPED_BUMP_REASONS = True
GROUPED_RANDOM_BRANCHES = 0.01
"""The grouped model's branching: the variables of a conflict's reasons bumped too, and one
decision in a hundred at random (seeded, so every answer is the same from run to run). Together
they take a tenth off the chain length's searches, every answer the same (docs/EXPERIMENTS.md)."""

LinearExpr = cp_model.LinearExpr | int
Constraint = cp_model.BoundedLinearExpression


class Objective(enum.Enum):
    CARDS = "cards"
    """Place as many hand cards as possible."""
    POINTS = "points"
    """Leave the fewest hand points, with the preset's values."""

    __hash__ = object.__hash__  # in C, as `Suit`'s: the solver's caches key on it


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

    @property
    def exists(self) -> bool | None:
        """A yes-or-no question's answer: True when a solution was found, False when proved that
        none exists, None when the limits allowed neither."""
        if self is Status.INFEASIBLE:
            return False
        return True if self.found else None


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


@dataclass(frozen=True, slots=True)
class _Slot:
    """One part of the turn: the original melds whose cards it lays out, and the card types its
    final melds may hold."""

    members: list[tuple[int, LinearExpr]]
    """(meld, 0/1 variable or constant): the melds this slot breaks, when it is 1 (0 with
    `kept_members`)."""
    lead: LinearExpr
    """1 when the slot is a rearrangement that happens: its first meld breaks."""
    allowed: frozenset[int] | None
    """Card types its final melds may hold; None for any."""
    touching: frozenset[int] | None
    """Card types of which each of its final melds (or extensions) holds one at least; None for
    no such need."""

    kept_members: bool = False
    """True when a member's variable says that the meld is kept, not broken."""
    cover: tuple[frozenset[int], tuple[frozenset[int], ...]] | None = None
    """For the slot of a rearrangement of two melds: the card types that need no meld beside the
    leader (the leader's and the hand's), and the card types of each other meld it may break."""


class Model:
    """How many of each candidate meld the final table holds, and which hand cards reach it.

    `keep`: also which original melds stay whole. `largest`: also which rearrangement breaks each
    broken meld (implies `keep`), each breaking at most that many melds. `layout`: the final melds
    are these candidates (from `Solution.layout`), only how they group is open. `laid`: hand cards
    that must reach the table.
    """

    def __init__(
        self,
        position: Position,
        objective: Objective,
        *,
        keep: bool = False,
        largest: int | None = None,
        layout: Counter[Candidate | Keeping] | None = None,
        laid: Counter[Card] | None = None,
    ) -> None:
        self.position = position
        self.objective_kind = objective
        self.grouped = largest is not None
        keep = keep or self.grouped
        self.model = _CpModel()
        self.melds = [Counter(card.index for card in meld.cards) for meld in position.table]
        self.hand = Counter({card.index: n for card, n in position.hand_counts().items()})
        self.table: Counter[int] = Counter()
        for cards in self.melds:
            self.table.update(cards)
        self.available = self.table + self.hand
        self.kept: list[cp_model.IntVar] = [self.model.new_bool_var("") for _ in self.melds] if keep else []

        self._hand_cards(laid or Counter())
        allowed = allowed_by(position, keep)
        if layout is not None:
            allowed = laid_out(allowed, layout)
        if self.grouped:
            assert largest is not None
            slots = self._rearrangements(largest, allowed)
        elif keep:
            slots = [_Slot(list(enumerate(self.kept)), 1, None, None, kept_members=True)]
        else:
            slots = [_Slot([(i, 1) for i in range(len(self.melds))], 1, None, None)]
        self.slots = slots
        self._candidates(allowed, layout)
        self._lay_out()
        self._totals(objective)

    def _hand_cards(self, laid: Counter[Card]) -> None:
        """Which hand cards reach the table, and which jokers go back to the hand."""
        model = self.model
        minimum = Counter({card.index: n for card, n in laid.items()})
        self.laid = {i: model.new_int_var(minimum[i], n, "") for i, n in self.hand.items()}

        # -- jokers freed to the hand: each needs the hand to give up a real card it stands for
        self.swaps: list[tuple[cp_model.IntVar, int]] = []
        if self.position.rules.freed_joker is FreedJoker.HAND:
            for meld in self.position.table:
                for options in meld.stand_ins():
                    # sorted, so the model is the same whatever the hash seed
                    choices = sorted(c.index for c in options if c.index in self.laid)
                    swap_vars = [(model.new_bool_var(""), i) for i in choices]
                    # one joker is freed at most once
                    model.add_at_most_one(v for v, _ in swap_vars)
                    self.swaps.extend(swap_vars)
            for index, count in self.laid.items():
                swapped_in = [v for v, i in self.swaps if i == index]
                if swapped_in:
                    # each swap lays its own copy of the real card from the hand
                    model.add(sum(swapped_in) <= count)
        self.freed: LinearExpr = sum(v for v, _ in self.swaps)

    def _rearrangements(self, largest: int, shared: Allowed) -> list[_Slot]:
        """One slot per meld that may lead a rearrangement of at most `largest` melds, and a last
        one for the new melds and extensions made of hand cards alone.

        A rearrangement is led by the first meld it breaks (in table order), so no two slots stand
        for the same grouping. A meld can only join a rearrangement whose leader reaches it, in
        fewer than `largest` steps, through later melds that some final meld could join to it.
        """
        model = self.model
        n = len(self.melds)
        types = shared.meld_types
        near = shared.near
        joins: list[dict[int, cp_model.IntVar]] = [{} for _ in range(n)]  # joins[j][i]: i in j's
        hand_types = frozenset(self.hand)
        for j in range(n):
            for i in reachable(near, j, largest - 1):
                joins[j][i] = model.new_bool_var("")
        slots = []
        for j in range(n):
            lead = joins[j][j]
            for i, var in joins[j].items():
                if i != j:
                    # a meld joins a rearrangement only if its leader (the first meld it breaks) breaks
                    model.add(var <= lead)
            # a rearrangement breaks at most `largest` melds
            model.add(sum(joins[j].values()) <= largest)
            allowed = frozenset().union(*(types[i] for i in joins[j]))
            others = tuple(types[i] for i in joins[j] if i != j)
            # only for rearrangements of two melds: measured at every size, see `_Cover`
            cover = (types[j] | hand_types, others) if largest == 2 and len(others) > 1 else None
            slots.append(_Slot(list(joins[j].items()), lead, allowed | hand_types, allowed, cover=cover))
        for i in range(n):
            # an original meld is kept, or broken by exactly one rearrangement
            model.add(sum(joins[j][i] for j in range(n) if i in joins[j]) + self.kept[i] == 1)
        slots.append(_Slot([], 0, frozenset(self.hand), None))
        return slots

    def _candidates(self, allowed: Allowed, layout: Counter[Candidate | Keeping] | None) -> None:
        """Each slot's copy of every candidate meld and keeping its card types allow."""
        # (variable number, shape, slot): the variables are numbers into the model's proto,
        # written as text in one go (see `_Writer`)
        self.pieces: list[tuple[int, Candidate, int]] = []
        # shared with the model's copies, which have the same candidates (`_held_in`)
        self._held: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
        self.keepings: list[tuple[int, Keeping, int]] = []
        uppers = self._slot_shapes(allowed)
        writer = _Writer(self.model)
        writer.variables(uppers)
        if layout is not None:
            # the final melds are those of the layout, only their slots are open
            copies: dict[Candidate | Keeping, list[int]] = {}
            for var, shape, _ in self._shapes():
                copies.setdefault(shape, []).append(var)
            for shape, shape_vars in copies.items():
                writer.linear(shape_vars, [1] * len(shape_vars), layout[shape])
        self._kept_whole(writer)
        writer.flush()

    def _slot_shapes(self, allowed: Allowed) -> list[int]:
        """Fill `pieces` and `keepings` with each slot's shapes; returns their variables' upper
        bounds, in the order of their numbers."""
        # each slot looks only at the shapes that hold a card type it touches (or, for a slot
        # that touches any, at all of them)
        every, types_of, by_type, bounds = allowed.every, allowed.types_of, allowed.by_type, allowed.bounds
        candidates = allowed.candidates
        last = len(self.slots) - 1
        pieces, keepings = self.pieces, self.keepings
        uppers: list[int] = []
        number_of_vars = len(self.model.model_proto.variables)
        for s, slot in enumerate(self.slots):
            within, touching = slot.allowed, slot.touching
            covered = _Cover(*slot.cover) if slot.cover is not None else None
            near = (
                range(len(every))
                if touching is None
                else sorted({number for index in touching for number in by_type.get(index, ())})
            )
            for number in near:
                types = types_of[number]
                # a final meld (or the cards a keeping adds) lies here only with card types the
                # slot allows, and one at least of those it touches
                # (`near` holds only shapes with a card type the slot touches)
                if within is not None and not types <= within:
                    continue
                if covered is not None and not covered(types):
                    continue
                if number >= candidates:
                    # a keeping with no cards beyond its melds' belongs to the last slot alone
                    if types or s == last:
                        keepings.append((number_of_vars + len(uppers), every[number], s))  # type: ignore[arg-type]
                        uppers.append(1)
                else:
                    pieces.append((number_of_vars + len(uppers), every[number], s))  # type: ignore[arg-type]
                    uppers.append(bounds[number])
        return uppers

    def _kept_whole(self, writer: _Writer) -> None:
        """Tie each original meld's `kept` variable to the keepings that hold it whole."""
        keeping_vars: list[list[int]] = [[] for _ in self.kept]
        for var, way, _ in self.keepings:
            for i in way.melds:
                keeping_vars[i].append(var)
        for kept, kept_vars in zip(self.kept, keeping_vars, strict=True):
            # a kept meld sits whole in exactly one final meld
            # (`0 == kept`, with no keeping, Python turns round)
            pairs = [(var, 1) for var in kept_vars] + [(kept.index, -1 if kept_vars else 1)]
            writer.linear(*_sorted_terms(pairs), 0)

    def _lay_out(self) -> None:
        """Hand cards and freed jokers shared out among the slots, and in every slot the final melds
        holding exactly the cards it lays out."""
        uses = self._uses()
        writer = _Writer(self.model)
        hand_in, freed_in = self._share_out(writer, uses)
        for s, slot in enumerate(self.slots):
            self._balance(writer, slot, uses[s], hand_in[s], freed_in[s])
        writer.flush()

    def _uses(self) -> list[dict[int, list[tuple[int, int]]]]:
        """For each slot and card type, the final melds' variables holding that card, with how many."""
        uses: list[dict[int, list[tuple[int, int]]]] = [{} for _ in self.slots]
        for var, piece, s in self.pieces:
            used = uses[s]
            for index, count in piece:
                held = used.get(index)
                if held is None:
                    used[index] = [(var, count)]
                else:
                    held.append((var, count))
        for var, way, s in self.keepings:
            used = uses[s]
            for index, count in way.extra:
                held = used.get(index)
                if held is None:
                    used[index] = [(var, count)]
                else:
                    held.append((var, count))
        return uses

    def _share_out(
        self, writer: _Writer, uses: list[dict[int, list[tuple[int, int]]]]
    ) -> tuple[list[dict[int, int]], list[LinearExpr]]:
        """How many of each hand card (a variable, by its number), and of the freed jokers, each
        slot lays out."""
        model = self.model
        slots = self.slots
        hand_in: list[dict[int, int]] = [{} for _ in slots]
        freed_in: list[LinearExpr] = [self.freed, *([0] * (len(slots) - 1))]
        if not self.grouped:
            hand_in[0] = {index: laid.index for index, laid in self.laid.items()}
            return hand_in, freed_in
        # written as `model.add` would write them (see `_Writer`): a grouped model has a share
        # of each hand card for every slot that could lay it
        leads = [_number(slot.lead) if slot.members else -1 for slot in slots]
        for index, laid in self.laid.items():
            most = self.hand[index]
            shares = []
            for s, lead in enumerate(leads):
                if index in uses[s]:
                    share = writer.variable(most)
                    shares.append(share)
                    hand_in[s][index] = share
                    if lead >= 0:
                        # a rearrangement that does not happen lays no hand card
                        writer.linear(*_sorted_terms([(share, 1), (lead, -most)]), _LOWEST, 0)
            # each hand card laid is laid by one slot
            every = [(share, 1) for share in shares] + [(laid.index, -1)] if shares else [(laid.index, 1)]
            writer.linear(*_sorted_terms(every), 0, 0)
        if self.swaps:
            writer.flush()
            freed_in = [0] * len(slots)
            for s, slot in enumerate(slots):
                jokers = [var for i, var in slot.members if self.melds[i][JOKER_INDEX]]
                if jokers:
                    freed_here = model.new_int_var(0, len(jokers), "")
                    # a joker goes back to the hand from a meld that its slot breaks
                    model.add(freed_here <= sum(jokers))
                    freed_in[s] = freed_here
            model.add(sum(freed_in) == self.freed)
            writer.reopen()
        for s, lead in enumerate(leads):
            if lead >= 0:
                # a rearrangement places a card at least: one that places none could be undone
                freed = freed_in[s]
                placed = [(share, 1) for share in hand_in[s].values()]
                if isinstance(freed, cp_model.IntVar):
                    placed.append((freed.index, -1))
                if placed:
                    writer.linear(*_sorted_terms([*placed, (lead, -1)]), 0, _HIGHEST)
                else:  # `0 >= lead`, which Python turns round
                    writer.linear([lead], [1], _LOWEST, 0)
        return hand_in, freed_in

    def _balance(
        self,
        writer: _Writer,
        slot: _Slot,
        uses: dict[int, list[tuple[int, int]]],
        hand_in: dict[int, int],
        freed_in: LinearExpr,
    ) -> None:
        """The slot's final melds hold exactly the cards of the melds it breaks and of the hand
        cards it lays, less the jokers freed from them: no table card goes back to the hand, and
        the melds it keeps lay their own cards."""
        # laid out less given, per card type: (variable number, factor) pairs, and a constant;
        # an expression that is no single variable (the freed jokers of a model without slots)
        # goes to `others`
        terms = uses  # `_lay_out`'s own lists, read once: no copy
        others: dict[int, list[tuple[LinearExpr, int]]] = {}
        constant: dict[int, int] = {}
        for i, member in slot.members:
            cards = self.melds[i].items()
            if isinstance(member, int):  # without kept melds every meld is laid out again
                for index, count in cards:
                    constant[index] = constant.get(index, 0) - count * member
                continue
            assert isinstance(member, cp_model.IntVar), "a slot's member is a variable or a constant"
            number = member.index
            if slot.kept_members:  # the meld's cards are laid out unless it is kept
                for index, count in cards:
                    terms.setdefault(index, []).append((number, count))
                    constant[index] = constant.get(index, 0) - count
            else:
                for index, count in cards:
                    terms.setdefault(index, []).append((number, -count))
        for index, laid in hand_in.items():
            terms.setdefault(index, []).append((laid, -1))
        if isinstance(freed_in, cp_model.IntVar):
            terms.setdefault(JOKER_INDEX, []).append((freed_in.index, 1))
        elif not isinstance(freed_in, int):
            others.setdefault(JOKER_INDEX, []).append((freed_in, 1))
        for index in sorted(terms.keys() | constant.keys() | others.keys()):
            pairs, value = terms.get(index, []), -constant.get(index, 0)
            if pairs and index not in others:
                # in the order of the variables, as `model.add` would list them
                pairs.sort()
                writer.linear([var for var, _ in pairs], [weight for _, weight in pairs], value)
            else:
                exprs: list[LinearExpr] = [cp_model.IntVar(self.model.proto, var) for var, _ in pairs]
                exprs += [expr for expr, _ in others.get(index, [])]
                weights = [weight for _, weight in pairs] + [weight for _, weight in others.get(index, [])]
                writer.flush()
                self.model.add(cp_model.LinearExpr.weighted_sum(exprs, weights) == value)

    def _totals(self, objective: Objective) -> None:
        """What the hand gives up: cards, or hand points, less the freed jokers."""
        rules = self.position.rules
        indices = list(self.laid)
        points = [rules.points.of(Card.from_index(i)) for i in indices]
        self.points: LinearExpr = (
            cp_model.LinearExpr.weighted_sum([self.laid[i] for i in indices], points)
            - rules.points.joker * self.freed
        )
        self.points_ceiling = sum(p * self.hand[i] for i, p in zip(indices, points, strict=True))
        self.cards: LinearExpr = sum(self.laid.values()) - self.freed
        self.objective = self.cards if objective is Objective.CARDS else self.points
        # what placing the whole hand is worth: no play does better
        self.ceiling = sum(self.hand.values()) if objective is Objective.CARDS else self.points_ceiling
        self.broken: LinearExpr = len(self.melds) - sum(self.kept) if self.kept else 0
        self.sizes: list[LinearExpr] = (
            [sum(var for _, var in slot.members) for slot in self.slots if slot.members]
            if self.grouped
            else []
        )
        # how many rearrangements there are: each is led by the first meld it breaks
        self.rearrangements: LinearExpr = sum(slot.lead for slot in self.slots) if self.grouped else 0

    def copy(self) -> Model:
        """The same model, to be constrained apart from this one: its proto copied, not built
        again (a twentieth of the time), the same as a new build's, so it solves the same."""
        twin = copy.copy(self)
        twin.model = _CpModel()
        twin.model.model_proto.copy_from(self.model.model_proto)
        twin.model.rebuild_constant_map()
        return twin

    def add(self, constraint: Constraint | bool) -> None:
        self.model.add(constraint)

    def new_int(self, low: int, high: int) -> cp_model.IntVar:
        return self.model.new_int_var(low, high, "")

    def maximize(self, *terms: tuple[LinearExpr, int]) -> LinearExpr:
        """Maximize the terms lexicographically: each is an expression and how far it can range.
        Returns the one expression maximized."""
        objective = _lexicographic(terms)
        self.model.maximize(objective)
        return objective

    def hint_whole(self) -> None:
        """Lead the search towards plays that keep every original meld whole and free no joker: the
        chain depth's optimum keeps most of them, and its first solutions come sooner (the depth
        phase about a quarter faster: docs/EXPERIMENTS.md). The hint is only a preference, so the
        optimum is the same; among equal plays the search may stop at another."""
        for kept in self.kept:
            self.model.add_hint(kept, 1)
        for swap, _ in self.swaps:
            self.model.add_hint(swap, 0)

    def require_fewer_somewhere(self, play: Play) -> None:
        """Constrain to plays whose hand after differs from `play`'s, given an equal objective.

        Every card is worth a positive amount, so a different hand with the same total must have
        placed some card fewer times than `play` did.
        """
        target = Counter(card.index for card in play.laid)
        target.subtract(card.index for card in play.freed)
        self._require_one_fewer(
            (net, target[index])
            for index, (net, lowest) in self._net_placed().items()
            if lowest < target[index]
        )

    def require_another_layout(self, found: Solution) -> None:
        """Constrain to final tables laid out otherwise than `found`'s, given as many cards on the
        table (models built with `keep`, whose solutions carry their layout).

        Every candidate holds cards, so another layout with as many cards must hold some candidate
        of `found`'s fewer times.
        """
        assert found.play is not None and self.kept
        layout = found.layout
        self._require_one_fewer(
            (self.model.get_int_var_from_proto_index(var), layout[shape])
            for var, shape, _ in self._shapes()
            if layout[shape]
        )

    def require_other_ends(self, card: Card, sets: int, runs: int) -> None:
        """Constrain to plays where the card's copies (table and hand together) do not end as
        `sets` in sets and `runs` in runs: another split, or another kind of meld (models built
        without `keep`, whose final melds are candidates alone)."""
        assert not self.kept
        rules = self.position.rules
        ends: dict[MeldKind, list[LinearExpr]] = {MeldKind.SET: [], MeldKind.RUN: []}
        for var, piece, _ in self.pieces:
            copies = dict(piece).get(card.index, 0)
            if copies:
                ends[meld_of(piece, rules).kind].append(copies * self.model.get_int_var_from_proto_index(var))
        most = self.available[card.index]
        in_sets, in_runs = self.new_int(0, most), self.new_int(0, most)
        self.model.add(in_sets == sum(ends[MeldKind.SET]))
        self.model.add(in_runs == sum(ends[MeldKind.RUN]))
        other_sets = self.model.new_bool_var("")
        self.model.add(in_sets != sets).only_enforce_if(other_sets)
        self.model.add(in_runs != runs).only_enforce_if(~other_sets)

    def require_some_other_end(self, ends: Mapping[Card, tuple[int, int]]) -> None:
        """Constrain to plays where at least one of these cards does not end as its `ends` say
        (copies in sets, copies in runs; table and hand together): `require_other_ends` for any
        one of them, in one solve (models built without `keep`)."""
        assert not self.kept
        held = self._held_in()
        variable = self.model.get_int_var_from_proto_index
        differs = []
        for card in {card.index: card for card in ends}.values():
            most = self.available[card.index]
            for terms, count in zip(held.get(card.index, ((), ())), ends[card], strict=True):
                total = self.new_int(0, most)
                self.model.add(total == sum([copies * variable(var) for var, copies in terms]))
                flag = self.model.new_bool_var("")
                self.model.add(total != count).only_enforce_if(flag)
                differs.append(flag)
        self.model.add_bool_or(differs)

    def _held_in(self) -> dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
        """For each card type, the candidates' variables (by number) that hold it in sets, and in
        runs, with their copies, in the candidates' order: read once for a model and the copies
        made of it (`unsettled` asks its questions of copies of one model)."""
        held = self._held
        if not held:
            rules = self.position.rules
            for var, piece, _ in self.pieces:
                at = 0 if meld_of(piece, rules).kind is MeldKind.SET else 1
                for index, copies in piece:
                    held.setdefault(index, ([], []))[at].append((var, copies))
        return held

    def laid_beyond(self, counts: Mapping[Card, int]) -> LinearExpr:
        """How many of these hand cards the play lays more copies of than `counts` says: one for
        each card laid beyond its count (a weak fork's rivals, `puzzles._weak`)."""
        beyond: list[cp_model.IntVar] = []
        for card, count in sorted(counts.items(), key=lambda item: item[0].index):
            flag = self.model.new_bool_var("")
            self.model.add(self.laid[card.index] >= count + 1).only_enforce_if(flag)
            self.model.add(self.laid[card.index] <= count).only_enforce_if(~flag)
            beyond.append(flag)
        return sum(beyond)

    def _require_one_fewer(self, counts: Iterable[tuple[LinearExpr, int]]) -> None:
        """Constrain one of the expressions at least to fall below its count."""
        fewer = []
        for expr, count in counts:
            flag = self.model.new_bool_var("")
            self.model.add(expr <= count - 1).only_enforce_if(flag)
            fewer.append(flag)
        self.model.add_bool_or(fewer)

    def _net_placed(self) -> dict[int, tuple[LinearExpr, int]]:
        """For each card type, how many the hand gives up (a freed joker counts -1), and the least."""
        net: dict[int, tuple[LinearExpr, int]] = {index: (var, 0) for index, var in self.laid.items()}
        if self.swaps:
            laid_jokers = self.laid.get(JOKER_INDEX, 0)
            net[JOKER_INDEX] = (laid_jokers - self.freed, -len(self.swaps))
        return net

    def solve(
        self, time_limit: float, values: Sequence[LinearExpr] = (), work_limit: float | None = None
    ) -> Solution:
        """Solve within the time limit and, if given, OR-Tools' deterministic time limit: a limit on
        work, so that the same model stops at the same point on any machine."""
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.random_seed = SEED
        solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
        if work_limit is not None:
            solver.parameters.max_deterministic_time = work_limit
        # OR-Tools would take over Ctrl-C during a solve and leave it killing the process after;
        # the CLI and the web workers need Python's KeyboardInterrupt.
        solver.parameters.catch_sigint_signal = False
        # The stronger LP relaxation proves large joker tables in ~0.1 s where the default timed
        # out at 10 s; presolve, probing and symmetry detection cost more than they save on
        # models this small (they are built tight already). Measured: docs/EXPERIMENTS.md.
        solver.parameters.linearization_level = 2
        solver.parameters.cp_model_probing_level = 0
        solver.parameters.symmetry_level = 0
        if self.grouped:
            solver.parameters.max_presolve_iterations = GROUPED_PRESOLVE_ITERATIONS
            solver.parameters.linearization_level = GROUPED_LINEARIZATION
            solver.parameters.use_sat_inprocessing = GROUPED_INPROCESSING
            solver.parameters.also_bump_variables_in_conflict_reasons = GROUPED_BUMP_REASONS
            solver.parameters.random_branches_ratio = GROUPED_RANDOM_BRANCHES
        else:
            solver.parameters.cp_model_presolve = False
        status = _STATUS.get(solver.solve(self.model), Status.UNKNOWN)
        if not status.found:
            return Solution(status, None, (), (), (), Counter())
        kept = tuple(solver.boolean_value(var) for var in self.kept)
        groups: tuple[tuple[int, ...], ...] = ()
        if self.grouped:
            groups = tuple(
                group
                for slot in self.slots
                if (group := tuple(i for i, var in slot.members if solver.value(var)))
            )
        values_found = tuple(int(solver.value(expr)) for expr in values)
        # the candidates' values read off the response by number: a tenth of the time
        # `solver.value` takes a variable, and a model has thousands of them
        solution = solver.response_proto.solution
        layout: Counter[Candidate | Keeping] = Counter()
        if self.kept:  # only kept-meld models are laid out again by rearrangement
            for var, shape, _ in self._shapes():
                if copies := solution[var]:
                    layout[shape] += copies
        return Solution(status, self._play(solver, solution), kept, groups, values_found, layout)

    def _shapes(self) -> list[tuple[int, Candidate | Keeping, int]]:
        """Every candidate meld's variable (its number), with the candidate and its slot."""
        return [*self.pieces, *self.keepings]

    def _play(self, solver: cp_model.CpSolver, solution: Sequence[int]) -> Play:
        rules = self.position.rules
        by_slot: dict[int, list[Meld]] = {}
        chosen = [(solution[v], piece, s) for v, piece, s in self.pieces]
        chosen += [(solution[v], way.cards, s) for v, way, s in self.keepings]
        for copies, candidate, s in chosen:
            if copies:
                meld = meld_of(candidate, rules)
                by_slot.setdefault(s, []).extend([meld] * copies)
        # runs are joined within a rearrangement only, so that the table shows them apart
        table = sorted(
            (meld for melds in by_slot.values() for meld in join_runs(melds, rules)), key=table_order
        )
        laid = [Card.from_index(i) for i, v in self.laid.items() for _ in range(solver.value(v))]
        freed = [JOKER for v, _ in self.swaps if solver.boolean_value(v)]
        return Play(tuple(table), sorted_cards(laid), tuple(freed))


class _Cover:
    """Whether a final meld's card types can all come from a slot of a rearrangement of two
    melds: the leader and the hand give theirs, and one other meld the leader reaches the rest.

    Sound: a slot's final meld (or the cards a keeping adds) takes each card from a meld the slot
    breaks or from the hand, and the slot breaks its leader and at most one other meld; a final
    meld that no such meld completes lies in no rearrangement of the slot, and leaving its copy
    out loses no play. At a bound of 2 a set or run with cards of three melds is common, and up
    to two fifths of the model goes; the chain length is found sooner on every preset. At larger
    bounds it leaves out little and was slower (docs/EXPERIMENTS.md)."""

    def __init__(self, free: frozenset[int], others: tuple[frozenset[int], ...]) -> None:
        self.free, self.others = free, others
        self.known: dict[frozenset[int], bool] = {}

    def __call__(self, types: frozenset[int]) -> bool:
        need = types - self.free
        found = self.known.get(need)
        if found is None:
            found = self.known[need] = any(need <= other for other in self.others)
        return found


class _Writer:
    """Variables and linear constraints written into a model's proto as text, many at a time.

    As text, a constraint takes about half the time of `model.add` and a variable half that of
    `new_int_var` (docs/EXPERIMENTS.md). The card balances and the candidates' variables are most of
    every model, so they go this way; the proto is the same as `model.add` and `new_int_var` would
    write (checked equal, model by model, on bench/solver.py's corpus).
    """

    def __init__(self, model: _CpModel) -> None:
        self.proto = model.model_proto
        self.parts: list[str] = []
        self.reopen()

    def reopen(self) -> None:
        """Go on after variables were made another way (the writer numbers its own on)."""
        self.next_variable = len(self.proto.variables)

    def variable(self, upper: int) -> int:
        """A new variable from 0 to `upper`: its number."""
        self.parts.append(f"variables{{domain:[0,{upper}]}}")
        self.next_variable += 1
        return self.next_variable - 1

    def variables(self, uppers: Sequence[int]) -> None:
        """New variables, each from 0 to its upper bound, numbered on."""
        self.parts += [f"variables{{domain:[0,{upper}]}}" for upper in uppers]
        self.next_variable += len(uppers)

    def linear(
        self, variables: Sequence[int], weights: Sequence[int], low: int, high: int | None = None
    ) -> None:
        """low <= sum(weight * variable) <= high (high = low unless given); the variables in
        increasing order, none twice."""
        self.parts.append(
            f"constraints{{linear{{vars:[{','.join(map(str, variables))}]"
            f" coeffs:[{','.join(map(str, weights))}] domain:[{low},{low if high is None else high}]}}}}"
        )

    def flush(self) -> None:
        """Write what is pending: before any constraint or variable made another way, to keep
        their order."""
        if self.parts:
            self.proto.merge_text_format("".join(self.parts))
            self.parts = []


_LOWEST = -(2**63)
_HIGHEST = 2**63 - 1
"""The open ends of a linear constraint's domain, as `model.add` writes them."""


def _sorted_terms(pairs: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """(variables, weights) in the order of the variables, as `model.add` lists them."""
    pairs.sort()
    return [var for var, _ in pairs], [weight for _, weight in pairs]


def _number(var: LinearExpr) -> int:
    assert isinstance(var, cp_model.IntVar), "a variable, not an expression"
    return var.index


def _lexicographic(terms: Sequence[tuple[LinearExpr, int]]) -> LinearExpr:
    """One expression that orders like the terms, first term first; each term ranges over at most
    `span` values above its least (its weight is the product of the later spans)."""
    total: LinearExpr = 0
    weight = 1
    for expr, span in reversed(terms):
        total = total + weight * expr
        weight *= span + 1
    return total
