"""Steps a person can follow from the table at the start of a turn to a play's final table.

Plain combinatorics, no solver. The plan keeps as many original melds whole as it can (so its
"break" steps are the melds the play breaks, its chain depth), builds each final meld where the
original meld that already holds most of its cards lies (not on one of the other kind that keeps a
single card of it, where starting a new meld holds no more melds invalid at once), and moves every
other card once. It
orders the moves as a person makes them: from the hand along the chain, with as few melds invalid
at once as it finds (`most_invalid` counts them). For `classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D`
and the play `6H 6D 6C / 3C 4C 5C / 7C 8C 9C`:

    lay 6♥ 6♦ from the hand as a new meld 2
    break meld 1 (3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣)
    move 6♣ from meld 1 to meld 2
    move 7♣ 8♣ 9♣ from meld 1 to a new meld 3

Melds are numbered as the steps go: the original melds keep their numbers for the whole plan (an
emptied meld keeps its number, empty), and each new meld takes the next number.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from puzzles._cards import Card, sorted_cards
from puzzles._melds import Meld, MeldError, MeldKind, meld_problem, table_order
from puzzles._plays import Play
from puzzles._position import Position
from puzzles._rules import Rules

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


def plan_steps(
    position: Position,
    play: Play,
    broken: Collection[int] = (),
    *,
    meld_by_meld: bool = False,
    turned_new: bool = True,
) -> tuple[Step, ...]:
    """The steps from the position's table to the play's final table, in an order to follow.

    `broken`: the melds an answer says the play breaks (`Depth.broken`). Where the play could keep
    as many melds another way (two jokers, or two copies of a card, in different melds), the plan
    breaks these, so that the steps name the melds the answer names.

    `meld_by_meld`: the same moves in the order the plan used before it followed the chain, meld by
    meld with the hand last, to compare with (bench/steps.py).

    `turned_new`: a final meld of the other kind than the original meld it would be built on, which
    keeps one card of it (a set turned into a run: "lay 4♦ 5♦ on meld 4 (6♠ 6♥ 6♦)"), starts as a
    new meld instead where that holds no more melds invalid at once. False: the plan as it was
    before, which the generator's themes and shapes read, so that published puzzles keep theirs."""
    start = [meld.cards for meld in position.table]
    final = [meld.cards for meld in play.table]
    return steps_between(
        start, final, position.rules, broken, meld_by_meld=meld_by_meld, turned_new=turned_new
    )


def steps_between(
    start: Sequence[Sequence[Card]],
    final: Sequence[Sequence[Card]],
    rules: Rules,
    broken: Collection[int] = (),
    *,
    meld_by_meld: bool = False,
    turned_new: bool = True,
) -> tuple[Step, ...]:
    """The steps from any table (melds as card lists, valid or not, as on a board mid-turn) to a
    final one. Cards the final table has beyond `start` come from the hand; cards `start` has
    beyond the final table go back to the hand. `broken`, `meld_by_meld` and `turned_new` as for
    `plan_steps`; the rules tell which melds are valid on the way. With `turned_new`, a final run
    that holds start melds as they lie is laid apart first (`lay_apart`): the steps never join runs
    that the play does not need joined."""
    if turned_new:
        final = lay_apart(start, final, rules)
    planner = _Planner([tuple(meld) for meld in start], [tuple(meld) for meld in final], rules, broken)
    return planner.steps(meld_by_meld, turned_new)


def lay_apart(
    start: Sequence[Sequence[Card]], final: Sequence[Sequence[Card]], rules: Rules
) -> tuple[tuple[Card, ...], ...]:
    """The final table with each long run cut where that leaves start melds lying as they lay.

    The solver lays runs that continue one another as one run (`join_runs`), so a maximal play may
    show 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ where the table had 5♣ 6♣ 7♣ 8♣ and 9♣ 10♣ J♣ and the play touches
    neither: a person leaves them lying. A run is cut into valid runs that match as many start melds
    (card for card, in order) as can be, with as few cuts as that takes; a run that matches none
    stays whole. Each start meld is matched once. The cards, and so the play, stay the same."""
    lying = Counter(
        Meld.of(meld, rules).cards for meld in start if meld and meld_problem(meld, rules) is None
    )
    table: list[tuple[Card, ...]] = []
    for meld in final:
        cards = tuple(meld)
        pieces = _pieces(cards, lying, rules) if len(cards) >= 6 else None
        if pieces is None:
            table.append(cards)
            continue
        for piece in pieces:
            lying[piece] -= lying[piece] > 0
        table.extend(pieces)
    return tuple(table)


