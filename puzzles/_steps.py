"""Steps a person can follow from the table at the start of a turn to a play's final table.

Plain combinatorics, no solver. The plan keeps as many original melds whole as it can (so its
"break" steps are the melds the play breaks, its chain depth), builds each final meld where the
original meld that already holds most of its cards lies, and moves every other card once. For
`classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D` and the play `6H 6D 6C / 3C 4C 5C / 7C 8C 9C`:

    break meld 1 (3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣)
    move 6♣ from meld 1 to a new meld 2
    move 7♣ 8♣ 9♣ from meld 1 to a new meld 3
    lay 6♥ 6♦ from the hand on meld 2

Melds are numbered as the steps go: the original melds keep their numbers for the whole plan (an
emptied meld keeps its number, empty), and each new meld takes the next number.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from puzzles._cards import Card, sorted_cards
from puzzles._plays import Play
from puzzles._position import Position

_KEEP_SEARCH_NODES = 20_000
"""Enough to find the most melds kept on any real table; a pathological one gets a good plan."""


class StepKind(enum.Enum):
    BREAK = "break"
    """An original meld comes apart: its cards end in more than one meld. Moves no card itself."""
    MOVE = "move"
    """Table cards go from one meld to another (or start a new meld)."""
    LAY = "lay"
    """Hand cards go onto a meld (or start a new meld)."""
    TAKE = "take"
    """Cards go back into the hand: a hand card laid where no best play lays it, or a joker freed by
    its real card (`german-jokers`). The step is the taking; *freed* stays the word for the joker."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a plan: which cards, from where, to where.

    Meld numbers are indices (0-based) into the table as the plan builds it; `str` counts from 1.
    """

    kind: StepKind
    cards: tuple[Card, ...]
    """The cards that move, in the order they sit in their final meld; a broken meld's cards."""
    source: int | None
    """The meld the cards leave (the broken meld for BREAK); None for the hand."""
    target: int | None
    """The meld the cards join; None for the hand (TAKE) and for BREAK."""
    new: bool = False
    """The target is a new meld, started by this step with the number `target`."""

    def __str__(self) -> str:
        cards = " ".join(card.pretty() for card in self.cards)
        if self.kind is StepKind.BREAK:
            return f"break {_meld(self.source)} ({cards})"
        if self.kind is StepKind.TAKE:
            return f"take {cards} from {_meld(self.source)} into the hand"
        if self.kind is StepKind.LAY:
            where = f"as a new {_meld(self.target)}" if self.new else f"on {_meld(self.target)}"
            return f"lay {cards} from the hand {where}"
        where = f"a new {_meld(self.target)}" if self.new else _meld(self.target)
        return f"move {cards} from {_meld(self.source)} to {where}"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "cards": [str(card) for card in self.cards],
            "source": self.source,
            "target": self.target,
            "new": self.new,
            "text": str(self),
        }


def _meld(index: int | None) -> str:
    return "the hand" if index is None else f"meld {index + 1}"


def plan_steps(position: Position, play: Play, broken: Collection[int] = ()) -> tuple[Step, ...]:
    """The steps from the position's table to the play's final table, in an order to follow.

    `broken`: the melds an answer says the play breaks (`Depth.broken`). Where the play could keep
    as many melds another way (two jokers, or two copies of a card, in different melds), the plan
    breaks these, so that the steps name the melds the answer names."""
    return steps_between([meld.cards for meld in position.table], [meld.cards for meld in play.table], broken)


def steps_between(
    start: Sequence[Sequence[Card]], final: Sequence[Sequence[Card]], broken: Collection[int] = ()
) -> tuple[Step, ...]:
    """The steps from any table (melds as card lists, valid or not, as on a board mid-turn) to a
    final one. Cards the final table has beyond `start` come from the hand; cards `start` has
    beyond the final table go back to the hand. `broken` as for `plan_steps`."""
    return _Planner([tuple(meld) for meld in start], [tuple(meld) for meld in final], broken).steps()


def apply_steps(start: Sequence[Sequence[Card]], steps: Sequence[Step]) -> tuple[tuple[Card, ...], ...]:
    """The table after the steps, meld by meld in plan numbering; emptied melds stay, empty.

    Raises ValueError when a step takes a card its source meld does not hold or names a meld the
    table does not have.
    """
    table = [list(meld) for meld in start]
    for number, step in enumerate(steps, start=1):
        if step.kind is StepKind.BREAK:
            continue
        if step.source is not None:
            _take(table, step.source, step.cards, number)
        if step.target is None:
            continue
        if step.new:
            if step.target != len(table):
                raise ValueError(f"step {number}: a new meld must be meld {len(table) + 1}")
            table.append([])
        elif not 0 <= step.target < len(table):
            raise ValueError(f"step {number}: there is no meld {step.target + 1}")
        table[step.target].extend(step.cards)
    return tuple(tuple(meld) for meld in table)


