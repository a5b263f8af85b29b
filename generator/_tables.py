"""Tables that look like a game in progress, and other ways to lay the same cards.

Cards are handled here as `Card.index` numbers (0-51, the joker 52) in count vectors, because the
splitting search below runs thousands of times per puzzle.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

from puzzles import Card, Meld, MeldKind, Rules

JOKER_INDEX = 52
CARD_TYPES = 53
SET_SHARE = 0.4
"""About this share of a real table's melds are sets; the rest are runs."""
RUN_LENGTHS = (3, 4, 5, 6, 7, 8, 9)
RUN_WEIGHTS = (34, 24, 16, 10, 7, 5, 4)
"""Short runs are the most common, but long ones build up as a game goes on."""
JOKER_SHARE = 0.3
"""How often a meld takes a joker while jokers are left, under rules that have them."""


def card_at(suit: int, position: int) -> int:
    """The index of the card at a run position (1-14, 14 being the high ace)."""
    return suit * 13 + (0 if position == 14 else position - 1)


def rank_of(index: int) -> int:
    return index % 13 + 1


def suit_of(index: int) -> int:
    return index // 13


def supply(rules: Rules) -> list[int]:
    """How many of each card type the game holds."""
    return [rules.decks] * 52 + [rules.jokers]


def sample_final_table(
    rules: Rules,
    rng: random.Random,
    melds: int,
    blocks: float = 0.0,
    stock: list[int] | None = None,
    set_blocks: float = 0.0,
) -> list[list[int]]:
    """A table of `melds` melds as a game in progress might show: sets, short and long runs, cards
    twice where the decks allow it, jokers under rules that have them.

    With probability `blocks` each step lays a block instead: runs of three or four suits over the
    same ranks, which a player could also have laid as sets (tables grow such blocks as players
    extend each other's melds). With probability `set_blocks` a block is laid as sets instead, one
    for each rank, so that another table lays the same cards as runs.

    Each meld is a list of card indices in table order (a run low to high, a joker in its place).
    """
    stock = supply(rules) if stock is None else stock
    table: list[list[int]] = []
    tries = 0
    while len(table) < melds and tries < melds * 20:
        tries += 1
        if rng.random() < blocks:
            block = _sample_block(rules, rng, stock, melds - len(table))
            if block and set_blocks and rng.random() < set_blocks:
                block = [sorted(column) for column in zip(*block, strict=True)]
            table.extend(block)
            continue
        meld = _sample_set(rules, rng, stock) if rng.random() < SET_SHARE else _sample_run(rules, rng, stock)
        if meld is None:
            continue
        if stock[JOKER_INDEX] and rng.random() < JOKER_SHARE:
            # the joker takes the place of one card, which goes back to the stock
            place = rng.randrange(len(meld))
            stock[meld[place]] += 1
            meld[place] = JOKER_INDEX
            stock[JOKER_INDEX] -= 1
        table.append(meld)
    return table


def _sample_block(rules: Rules, rng: random.Random, stock: list[int], room: int) -> list[list[int]]:
    suits = rng.sample(range(4), min(rng.choice((3, 3, 4)), room))
    length = rng.choice((3, 3, 4, 4, 5, 6))
    start = rng.randrange(1, 13 - length + 2)
    runs = [[card_at(suit, p) for p in range(start, start + length)] for suit in suits]
    runs = [run for run in runs if all(stock[index] for index in run)]
    if len(runs) < 3:
        return []
    for run in runs:
        for index in run:
            stock[index] -= 1
    return runs


@dataclass(frozen=True, slots=True)
class Figure:
    """Melds laid one way on the table that the hand's cards make the player lay another way, all at
    once: a ladder, a staircase or a wall."""

    melds: list[list[int]]
    extras: list[int]
    """The hand cards that need the figure laid the other way."""
    near: list[int]
    """The cards around the figure: the rest of the table leaves them out, so that it offers no
    shortcut."""
    lures: list[int] = field(default_factory=list)
    """Hand cards meant as live decoys that cost a card (`generator._rivals`); none in the figures
    that came before them."""


