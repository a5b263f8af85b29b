"""A lower bound on the chain length, proved with the small model of chain depth.

When every best play places the whole hand, each hand card lies in some rearrangement of every
best play (or in a meld or extension of hand cards alone, which breaks nothing). A rearrangement
can be done alone, leaving a valid table, so the card's own rearrangement is a play by itself: it
places the card and breaks no more melds than the rearrangement. Hence, for each hand card, the
fewest melds that any play placing it must break (its *reach*) is at most the chain length, and so
is the largest reach over the hand. Each reach is one small solve of the kept-meld model (the one
chain depth solves, a few hundred variables) under an assumption that the card is placed, where
the slot model that would prove the same bound has thousands and presolves for seconds.

The chain length's countdown (`puzzles._solver.chain_length`) then stops at this bound: a play
found there settles the length without proving anything smaller impossible, and a bound equal to
the first upper bound settles it with no slot model at all.

Measured and not kept, on the slowest real-game tables of bench/solver.py (100 positions of each
preset, the two alternating in one run): a set-partitioning model with one column per connected
group of at most k melds (k = 1, 2), each seeing only its own cards' candidate melds, in place of
the slot model at those k. Its models were two to three times the slot model's size (one copy of
the candidates per group, not per leader) and its proofs no faster: full analysis p95 2,740 ms
against 2,276, proven within 2 s 90.2% against 92.4%. The slot model's proofs at k = 1 and 2 took
50-400 ms already; the slow ones are at k >= 3, where the groups are too many to list.
"""

from __future__ import annotations

import time
from collections import Counter

from ortools.sat.python import cp_model

from puzzles._model import SEED, Model, Objective
from puzzles._position import Position

LINEARIZATION = 0


class Reach:
    """The hand cards' reach, asked one bound at a time: whether some hand card needs more than k
    breaks. Build it only when every best play places the whole hand (`applies`)."""

    def __init__(self, position: Position) -> None:
        self.model = Model(position, Objective.CARDS, keep=True)
        self.wanted: dict[int, cp_model.IntVar] = {}
        for index in sorted(Counter(card.index for card in position.hand)):
            placed = self.model.model.new_bool_var("")
            # the card is placed (one copy at least) when its literal is assumed
            self.model.model.add(self.model.placed[index] >= 1).only_enforce_if(placed)
            self.wanted[index] = placed
        self.within: dict[int, int] = {}
        """For each card, the fewest breaks of a play found that places it: its reach is at most that."""

    @staticmethod
    def applies(position: Position, value: int) -> bool:
        """Whether every best play (placing `value` cards) places the whole hand."""
        return bool(position.hand) and value >= len(position.hand)

    def exceeds(self, largest: int, time_limit: float) -> bool:
        """True when proved that some hand card cannot be placed by any play that breaks at most
        `largest` melds: then no best play splits into rearrangements that small. False when
        every card can be, or when the time ran out first."""
        deadline = time.perf_counter() + time_limit
        cp = self.model.model
        bounded = cp.new_bool_var("")
        cp.add(self.model.broken <= largest).only_enforce_if(bounded)
        for index, placed in self.wanted.items():
            if self.within.get(index, largest + 1) <= largest:
                continue  # a play found already places it breaking no more
            cp.clear_assumptions()
            cp.add_assumptions([placed, bounded])
            solver = _solver(deadline - time.perf_counter())
            status = solver.solve(cp)
            if status == cp_model.INFEASIBLE:
                return True
            if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
                return False
            # the play places every card it lays breaking this many: their reach is at most that
            breaks = sum(not solver.boolean_value(kept) for kept in self.model.kept)
            for card, count in self.model.placed.items():
                if solver.value(count) > 0:
                    self.within[card] = min(self.within.get(card, breaks), breaks)
        return False


def _solver(time_limit: float) -> cp_model.CpSolver:
    """One worker, a fixed seed, and the first play found; no LP relaxation, no presolve."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = SEED
    solver.parameters.max_time_in_seconds = max(time_limit, 0.001)
    solver.parameters.catch_sigint_signal = False
    solver.parameters.linearization_level = LINEARIZATION
    solver.parameters.cp_model_presolve = False
    solver.parameters.stop_after_first_solution = True
    return solver