def _take(table: list[list[Card]], source: int, cards: Sequence[Card], number: int) -> None:
    if not 0 <= source < len(table):
        raise ValueError(f"step {number}: there is no meld {source + 1}")
    for card in cards:
        if card not in table[source]:
            raise ValueError(f"step {number}: {card.pretty()} is not in meld {source + 1}")
        table[source].remove(card)


_HAND = -1
"""A source or destination that is the hand, in the planner's flows."""


class _Planner:
    """Decides where each start card ends, then writes the moves as steps."""

    def __init__(
        self, start: list[tuple[Card, ...]], final: list[tuple[Card, ...]], broken: Collection[int]
    ) -> None:
        self.layout = start
        self.broken = frozenset(broken)
        self.start = [Counter(meld) for meld in start]
        self.final = final
        self.demand = [Counter(meld) for meld in final]
        start_total: Counter[Card] = Counter()
        final_total: Counter[Card] = Counter()
        for cards in self.start:
            start_total.update(cards)
        for cards in self.demand:
            final_total.update(cards)
        self.from_hand = final_total - start_total
        self.to_hand = start_total - final_total
        # flows[(start meld or _HAND, final meld or _HAND)]: the cards going that way
        self.flows: dict[tuple[int, int], Counter[Card]] = {}

    def steps(self) -> tuple[Step, ...]:
        kept = self._keep_most()
        left = [+Counter(meld) for meld in self.demand]
        for meld, destination in kept.items():
            left[destination].subtract(self.start[meld])
        base = self._bases(kept, left)
        supply = {meld: Counter(cards) for meld, cards in enumerate(self.start) if meld not in kept}
        for meld, destination in kept.items():
            self._flow(meld, destination, self.start[meld])
        # a final meld built on an original meld keeps as many of its cards in place as can stay
        for destination, meld in base.items():
            if meld in supply:
                stay = supply[meld] & left[destination]
                self._flow(meld, destination, stay)
                supply[meld] -= stay
                left[destination] -= stay
        self._spread(supply, left)
        return self._write(base)

    def _keep_most(self) -> dict[int, int]:
        """The most start melds that can each sit whole in one final meld, and where.

        The search tries to keep the melds not named `broken` first: of equally many, it settles on
        the first it finds."""
        order = sorted(range(len(self.start)), key=lambda i: i in self.broken)
        options = [
            [k for k, meld in enumerate(self.demand) if not cards - meld] if cards else []
            for cards in self.start
        ]
        best: dict[int, int] = {}
        chosen: dict[int, int] = {}
        room = [Counter(meld) for meld in self.demand]
        nodes = 0

        def search(i: int) -> None:
            nonlocal best, nodes
            nodes += 1
            if len(chosen) > len(best):
                best = dict(sorted(chosen.items()))
            still = sum(1 for j in order[i:] if options[j])
            if i == len(options) or len(chosen) + still <= len(best) or nodes > _KEEP_SEARCH_NODES:
                return
            meld = order[i]
            cards = self.start[meld]
            for k in options[meld]:
                if not cards - room[k]:
                    room[k] -= cards
                    chosen[meld] = k
                    search(i + 1)
                    del chosen[meld]
                    room[k] += cards
            search(i + 1)

        search(0)
        return best

    def _bases(self, kept: dict[int, int], left: list[Counter[Card]]) -> dict[int, int]:
        """For each final meld, the start meld it is built on (the one with most cards in it already).

        A maximum-weight matching: a start meld hosts at most one final meld. Ties go to a meld of
        the same kind (a set stays a set), then to the earlier melds.
        """
        rows, columns = len(self.start), len(self.final)
        scale = 2 * (rows + 1)
        weight = [[0] * columns for _ in range(rows)]
        for i, cards in enumerate(self.start):
            for k in range(columns):
                if i in kept:
                    stays = sum(cards.values()) if kept[i] == k else 0
                else:
                    stays = sum((cards & left[k]).values())
                if stays:
                    weight[i][k] = stays * scale + _same_kind(cards, self.demand[k])
        pairs = _max_weight_matching(weight)
        return {k: i for i, k in pairs if weight[i][k] > 0}

    def _spread(self, supply: dict[int, Counter[Card]], left: list[Counter[Card]]) -> None:
        """Send every card not yet placed to a final meld that still lacks it (or to the hand)."""
        sources = [*sorted(supply.items()), (_HAND, Counter(self.from_hand))]
        # freed jokers go back to the hand from the broken melds before the hand's own joker
        sinks = [(_HAND, Counter(self.to_hand)), *enumerate(left)]
        for source, cards in sources:
            for card in sorted_cards(cards.elements()):
                sink, wants = next((k, wants) for k, wants in sinks if wants[card] > 0)
                wants[card] -= 1
                self._flow(source, sink, Counter([card]))

    def _flow(self, source: int, destination: int, cards: Counter[Card]) -> None:
        if +cards:
            self.flows.setdefault((source, destination), Counter()).update(+cards)

    def _write(self, base: dict[int, int]) -> tuple[Step, ...]:
        number: dict[int, int] = {k: i for k, i in base.items()}
        count = len(self.start)
        steps: list[Step] = []

        def moves(source: int) -> list[tuple[int, Counter[Card]]]:
            going = [(k, cards) for (s, k), cards in self.flows.items() if s == source]
            going = [(k, cards) for k, cards in going if k == _HAND or number.get(k) != source]
            return sorted(going, key=lambda pair: order(pair[0]))

        def order(k: int) -> tuple[int, int]:
            # existing melds first by number, then new melds in final order, the hand last
            if k == _HAND:
                return (2, 0)
            return (0, number[k]) if k in number else (1, k)

        def to_target(k: int) -> tuple[int, bool]:
            nonlocal count
            if k in number:
                return number[k], False
            number[k] = count
            count += 1
            return number[k], True

        for source, layout in enumerate(self.layout):
            leaving = moves(source)
            destinations = {k for (s, k) in self.flows if s == source}
            if len(destinations) > 1 and leaving:
                steps.append(Step(StepKind.BREAK, layout, source, None))
            for k, moved in leaving:
                if k == _HAND:
                    steps.append(Step(StepKind.TAKE, sorted_cards(moved.elements()), source, None))
                    continue
                target, new = to_target(k)
                steps.append(Step(StepKind.MOVE, self._ordered(moved, k), source, target, new))
        for k, laid in moves(_HAND):
            if k == _HAND:  # a hand joker that the play lays while freeing another: it stays put
                continue
            target, new = to_target(k)
            steps.append(Step(StepKind.LAY, self._ordered(laid, k), None, target, new))
        return tuple(steps)

    def _ordered(self, cards: Counter[Card], final: int) -> tuple[Card, ...]:
        """The cards in the order their final meld lays them out."""
        layout = self.final[final]
        place = {card: i for i, card in reversed(list(enumerate(layout)))}
        return tuple(sorted(cards.elements(), key=lambda card: (place[card], card.sort_key())))