def sample_ladder(
    rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int
) -> Figure | None:
    """A ladder of `length` ranks: sets of the same three suits, with extra cards at `ends` ends (1
    or 2) that the runs of those suits take, drawn from the stock, or None when the stock lacks the
    cards. Placing one turns the three sets at its end into runs (three breaks); one at each end of a
    long ladder breaks six, unless the rest of the table offers a shortcut."""
    suits = rng.sample(range(4), 3)
    first = rng.randrange(1, 13 - length + 2)
    last = first + length - 1
    sides = [p for p in (first - 1, last + 1) if 1 <= p <= 13]
    if len(sides) < ends:
        return None
    extras = [card_at(rng.choice(suits), p) for p in rng.sample(sides, ends)]
    sets = [sorted(card_at(suit, p) for suit in suits) for p in range(first, last + 1)]
    cards = extras + [index for meld in sets for index in meld]
    if any(not stock[index] for index in cards):
        return None
    for index in cards:
        stock[index] -= 1
    near = [card_at(suit, p) for suit in suits for p in range(max(first - 1, 1), min(last + 1, 13) + 1)]
    return Figure(sets, extras, near)


STAIR_STEP = 0.5
"""How often the suit a staircase's set lacks changes from one rank to the next (it changes after two
ranks in any case, so that no three sets share three suits)."""


def sample_staircase(
    rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int
) -> Figure | None:
    """A staircase of `length` ranks: a set of three suits at each rank, the suit it lacks changing
    as the ranks climb, and hand cards below and above it that turn all of it into runs at once; or
    None when the stock lacks the cards or the draw makes no staircase.

    Each suit's cards make runs of three or more, those at an end of the staircase with the hand's
    cards beyond it (none lies inside, where it would simply join the set of its rank). The sets hang
    together: no rank splits the staircase into two that each turn into runs on their own, so the
    chain length is the number of sets, as with a ladder, but no three sets side by side share three
    suits.
    """
    top = rules.top_position
    first = rng.randrange(3, top - length)
    last = first + length - 1
    missing, same = rng.randrange(4), 0
    covered: dict[int, set[int]] = {suit: set() for suit in range(4)}
    for rank in range(first, last + 1):
        if rank > first and (same >= 2 or rng.random() < STAIR_STEP):
            missing, same = rng.choice([s for s in range(4) if s != missing]), 0
        same += 1
        for suit in range(4):
            if suit != missing:
                covered[suit].add(rank)
    extras: list[tuple[int, int]] = []
    for suit, ranks in covered.items():
        for stretch in _stretches(ranks):
            if len(stretch) >= 3:
                continue
            if first < stretch[0] and stretch[-1] < last:
                return None  # a short run inside the staircase, which no hand card may lengthen
            steps = range(1, 4 - len(stretch))
            for rank in [first - k for k in steps] if stretch[0] == first else [last + k for k in steps]:
                ranks.add(rank)
                extras.append((suit, rank))
    for _ in range(ends):
        sides = [
            (suit, p)
            for suit, ranks in covered.items()
            if ranks
            for p in (min(ranks) - 1, max(ranks) + 1)
            if (p < first or p > last) and 1 <= p <= top
        ]
        if sides:
            suit, side = rng.choice(sides)
            covered[suit].add(side)
            extras.append((suit, side))
    if any(_splits_at(cut, covered) for cut in range(first, last)):
        return None
    sets = [
        sorted(card_at(suit, rank) for suit in range(4) if rank in covered[suit])
        for rank in range(first, last + 1)
    ]
    return _drawn(stock, sets, [card_at(suit, rank) for suit, rank in extras], covered, top)


WALL_FOUR = 0.3
"""How often a wall runs in all four suits rather than three."""