def lay_play_apart(position: Position, play: Play) -> Play:
    """The play with its table laid apart (`lay_apart`) against the position's table."""
    final = lay_apart(
        [meld.cards for meld in position.table], [meld.cards for meld in play.table], position.rules
    )
    if len(final) == len(play.table):
        return play
    table = tuple(sorted((Meld.of(cards, position.rules) for cards in final), key=table_order))
    return Play(table, play.laid, play.freed)


def _pieces(
    run: tuple[Card, ...], lying: Counter[tuple[Card, ...]], rules: Rules
) -> list[tuple[Card, ...]] | None:
    """The run cut into valid runs matching the most start melds still lying (`lying`), then in the
    fewest pieces; None where no cut matches one, or the run is not a run (or matches one whole)."""
    try:
        meld = Meld.of(run, rules)
    except MeldError:
        return None
    if meld.kind is not MeldKind.RUN or lying[meld.cards] > 0:
        return None
    cards = meld.cards
    n = len(cards)
    # never cut inside a start meld that lies whole in the run (one extended, say): it stays kept
    at = {card: i for i, card in enumerate(cards)}
    inside = {
        cut
        for whole in lying
        if all(card in at for card in whole) and len(set(whole)) == len(whole)
        for cut in range(min(at[c] for c in whole) + 1, max(at[c] for c in whole) + 1)
    }
    # best[i]: (start melds matched, -pieces) of the best cut of the first i cards, and its last cut
    best: list[tuple[tuple[int, int], int] | None] = [None] * (n + 1)
    best[0] = ((0, 0), 0)
    for end in range(3, n + 1):
        for begin in range(0, end - 2):
            before = best[begin]
            piece = cards[begin:end]
            if before is None or begin in inside or meld_problem(piece, rules) is not None:
                continue
            (matched, fewer), _cut = before
            score = (matched + (lying[piece] > 0), fewer - 1)
            if best[end] is None or score > best[end][0]:  # type: ignore[index]
                best[end] = (score, begin)
    last = best[n]
    if last is None or last[0][0] == 0:
        return None
    pieces: list[tuple[Card, ...]] = []
    end = n
    while end:
        entry = best[end]
        assert entry is not None
        pieces.append(cards[entry[1] : end])
        end = entry[1]
    return pieces[::-1]


def most_invalid(start: Sequence[Sequence[Card]], steps: Sequence[Step], rules: Rules) -> int:
    """The most melds invalid at once as the steps are followed from `start` (that table too): how
    much a person must hold in mind. An emptied meld is no meld."""
    table = apply_steps(start, ())
    most = _invalid_count(table, rules)
    for step in steps:
        table = apply_steps(table, [step])
        most = max(most, _invalid_count(table, rules))
    return most


def _invalid_count(table: Sequence[Sequence[Card]], rules: Rules) -> int:
    return sum(1 for meld in table if meld and meld_problem(meld, rules) is not None)


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


_ORDER_SEARCH_NODES = 200
"""Orders of the moves tried past the first; a puzzle's plan finds its best well within."""

_HAND = -1
"""A source or destination that is the hand, in the planner's flows."""


