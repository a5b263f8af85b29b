"""Hypothesis strategies for small, valid Machiavelli positions under every preset.

Table melds are built as real sets and runs (long runs that can be cut, sets of four with a free
card, jokers in the joker presets, the same card twice from two decks). Hand cards are mostly drawn
near the table (a set's missing suit, a run's neighbours, a joker's real card) so that the best play
often needs some rearranging; a few are drawn at random.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume
from hypothesis import strategies as st

from puzzles import JOKER, PRESETS, SUITS, Card, Meld, Position, Rules

RULES = st.sampled_from(list(PRESETS.values()))


def card_at(position: int, suit_index: int) -> Card:
    """The card at a run position (14 is the ace above the king)."""
    return Card(1 if position == 14 else position, SUITS[suit_index])


def dealt(rules: Rules, table: list[Meld], hand: list[Card]) -> Position:
    """The position, if the decks could have dealt it: more copies than the decks hold (or more
    jokers than the preset has) cannot occur in a game, and such a draw is rejected."""
    counts = Counter(hand)
    for meld in table:
        counts.update(meld.cards)
    assume(all(n <= rules.copies(card) for card, n in counts.items()))
    return Position(rules, tuple(table), tuple(hand))


@st.composite
def meld_cards(draw: st.DrawFn, rules: Rules, near: int, longest_run: int = 7) -> list[Card]:
    """The cards of a valid set or run within three ranks of `near` (so that the table's melds
    interact), perhaps with one card replaced by a joker."""
    low, high = max(1, near - 3), min(13, near + 3)
    if draw(st.booleans()):
        rank = draw(st.integers(low, high))
        suits = draw(st.permutations(SUITS))
        cards = [Card(rank, suit) for suit in suits[: draw(st.sampled_from([3, 3, 4]))]]
    else:
        length = draw(st.sampled_from([n for n in (3, 3, 4, 5, 6, 7) if n <= longest_run]))
        first = max(1, low - length + 1)
        start = draw(st.integers(first, max(first, min(rules.top_position - length + 1, high))))
        suit = draw(st.integers(0, 3))
        cards = [card_at(p, suit) for p in range(start, start + length)]
    if rules.jokers and draw(st.integers(0, 2)) == 0:
        cards[draw(st.integers(0, len(cards) - 1))] = JOKER
    return cards


@st.composite
def hand_card(draw: st.DrawFn, rules: Rules, table: list[Meld]) -> Card:
    """Most of the time a card that fits next to a table meld or near one; else a joker or any card."""
    choice = draw(st.integers(0, 9))
    if choice == 9 or not table:
        return draw(st.builds(Card, st.integers(1, 13), st.sampled_from(SUITS)))
    if choice == 8 and rules.jokers:
        return JOKER
    meld = draw(st.sampled_from(table))
    stand_ins = [card for options in meld.stand_ins() for card in options]
    if choice == 7 and stand_ins:
        return draw(st.sampled_from(sorted(stand_ins, key=Card.sort_key)))
    if meld.suit is None:  # a set: its rank, a missing suit most of the time
        missing = [suit for suit in SUITS if Card(meld.start, suit) not in meld.cards]
        return Card(meld.start, draw(st.sampled_from(missing if choice < 4 and missing else SUITS)))
    if choice < 4:  # a run: the card before or after it, when there is one
        ends = [p for p in (meld.start - 1, meld.end + 1) if 1 <= p <= rules.top_position]
        if ends:
            return card_at(draw(st.sampled_from(ends)), meld.suit.index)
    # or any card of its suit from two below its start to two above its end
    low, high = max(1, meld.start - 2), min(rules.top_position, meld.end + 2)
    return card_at(draw(st.integers(low, high)), meld.suit.index)


@st.composite
def positions(
    draw: st.DrawFn,
    rules: Rules | None = None,
    max_table_cards: int = 12,
    max_hand: int = 4,
    min_hand: int = 1,
) -> Position:
    """A valid position: up to `max_table_cards` cards in 1 to 5 melds and `min_hand` (1 unless
    told) to `max_hand` hand cards."""
    if rules is None:
        rules = draw(RULES)
    near = draw(st.integers(1, 13))
    table: list[Meld] = []
    total = 0
    for _ in range(draw(st.integers(1, 5))):
        cards = draw(meld_cards(rules, near, longest_run=min(7, max_table_cards - total)))
        if total + len(cards) > max_table_cards:
            break
        table.append(Meld.of(cards, rules))
        total += len(cards)
        if max_table_cards - total < 3:
            break
    size = draw(st.integers(min_hand, max_hand))
    hand = draw(st.lists(hand_card(rules, table), min_size=size, max_size=size))
    return dealt(rules, table, hand)


@st.composite
def laid_cards(draw: st.DrawFn, position: Position) -> tuple[Card, ...]:
    """Some of the hand's cards, as a player may have put them on the table already."""
    picks = draw(st.lists(st.booleans(), min_size=len(position.hand), max_size=len(position.hand)))
    return tuple(card for card, pick in zip(position.hand, picks, strict=True) if pick)