def sample_wall(rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int) -> Figure | None:
    """A wall of `length` runs of three, laid suit by suit end to end like bricks, each suit's joints
    off the others', and hand cards that only a set of their rank can take: the wall must turn into
    sets, every run at once (a run of three gives up no card and stays a run), or None when the stock
    lacks the cards or the draw makes no wall.

    Where a rank shows fewer than three suits, the hand holds cards of the others, of suits that have
    no run ending next to that rank (which would simply take them); `ends` more hand cards go to
    ranks the wall covers with three suits, where they make sets of four.
    """
    top = min(rules.top_position, 13)
    suits = rng.sample(range(4), 4 if rng.random() < WALL_FOUR else 3)
    counts = [length // len(suits) + (k < length % len(suits)) for k in range(len(suits))]
    base = rng.randrange(1, 4)
    offsets = [*rng.sample(range(3), 3), rng.randrange(3)]
    runs = {
        suit: [range(base + offset + 3 * k, base + offset + 3 * k + 3) for k in range(count)]
        for suit, count, offset in zip(suits, counts, offsets, strict=False)
    }
    covered = {suit: {p for run in runs.get(suit, []) for p in run} for suit in range(4)}
    low = min(min(ranks) for ranks in covered.values() if ranks)
    high = max(max(ranks) for ranks in covered.values() if ranks)
    if high > top:
        return None

    def takes(suit: int, rank: int) -> bool:
        """Whether a hand card of this suit and rank could join no run of the wall, only a set."""
        return not {rank - 1, rank, rank + 1} & covered[suit]

    extras: list[tuple[int, int]] = []
    for rank in range(low, high + 1):
        present = [suit for suit in range(4) if rank in covered[suit]]
        if len(present) < 3:
            others = [suit for suit in range(4) if suit not in present and takes(suit, rank)]
            if len(others) < 3 - len(present):
                return None
            extras += [(suit, rank) for suit in rng.sample(others, 3 - len(present))]
    if _in_a_row(extras):
        return None
    inside = [
        (suit, rank)
        for rank in range(low, high + 1)
        for suit in range(4)
        if takes(suit, rank)
        and sum(rank in ranks for ranks in covered.values()) == 3
        and not _in_a_row([*extras, (suit, rank)])
    ]
    extras += rng.sample(inside, min(ends, len(inside)))
    melds = [[card_at(suit, p) for p in run] for suit, suit_runs in runs.items() for run in suit_runs]
    for suit, rank in extras:
        covered[suit].add(rank)
    return _drawn(stock, melds, [card_at(suit, rank) for suit, rank in extras], covered, top)


def sample_junction(
    rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int
) -> Figure | None:
    """A wall (see `sample_wall`) one of whose hand cards lies on the table instead, in a set of four
    of its rank: the wall's set of that rank needs it, so the set of four gives it up while the wall
    turns into sets. The best play breaks the wall's runs and a set (issue 21 asks for plays that
    break sets and runs alike), and which card the set gives is the question."""
    wall = sample_wall(rules, rng, stock, length, ends)
    if wall is None or len(wall.extras) < 2:
        return None
    index = rng.randrange(len(wall.extras))
    given = wall.extras[index]
    four = [card_at(suit, rank_of(given)) for suit in range(4)]
    others = [card for card in four if card != given]
    if not all(stock[card] for card in others):
        return None
    for card in others:
        stock[card] -= 1
    extras = wall.extras[:index] + wall.extras[index + 1 :]
    return Figure([*wall.melds, sorted(four)], extras, wall.near)


def _in_a_row(cards: list[tuple[int, int]]) -> bool:
    """Whether three of these (suit, rank) cards make a run of their own."""
    held = set(cards)
    return any({(suit, rank + 1), (suit, rank + 2)} <= held for suit, rank in cards)


def _drawn(
    stock: list[int], melds: list[list[int]], hand: list[int], covered: dict[int, set[int]], top: int
) -> Figure | None:
    """The figure of these melds and hand cards, drawn from the stock (None when it lacks them), with
    every card from one place below to one above the places it `covered` (by suit) left out of the
    rest of the table."""
    cards = hand + [index for meld in melds for index in meld]
    if any(stock[index] < count for index, count in enumerate(counts_of([cards]))):
        return None
    for index in cards:
        stock[index] -= 1
    places = [p for ranks in covered.values() for p in ranks]
    low, high = max(min(places) - 1, 1), min(max(places) + 1, top)
    return Figure(melds, hand, [card_at(suit, p) for suit in range(4) for p in range(low, high + 1)])


def _stretches(ranks: set[int]) -> list[list[int]]:
    """The runs of consecutive ranks in a set of ranks, lowest first."""
    stretches: list[list[int]] = []
    for rank in sorted(ranks):
        if stretches and stretches[-1][-1] == rank - 1:
            stretches[-1].append(rank)
        else:
            stretches.append([rank])
    return stretches


def _splits_at(cut: int, covered: dict[int, set[int]]) -> bool:
    """Whether every run crossing between ranks `cut` and `cut` + 1 keeps three cards on each side."""
    for ranks in covered.values():
        for run in _stretches(ranks):
            if run[0] <= cut < run[-1] and (cut - run[0] + 1 < 3 or run[-1] - cut < 3):
                return False
    return True


def _sample_set(rules: Rules, rng: random.Random, stock: list[int]) -> list[int] | None:
    rank = rng.randrange(13)
    suits = [s for s in range(4) if stock[s * 13 + rank]]
    size = 4 if rng.random() < 0.3 else 3
    if len(suits) < size:
        return None
    meld = sorted(s * 13 + rank for s in rng.sample(suits, size))
    for index in meld:
        stock[index] -= 1
    return meld


def _sample_run(rules: Rules, rng: random.Random, stock: list[int]) -> list[int] | None:
    suit = rng.randrange(4)
    length = rng.choices(RUN_LENGTHS, RUN_WEIGHTS)[0]
    top = rules.top_position
    start = rng.randrange(1, top - length + 2)
    if start == 1 and start + length - 1 == 14:
        return None
    meld = [card_at(suit, p) for p in range(start, start + length)]
    if any(not stock[index] for index in meld):
        return None
    for index in meld:
        stock[index] -= 1
    return meld


def ladder_length(melds: Sequence[Meld], top_position: int) -> int:
    """The most consecutive ranks whose sets share three suits (0 when no two do), the ace above the
    king when `top_position` is 14: a table with a ladder of 3 or more begs to be turned into runs
    (see `sample_ladder`)."""
    by_rank: dict[int, list[frozenset[int]]] = {}
    for meld in melds:
        if meld.kind is MeldKind.SET:
            suits = frozenset(card.suit.index for card in meld.cards if card.suit is not None)
            by_rank.setdefault(meld.start, []).append(suits)
    best = 0
    for trio in combinations(range(4), 3):
        run = 0
        for rank in range(1, top_position + 1):
            held = any(set(trio) <= suits for suits in by_rank.get(1 if rank == 14 else rank, ()))
            run = run + 1 if held else 0
            best = max(best, run)
    return best if best >= 2 else 0


def counts_of(melds: Sequence[Sequence[int]]) -> list[int]:
    counts = [0] * CARD_TYPES
    for meld in melds:
        for index in meld:
            counts[index] += 1
    return counts


def to_meld(cards: Sequence[int], rules: Rules) -> Meld:
    return Meld.of([Card.from_index(index) for index in cards], rules)


class _Search:
    """A depth-first search for a split of cards into valid melds, with a budget of steps."""

    def __init__(self, rules: Rules, rng: random.Random, avoid: Sequence[Sequence[int]], budget: int) -> None:
        self.rules = rules
        self.rng = rng
        self.budget = budget
        # the melds to avoid that hold each card type (a meld never holds a card type twice)
        self.avoid: list[list[frozenset[int]]] = [[] for _ in range(CARD_TYPES)]
        for meld in avoid:
            cards = frozenset(meld)
            for index in cards:
                self.avoid[index].append(cards)
        self.order = sorted(range(52), key=lambda i: (rank_of(i), suit_of(i)))

    def split(self, counts: list[int]) -> list[list[int]] | None:
        first = next((i for i in self.order if counts[i]), None)
        if first is None:
            # every real card is in a meld; a joker left over has nowhere to go
            return [] if counts[JOKER_INDEX] == 0 else None
        self.budget -= 1
        if self.budget < 0:
            return None
        options = list(melds_with(first, counts, self.rules))
        self.rng.shuffle(options)
        # melds that cut across the melds to avoid come first: the table must be rearranged
        options.sort(key=self._inside)
        for meld in options:
            for index in meld:
                counts[index] -= 1
            rest = self.split(counts) if not self._strands(meld, counts) else None
            for index in meld:
                counts[index] += 1
            if rest is not None:
                return [meld, *rest]
            if self.budget < 0:
                return None
        return None

    def _strands(self, meld: list[int], counts: list[int]) -> bool:
        """Whether taking this meld leaves a neighbouring card that fits in no meld."""
        if counts[JOKER_INDEX] and self.rules.jokers_per_meld:
            return False  # a joker left over can still complete most neighbours
        same_rank, windows = _neighbourhood(self.rules.top_position)
        for index in meld:
            if index == JOKER_INDEX:
                continue
            for near in same_rank[index]:
                if counts[near] and not fits_somewhere(near, counts, self.rules):
                    return True
            for pair in windows[index]:
                for near in pair:
                    if counts[near] and not fits_somewhere(near, counts, self.rules):
                        return True
        return False

    def _inside(self, meld: list[int]) -> bool:
        return any(other.issuperset(meld) for other in self.avoid[meld[0]])


def split_into_melds(
    counts: Sequence[int],
    rules: Rules,
    rng: random.Random,
    avoid: Sequence[Sequence[int]] = (),
    budget: int = 400,
) -> list[list[int]] | None:
    """A random way to lay all these cards as valid melds, or None if none was found in budget.

    Melds that lie inside one of the `avoid` melds are tried last, so the split tends to cut across
    them.
    """
    if any(counts[i] and not fits_somewhere(i, counts, rules) for i in range(52)):
        return None  # a card that fits in no meld at all: no need to search
    search = _Search(rules, rng, avoid, budget)
    return search.split(list(counts))


@cache
def _neighbourhood(top_position: int) -> tuple[list[tuple[int, ...]], list[tuple[tuple[int, int], ...]]]:
    """For each card type, the other cards of its rank, and the pairs that make a run of 3 with it."""
    same_rank = [tuple(s * 13 + rank_of(i) - 1 for s in range(4) if s != suit_of(i)) for i in range(52)]
    windows: list[tuple[tuple[int, int], ...]] = []
    for index in range(52):
        suit = suit_of(index)
        rank = rank_of(index)
        positions = (1, 14) if rank == 1 and top_position == 14 else (rank,)
        pairs = []
        for position in positions:
            for first in range(position - 2, position + 1):
                if first >= 1 and first + 2 <= top_position:
                    a, b = (card_at(suit, p) for p in range(first, first + 3) if p != position)
                    pairs.append((a, b))
        windows.append(tuple(pairs))
    return same_rank, windows


def fits_somewhere(index: int, counts: Sequence[int], rules: Rules) -> bool:
    """Whether some meld of three of these cards could hold this card."""
    same_rank, windows = _neighbourhood(rules.top_position)
    joker = 1 if counts[JOKER_INDEX] and rules.jokers_per_meld else 0
    partners = joker
    for other in same_rank[index]:
        if counts[other]:
            partners += 1
    if partners >= 2:
        return True
    return any((counts[a] and counts[b]) or (joker and (counts[a] or counts[b])) for a, b in windows[index])


def melds_with(index: int, counts: Sequence[int], rules: Rules) -> Iterator[list[int]]:
    """Every meld of the available cards that holds `index` and no real card of a lower rank.

    Each is a list of indices in table order; a joker is used where the rules allow one.
    """
    rank, suit = rank_of(index), suit_of(index)
    jokers = counts[JOKER_INDEX] > 0 and rules.jokers_per_meld > 0
    others = [s * 13 + rank - 1 for s in range(4) if s != suit and counts[s * 13 + rank - 1]]
    for size in (2, 3):
        for pair in combinations(others, size):
            yield sorted([index, *pair])
    if jokers:
        for size in (1, 2):
            for pair in combinations(others, size):
                yield [*sorted([index, *pair]), JOKER_INDEX]
    yield from _runs_from(suit, rank, counts, rules, jokers)
    if rank == 1 and rules.ace_high:
        yield from _runs_to_high_ace(suit, counts, rules, jokers)


def _runs_from(
    suit: int, start: int, counts: Sequence[int], rules: Rules, jokers: bool
) -> Iterator[list[int]]:
    top = 13 if start == 1 else rules.top_position
    # the card at `start` opens the run; one later place may be a joker
    run = [card_at(suit, start)]
    hole = False
    for position in range(start + 1, top + 1):
        index = card_at(suit, position)
        if counts[index]:
            run.append(index)
        elif jokers and not hole:
            run.append(JOKER_INDEX)
            hole = True
        else:
            break
        if len(run) >= 3:
            yield list(run)
    if jokers and start > 1:
        # or a joker just below it opens the run
        run = [JOKER_INDEX, card_at(suit, start)]
        for position in range(start + 1, top + 1):
            index = card_at(suit, position)
            if not counts[index]:
                break
            run.append(index)
            if len(run) >= 3:
                yield list(run)


def _runs_to_high_ace(suit: int, counts: Sequence[int], rules: Rules, jokers: bool) -> Iterator[list[int]]:
    # the ace closes the run at position 14; one earlier place may be a joker
    run = [card_at(suit, 14)]
    hole = False
    for position in range(13, 1, -1):
        index = card_at(suit, position)
        if counts[index]:
            run.insert(0, index)
        elif jokers and not hole:
            run.insert(0, JOKER_INDEX)
            hole = True
        else:
            break
        if len(run) >= 3:
            yield list(run)