class _Planner:
    """Decides where each start card ends, then writes the moves as steps."""

    def __init__(
        self,
        start: list[tuple[Card, ...]],
        final: list[tuple[Card, ...]],
        rules: Rules,
        broken: Collection[int],
    ) -> None:
        self.layout = start
        self.rules = rules
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

    def steps(self, meld_by_meld: bool, turned_new: bool = True) -> tuple[Step, ...]:
        kept = self._keep_most()
        left = [+Counter(meld) for meld in self.demand]
        for meld, destination in kept.items():
            left[destination].subtract(self.start[meld])
        base = self._bases(kept, left)
        # a set that becomes a run (or a run a set) where one card of it stays reads as "lay 4♦ 5♦
        # on 6♠ 6♥ 6♦": such a meld starts as a new one instead, unless that holds more melds
        # invalid at once; the order meld by meld then writes the same moves
        if turned_new and any(self._turns(i, k, left) for k, i in base.items()):
            turned = [
                (i, k)
                for i in range(len(self.start))
                for k in range(len(self.final))
                if i not in kept and self._turns(i, k, left)
            ]
            apart = self._bases(kept, left, turned)
            on_them = self._built_on(base, kept, left, meld_by_meld=False)
            started = self._built_on(apart, kept, left, meld_by_meld=False)
            if most_invalid(self.layout, started, self.rules) <= most_invalid(
                self.layout, on_them, self.rules
            ):
                base = apart
        return self._built_on(base, kept, left, meld_by_meld)

    def _turns(self, meld: int, final: int, left: list[Counter[Card]]) -> bool:
        """Whether the final meld built on this valid start meld keeps only one of its cards and is of
        the other kind."""
        stays = self.start[meld] & left[final]
        return (
            sum(stays.values()) == 1
            and not _same_kind(self.start[meld], self.demand[final])
            # a meld as it lies on the table, not one left incomplete mid-turn (a hint's board)
            and meld_problem(self.layout[meld], self.rules) is None
        )

    def _built_on(
        self, base: dict[int, int], kept: dict[int, int], left: list[Counter[Card]], meld_by_meld: bool
    ) -> tuple[Step, ...]:
        """The steps when each final meld is built on the start meld `base` names (or is new)."""
        self.flows = {}
        left = [Counter(cards) for cards in left]
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
        return self._write(base, meld_by_meld)

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

    def _bases(
        self, kept: dict[int, int], left: list[Counter[Card]], apart: Collection[tuple[int, int]] = ()
    ) -> dict[int, int]:
        """For each final meld, the start meld it is built on (the one with most cards in it already),
        never a pair (start meld, final meld) named `apart`.

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
                if stays and (i, k) not in apart:
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

    def _write(self, base: dict[int, int], meld_by_meld: bool) -> tuple[Step, ...]:
        number: dict[int, int] = dict(base)
        count = len(self.start)
        # a unit is one flow that moves cards: not a final meld's cards staying on its base meld, nor
        # a hand joker that the play lays while freeing another (it stays in the hand)
        units = [
            (source, k, cards)
            for (source, k), cards in sorted(
                self.flows.items(), key=lambda item: _meld_by_meld(item[0], base)
            )
            if not source == k == _HAND and (k == _HAND or base.get(k) != source)
        ]
        leaves = Counter(source for source, _k in self.flows if source != _HAND)
        broken = {source for source, n in leaves.items() if n > 1}
        steps: list[Step] = []

        def to_target(k: int) -> tuple[int, bool]:
            nonlocal count
            if k in number:
                return number[k], False
            number[k] = count
            count += 1
            return number[k], True

        order = range(len(units)) if meld_by_meld else _Order(self.layout, units, base, self.rules).best()
        for unit in order:
            source, k, moved = units[unit]
            if source in broken:
                broken.discard(source)
                steps.append(Step(StepKind.BREAK, self.layout[source], source, None))
            if k == _HAND:
                steps.append(Step(StepKind.TAKE, sorted_cards(moved.elements()), source, None))
                continue
            target, new = to_target(k)
            kind = StepKind.LAY if source == _HAND else StepKind.MOVE
            steps.append(
                Step(kind, self._ordered(moved, k), None if source == _HAND else source, target, new)
            )
        return tuple(steps)

    def _ordered(self, cards: Counter[Card], final: int) -> tuple[Card, ...]:
        """The cards in the order their final meld lays them out."""
        layout = self.final[final]
        place = {card: i for i, card in reversed(list(enumerate(layout)))}
        return tuple(sorted(cards.elements(), key=lambda card: (place[card], card.sort_key())))


def _meld_by_meld(flow: tuple[int, int], base: dict[int, int]) -> tuple[int, int, int, int]:
    """Meld by meld, the hand last; from one source, to the melds built on original melds first by
    number, then to new melds in final order, to the hand last."""
    source, k = flow
    first = (source == _HAND, source)
    if k == _HAND:
        return (*first, 2, 0)
    return (*first, 0, base[k]) if k in base else (*first, 1, k)


class _Order:
    """The order of a plan's moves that a person follows: as few melds invalid at once as the
    search finds, and of such orders the first in the order a person tries moves in. A person lays
    a hand card that starts an idea while the table is whole, then keeps going along the chain it
    starts: a move out of or into a meld left invalid, the one touched last first.

    A depth-first search over the order of the moves, best first, bounded by the fewest invalid
    melds at once found so far; a set of moves made is looked at again only with a lower peak,
    since the table it leaves is the same whatever their order."""

    def __init__(
        self,
        layout: Sequence[tuple[Card, ...]],
        units: Sequence[tuple[int, int, Counter[Card]]],
        base: dict[int, int],
        rules: Rules,
    ) -> None:
        self.rules = rules
        # cards as small numbers and melds as sorted tuples of them: the search hashes melds often
        self.cards = sorted_cards(
            {card for meld in layout for card in meld} | {c for *_, cs in units for c in cs}
        )
        number = {card: i for i, card in enumerate(self.cards)}
        first_new = len(layout)
        slot = {k: base.get(k, first_new + k) for _source, k, _cards in units if k != _HAND}
        self.units = [
            (
                None if source == _HAND else source,
                None if k == _HAND else slot[k],
                tuple(sorted(number[card] for card in cards.elements())),
            )
            for source, k, cards in units
        ]
        self.table: dict[int, tuple[int, ...]] = {
            i: tuple(sorted(number[card] for card in meld)) for i, meld in enumerate(layout)
        }
        for _source, target, _cards in self.units:
            if target is not None:
                self.table.setdefault(target, ())
        self.problems: dict[tuple[int, ...], bool] = {(): False}
        self.bad = frozenset(i for i, meld in self.table.items() if self._invalid(meld))
        self.found: list[int] | None = None
        self.peak = 0
        self.seen: dict[int, int] = {}
        self.nodes = 0

    def best(self) -> list[int]:
        """The units' indices in the order to write them: never more melds invalid at once than
        meld by meld (the units' own order), which is kept when the search finds no other."""
        self.peak = self._peak(range(len(self.units))) + 1
        self._search(0, [], len(self.bad), ())
        return list(range(len(self.units))) if self.found is None else self.found

    def _peak(self, order: Iterable[int]) -> int:
        """The most melds invalid at once along the units in this order; the table ends as it began."""
        undo = []
        peak = len(self.bad)
        for i in order:
            undo.append(self._move(self.units[i]))
            peak = max(peak, len(self.bad))
        for saved in reversed(undo):
            self._restore(saved)
        return peak

    def _search(self, done: int, path: list[int], peak: int, last: tuple[int | None, ...]) -> None:
        if len(path) == len(self.units):
            if peak < self.peak:
                self.found, self.peak = list(path), peak
            return
        if peak >= self.peak or self.seen.get(done, self.peak) <= peak:
            return
        self.seen[done] = peak
        self.nodes += 1
        if self.nodes > _ORDER_SEARCH_NODES:
            return
        options = [self._rank(i, unit, last) for i, unit in enumerate(self.units) if not done >> i & 1]
        for _key, after, i in sorted(options):
            source, target, _cards = unit = self.units[i]
            saved = self._move(unit)
            path.append(i)
            self._search(done | 1 << i, path, max(peak, after), (source, target))
            path.pop()
            self._restore(saved)

    def _rank(
        self, i: int, unit: tuple[int | None, int | None, tuple[int, ...]], last: tuple[int | None, ...]
    ) -> tuple[tuple[int, ...], int, int]:
        """How early a person would try this move now, the melds invalid after it, and its index:
        with a meld invalid, a move along the chain (out of or into an invalid meld, the one touched
        last first); with the table whole, a card from the hand; of those, the fewest melds invalid."""
        source, target, _cards = unit
        before = self.bad
        saved = self._move(unit)
        after = len(self.bad)
        self._restore(saved)
        recent = source in last or target in last
        lay = source is None
        if before:
            along = source in before or target in before
            return (not along, after, not recent, not lay, i), after, i
        return (not lay, after, i), after, i

    def _move(
        self, unit: tuple[int | None, int | None, tuple[int, ...]]
    ) -> tuple[frozenset[int], tuple[tuple[int, tuple[int, ...]], ...]]:
        """Make the move; what `_restore` needs to take it back."""
        source, target, cards = unit
        saved = tuple((slot, self.table[slot]) for slot in (source, target) if slot is not None)
        bad = set(self.bad)
        if source is not None:
            left = list(self.table[source])
            for card in cards:
                left.remove(card)
            self.table[source] = tuple(left)
        if target is not None:
            self.table[target] = tuple(sorted(self.table[target] + cards))
        for slot, _meld in saved:
            if self._invalid(self.table[slot]):
                bad.add(slot)
            else:
                bad.discard(slot)
        previous, self.bad = self.bad, frozenset(bad)
        return previous, saved

    def _restore(self, saved: tuple[frozenset[int], tuple[tuple[int, tuple[int, ...]], ...]]) -> None:
        self.bad, melds = saved
        for slot, meld in melds:
            self.table[slot] = meld

    def _invalid(self, meld: tuple[int, ...]) -> bool:
        """A meld holding cards that is not a valid meld (an empty one is no meld)."""
        known = self.problems.get(meld)
        if known is None:
            cards = tuple(self.cards[i] for i in meld)
            known = self.problems[meld] = meld_problem(cards, self.rules) is not None
        return known


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
