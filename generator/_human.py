"""A human-like solver: it only tries the local moves a player sees at a glance.

The moves: extend a meld with a card, lay a new meld of three cards, free one card from one meld
where the meld stays valid (the end of a run of 4+, a card of a 4-set, the middle of a run of 7+),
and cut a run of 6+ in two. It never takes a meld apart in any other way, so a puzzle whose answer
turns sets into runs is beyond it. The tiers mean something when it solves fewer puzzles as the
chain depth grows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from puzzles import Card, Meld, MeldError, MeldKind, Position, Rules

NODE_BUDGET = 4000
"""States a player might consider before giving up."""
MAX_BREAKS = 4
"""Frees and cuts in one turn: more than a player keeps track of."""

Cards = tuple[int, ...]
"""Cards as `Card.index` numbers: this search hashes millions of them."""


@dataclass(frozen=True, slots=True)
class HumanResult:
    solved: bool
    """Whether the local moves reached a play that places `target` cards."""
    nodes: int
    """States visited."""
    placed: int
    """The most hand cards a legal table it reached holds: partial credit where it did not solve."""


@dataclass(frozen=True, slots=True)
class _State:
    table: tuple[Cards, ...]
    """Melds, each in table order; the melds sorted so equal tables compare equal."""
    hand: Cards
    """Sorted."""
    loose: Cards
    """Table cards freed from their meld and not yet laid again; sorted."""
    placed: int
    breaks: int


@dataclass(frozen=True, slots=True)
class _Meld:
    cards: Cards
    """In table order."""
    is_run: bool


@dataclass(slots=True)
class _Search:
    rules: Rules
    target: int
    budget: int
    max_breaks: int
    nodes: int = 0
    best: int = 0
    seen: set[tuple[tuple[Cards, ...], Cards, Cards]] = field(default_factory=set)
    melds: dict[Cards, _Meld | None] = field(default_factory=dict)

    def meld(self, cards: Cards) -> _Meld | None:
        """The meld these cards make, or None (cached)."""
        key = tuple(sorted(cards))
        if key not in self.melds:
            try:
                meld = Meld.of([Card.from_index(index) for index in key], self.rules)
                self.melds[key] = _Meld(tuple(card.index for card in meld.cards), meld.kind is MeldKind.RUN)
            except MeldError:
                self.melds[key] = None
        return self.melds[key]

    def solve(self, state: _State) -> bool:
        if not state.loose:
            self.best = max(self.best, state.placed)
            if state.placed == self.target:
                return True
        key = (state.table, state.hand, state.loose)
        if key in self.seen or self.nodes >= self.budget:
            return False
        self.seen.add(key)
        self.nodes += 1
        return any(self.solve(after) for after in self.moves(state))

    def moves(self, state: _State) -> Iterator[_State]:
        # loose cards first: they must find a meld again before the turn ends
        for from_hand, cards in ((False, state.loose), (True, state.hand)):
            for card in dict.fromkeys(cards):
                for number, meld in enumerate(state.table):
                    extended = self.meld((*meld, card))
                    if extended is not None:
                        yield _State(
                            _replace(state.table, number, (extended.cards,)),
                            _remove(state.hand, (card,)) if from_hand else state.hand,
                            state.loose if from_hand else _remove(state.loose, (card,)),
                            state.placed + from_hand,
                            state.breaks,
                        )
        pool = tuple(sorted(state.loose + state.hand))
        for trio in dict.fromkeys(combinations(pool, 3)):
            laid = self.meld(trio)
            if laid is not None:
                yield _lay(state, trio, laid.cards)
        if state.breaks >= self.max_breaks:
            return
        for number, meld in enumerate(state.table):
            for pieces, freed in self._frees(meld):
                yield _State(
                    _replace(state.table, number, pieces),
                    state.hand,
                    tuple(sorted((*state.loose, freed))),
                    state.placed,
                    state.breaks + 1,
                )
            if len(meld) >= 6 and self._is_run(meld):
                for cut in range(3, len(meld) - 2):
                    yield _State(
                        _replace(state.table, number, (meld[:cut], meld[cut:])),
                        state.hand,
                        state.loose,
                        state.placed,
                        state.breaks + 1,
                    )

    def _is_run(self, cards: Cards) -> bool:
        meld = self.meld(cards)
        return meld is not None and meld.is_run

    def _frees(self, meld: Cards) -> Iterator[tuple[tuple[Cards, ...], int]]:
        """Ways to take one card out of a meld and leave valid melds."""
        if len(meld) < 4:
            return
        if not self._is_run(meld):
            for i, card in enumerate(meld):
                yield (meld[:i] + meld[i + 1 :],), card
            return
        yield (meld[1:],), meld[0]
        yield (meld[:-1],), meld[-1]
        for i in range(3, len(meld) - 3):
            yield (meld[:i], meld[i + 1 :]), meld[i]


def _replace(table: tuple[Cards, ...], number: int, pieces: tuple[Cards, ...]) -> tuple[Cards, ...]:
    return tuple(sorted((*table[:number], *table[number + 1 :], *pieces)))


def _remove(cards: Cards, gone: Cards) -> Cards:
    left = Counter(cards)
    left.subtract(gone)
    return tuple(sorted(left.elements()))


def _lay(state: _State, cards: Cards, laid: Cards) -> _State:
    from_loose = Counter(cards) & Counter(state.loose)
    from_hand = tuple((Counter(cards) - from_loose).elements())
    return _State(
        tuple(sorted((*state.table, laid))),
        _remove(state.hand, from_hand),
        _remove(state.loose, tuple(from_loose.elements())),
        state.placed + len(from_hand),
        state.breaks,
    )


def human_solves(
    position: Position, target: int, budget: int = NODE_BUDGET, max_breaks: int = MAX_BREAKS
) -> HumanResult:
    """Whether local moves alone reach a play that places `target` hand cards."""
    search = _Search(position.rules, target, budget, max_breaks)
    table = tuple(sorted(tuple(card.index for card in meld.cards) for meld in position.table))
    hand = tuple(sorted(card.index for card in position.hand))
    solved = search.solve(_State(table, hand, (), 0, 0))
    return HumanResult(solved, search.nodes, search.best)