@st.composite
def joker_runs(draw: st.DrawFn, rules: Rules) -> Position:
    """A joker run and other runs of its suit along one stretch of ranks, with hand cards for the
    gaps and the ends: the joker often has to move past a whole run to make room (RULES.md: a joker
    that now stands for another card is still one of its meld's cards)."""
    assert rules.jokers, "a preset with jokers"
    suit = draw(st.integers(0, 3))
    length = draw(st.integers(6, 11))
    start = draw(st.integers(1, rules.top_position - length + 1))
    line = list(range(start, start + length))
    # cut the stretch into runs of 3 or more, with single gaps between some of them
    runs: list[list[int]] = []
    gaps: list[int] = []
    rest = line
    while len(rest) >= 3:
        size = draw(st.integers(3, min(5, len(rest))))
        runs.append(rest[:size])
        rest = rest[size:]
        if rest and draw(st.booleans()):
            gaps.append(rest[0])
            rest = rest[1:]
    gaps += rest
    joker_run = draw(st.integers(0, len(runs) - 1))
    table: list[Meld] = []
    hand = [card_at(p, suit) for p in gaps]
    for number, run in enumerate(runs):
        cards = [card_at(p, suit) for p in run]
        if number == joker_run:
            hole = draw(st.integers(0, len(cards) - 1))
            hand.append(cards[hole])  # the card the joker stands for, to free it with
            cards[hole] = JOKER
        table.append(Meld.of(cards, rules))
    for end in (start - 1, start + length):
        if 1 <= end <= rules.top_position and draw(st.booleans()):
            hand.append(card_at(end, suit))
    hand = draw(st.lists(st.sampled_from(sorted(set(hand), key=Card.sort_key)), min_size=1, max_size=4))
    if len(table) < 2 and draw(st.booleans()):
        table.append(Meld.of(draw(meld_cards(rules, start)), rules))
    assume(sum(len(meld.cards) for meld in table) <= 13)
    return dealt(rules, table, hand)


@st.composite
def two_spots(draw: st.DrawFn, rules: Rules) -> Position:
    """Two small positions side by side, one about the low ranks and one about the high: a table
    where two rearrangements may not touch each other, so the chain length can be below the depth
    (or where a card of one spot completes the other after all)."""
    low = draw(spot(rules, draw(st.integers(2, 4))))
    high = draw(spot(rules, draw(st.integers(9, 12))))
    table, hand = [*low[0], *high[0]], [*low[1], *high[1]]
    return dealt(rules, table, hand)


@st.composite
def spot(draw: st.DrawFn, rules: Rules, near: int) -> tuple[list[Meld], list[Card]]:
    """One or two melds about a rank, and one or two hand cards that fit near them; or a run whose
    end card the hand needs."""
    if draw(st.booleans()):
        return draw(end_card_spot(rules, near))
    table = [
        Meld.of(draw(meld_cards(rules, near, longest_run=4)), rules) for _ in range(draw(st.integers(1, 2)))
    ]
    hand = draw(st.lists(hand_card(rules, table), min_size=1, max_size=2))
    return table, hand


@st.composite
def end_card_spot(draw: st.DrawFn, rules: Rules, near: int) -> tuple[list[Meld], list[Card]]:
    """A run of four (perhaps with a joker inside) and two hand cards of one end's rank: the end
    card, taken off the run, makes a set with them, a rearrangement of one meld."""
    suits = draw(st.permutations(range(4)))
    low = min(max(1, near - 2), rules.top_position - 3)
    run = [card_at(p, suits[0]) for p in range(low, low + 4)]
    end = draw(st.sampled_from([low, low + 3]))
    if rules.jokers and draw(st.booleans()):
        run[draw(st.sampled_from([1, 2]))] = JOKER
    return [Meld.of(run, rules)], [card_at(end, suits[1]), card_at(end, suits[2])]


@st.composite
def blocks(draw: st.DrawFn, rules: Rules) -> Position:
    """A block of two to four sets on consecutive ranks (often read the other way, by suit), maybe
    a run beside it, and one to four hand cards on or next to the block's ranks: positions that
    take decisions, not only forced moves."""
    low = draw(st.integers(1, 10))
    ranks = range(low, low + draw(st.integers(2, 4)))
    table: list[Meld] = []
    for rank in ranks:
        if rank > 13:
            break
        suits = draw(st.permutations(SUITS))[: draw(st.sampled_from([3, 3, 4]))]
        table.append(Meld.of([Card(rank, suit) for suit in suits], rules))
    if draw(st.booleans()):
        suit = draw(st.integers(0, 3))
        start = draw(st.integers(max(1, low - 3), min(rules.top_position - 2, low + 3)))
        table.append(Meld.of([card_at(p, suit) for p in range(start, start + 3)], rules))
    near = st.builds(Card, st.integers(max(1, low - 1), min(13, low + len(ranks))), st.sampled_from(SUITS))
    hand = draw(st.lists(near, min_size=1, max_size=4))
    return dealt(rules, table, hand)
