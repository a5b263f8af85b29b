"""An analysis in two phases, for a caller that shows the first before the second is done.

The first phase (`settle`) answers maximum, uniqueness and chain depth: one model solved two or
three times, typically tens of milliseconds. The second (`with_chain`) adds the chain length, the
one part that can take long, within a time limit of its own. Together they are `analyse`: the same
solves in the same order, so a position settled and then given its chain gets the answer `analyse`
gives it with the same time for each phase.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from puzzles._model import Model, Objective
from puzzles._plays import Play
from puzzles._position import Position
from puzzles._solver import (
    Analysis,
    Best,
    Chain,
    Depth,
    Uniqueness,
    _in_order,
    _maximum,
    _ms,
    _uniqueness,
    chain_depth,
    chain_length,
)


@dataclass(frozen=True, slots=True)
class Settled:
    """What an analysis knows before its chain length: the maximum, uniqueness and chain depth."""

    position: Position
    best: Best
    uniqueness: Uniqueness
    depth: Depth
    ms: float

    @property
    def proven(self) -> bool:
        return self.best.proven and self.uniqueness.unique is not None and self.depth.proven

    @property
    def chain_known(self) -> bool:
        """Whether the chain length follows without a solve: a depth of 0 or 1 is its own chain
        length, and with no best play found there is none to find."""
        return self.depth.depth is None or self.depth.depth <= 1

    @property
    def shown(self) -> Play:
        """The play an answer shows, as `Analysis.shown`: a best play that breaks the fewest melds."""
        return self._as_analysis().shown

    @property
    def other_play(self) -> Play | None:
        """A best play that leaves another hand than `shown`, as `Analysis.other_play`."""
        return self._as_analysis().other_play

    def told(self, position: Position, order: tuple[int, ...]) -> Settled:
        """Settled for `canonical(position)`, told for `position`: its meld numbers back in its order."""
        depth = _in_order(self._as_analysis(), order).depth
        return replace(self, position=position, depth=depth)

    def _as_analysis(self) -> Analysis:
        # no chain yet: the properties that read an analysis never look at it
        chain = Chain(None, False, (), None, 0.0)
        return Analysis(self.position, self.best, self.uniqueness, self.depth, chain, self.ms)


def settle(position: Position, objective: Objective, time_limit: float) -> Settled:
    """Maximum, uniqueness and chain depth within one time limit, on the melds in the order given
    (`canonical` puts them in the solver's)."""
    started = time.perf_counter()
    deadline = started + time_limit
    model = Model(position, objective)
    best = _maximum(model, time_limit, started)
    unique = _uniqueness(model, best, _left(deadline), time.perf_counter())
    depth = chain_depth(position, best, _left(deadline))
    return Settled(position, best, unique, depth, _ms(started))


def with_chain(settled: Settled, time_limit: float) -> Analysis:
    """The whole analysis: the settled part and the chain length, found within `time_limit`.

    With no time at all (`time_limit <= 0`), nothing is solved: a depth of 0 or 1 is its own chain
    length, and a larger one is an unproven bound on it (its breaks as one rearrangement)."""
    started = time.perf_counter()
    depth = settled.depth
    if time_limit <= 0 and not settled.chain_known:
        chain = Chain(depth.depth, False, (depth.broken,), depth.play, 0.0)
    else:
        chain, depth = chain_length(
            settled.position, settled.best, depth, max(time_limit, 0.001), settled.uniqueness.unique
        )
    ms = round(settled.ms + _ms(started), 2)
    return Analysis(settled.position, settled.best, settled.uniqueness, depth, chain, ms)


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)