def _same_kind(start: Counter[Card], final: Counter[Card]) -> int:
    """1 when both are sets or both are runs (as far as their real cards tell), else 0."""

    def is_set(cards: Counter[Card]) -> bool:
        return len({card.rank for card in cards if not card.is_joker}) <= 1

    return int(is_set(start) == is_set(final))


def _max_weight_matching(weight: list[list[int]]) -> list[tuple[int, int]]:
    """Row-column pairs of greatest total weight, each row and column used at most once.

    The Hungarian algorithm (Kuhn-Munkres, O(n³)) on the square matrix padded with zeros.
    """
    rows = len(weight)
    columns = len(weight[0]) if rows else 0
    n = max(rows, columns)
    if n == 0:
        return []
    top = max((w for row in weight for w in row), default=0)
    cost = [[top - (weight[i][j] if i < rows and j < columns else 0) for j in range(n)] for i in range(n)]
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (n + 1)
    match = [0] * (n + 1)  # match[column] = row, 1-based, 0 for none
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        column = 0
        least = [inf] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[column] = True
            i, delta, nxt = match[column], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[i - 1][j - 1] - u[i] - v[j]
                    if reduced < least[j]:
                        least[j], way[j] = reduced, column
                    if least[j] < delta:
                        delta, nxt = least[j], j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    least[j] -= delta
            column = nxt
            if match[column] == 0:
                break
        while column:
            previous = way[column]
            match[column] = match[previous]
            column = previous
    return sorted(
        (match[j] - 1, j - 1) for j in range(1, n + 1) if match[j] and match[j] - 1 < rows and j - 1 < columns
    )
