"""rummikub-solver (mjpieters), the closest peer, as a column of the solver benchmark.

Rummikub tiles are Machiavelli cards (colour = suit, number = rank, two or three copies), and its
rules are this project's `classic` and `three-decks` presets: sets of 3-4 different colours, runs of
3+ consecutive numbers of one colour, no wrap, 1 only low. The peer answers the maximum alone (most
tiles placed from the rack), from the table's cards as a pool; it knows no melds, so it has no depth
or chain. Presets with an ace high or jokers limited to one per meld are other games to it: it is
left out there rather than timed on a different question.

It is a bench-only dependency: `pip install -e '.[bench]'` (`make bench` does).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from puzzles import Position, Rules


@dataclass(frozen=True, slots=True)
class PeerAnswer:
    placed: int
    ms: float


class Peer:
    """The peer's solver for one preset (its default MILP backend, as a user installs it)."""

    def __init__(self, ruleset: Any, solver_mode: Any) -> None:
        self._ruleset = ruleset
        self._mode = solver_mode

    @classmethod
    def for_rules(cls, rules: Rules) -> Peer | None:
        """The peer set up for these rules, or None where its game differs or it is not installed."""
        if rules.jokers or rules.ace_high:
            return None
        try:
            from rummikub_solver import RuleSet, SolverMode
        except ImportError:
            return None
        return cls(RuleSet(numbers=13, repeats=rules.decks, colours=4, jokers=0), SolverMode.TILE_COUNT)

    def maximum(self, position: Position) -> PeerAnswer:
        """The most hand cards the peer places, timed from the game state to its answer."""
        started = time.perf_counter()
        state = self._ruleset.new_game()
        state.initial = False  # the opening-meld minimum is no part of Machiavelli
        # tile numbers run colour-major from 1, as Card.index runs suit-major from 0
        state.add_table(*(card.index + 1 for meld in position.table for card in meld.cards))
        state.add_rack(*(card.index + 1 for card in position.hand))
        solution = self._ruleset.solve(state, self._mode)
        placed = len(solution.tiles) if solution is not None else 0
        return PeerAnswer(placed, (time.perf_counter() - started) * 1000)


def installed() -> bool:
    try:
        import rummikub_solver  # noqa: F401
    except ImportError:
        return False
    return True
