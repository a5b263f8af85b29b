"""A seeded corpus of realistic Machiavelli positions for the solver benchmark.

Two kinds of position, both dealt from the preset's full deck so that no card exceeds its copies:

- `in-progress`: a table laid as in a game under way (sets of 3-4, runs of 3 to 9, second-deck
  duplicates, a joker inside some melds) and a hand drawn from what is left of the deck.
- `rearranged`: a final table is laid first, some of its cards are pulled back into the hand, and
  the rest is re-split at random into a different valid table. The pulled cards can all be placed
  again, but usually only by taking the re-split table apart.

Each position comes from its own `random.Random`, seeded by the corpus seed, the preset and its
number, so `classic-17` is the same position whatever else is generated. No global randomness.

    .venv/bin/python bench/corpus.py --per-preset 300 --dump corpus.jsonl
    .venv/bin/python -m puzzles solve < corpus.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any, NoReturn

from puzzles import (
    JOKER,
    PRESETS,
    SUITS,
    Card,
    Meld,
    MeldError,
    MeldKind,
    Position,
    PositionError,
    Rules,
    Suit,
)

DEFAULT_SEED = 20240601
DEFAULT_PER_PRESET = 300
MAX_TABLE_CARDS = 80
TABLE_MELDS = (2, 25)
HAND_CARDS = (1, 16)
REARRANGED_SHARE = 0.6
"""Share of `rearranged` positions; about two thirds of those turn out to need a meld broken."""
PULLED_CARDS = (1, 6)
SET_SHARE = 0.4
FOUR_CARD_SET_SHARE = 0.35
JOKER_SHARE = 0.3
"""How often a meld is laid with a joker while the deck still holds one (joker presets)."""
RUN_LENGTH_WEIGHTS = {3: 30, 4: 25, 5: 18, 6: 10, 7: 7, 8: 5, 9: 3}
"""Runs as they lie on a table in play: mostly short, now and then long."""
ATTEMPTS = 30
"""Random tries before a deal falls back to a simpler one; every fallback is seeded too."""


@dataclass(frozen=True, slots=True)
class Sample:
    """One position of the corpus, with its name and how it was made."""

    name: str
    """`preset-number`, stable for a given seed."""
    origin: str
    """`in-progress` or `rearranged`."""
    position: Position
    pulled: int
    """Hand cards known to be placeable (the cards pulled off a final table); 0 for in-progress."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.name, **self.position.to_json()}


def corpus(rules: Rules, count: int, seed: int = DEFAULT_SEED) -> list[Sample]:
    """`count` positions under these rules, the same ones for the same seed."""
    return [sample(rules, number, seed) for number in range(count)]


def sample(rules: Rules, number: int, seed: int = DEFAULT_SEED) -> Sample:
    """Position `number` of the corpus for these rules."""
    rng = random.Random(f"{seed}/{rules.name}/{number}")
    name = f"{rules.name}-{number}"
    if rng.random() < REARRANGED_SHARE:
        for _ in range(ATTEMPTS):
            dealt = _rearranged(rng, rules)
            if dealt is not None:
                table, hand, pulled = dealt
                return Sample(name, "rearranged", _checked(rules, table, hand), pulled)
    table, hand = _in_progress(rng, rules)
    return Sample(name, "in-progress", _checked(rules, table, hand), 0)


def _checked(rules: Rules, table: Sequence[Meld], hand: Sequence[Card]) -> Position:
    # Through the public text API, so that every position is one the CLI would accept too.
    try:
        return Position.build(rules, [meld.tokens() for meld in table], [str(card) for card in hand])
    except PositionError as error:  # pragma: no cover - a dealing bug, not bad luck
        raise AssertionError(f"dealt an invalid position: {error}") from None


def _deck(rules: Rules) -> Counter[Card]:
    deck = Counter({Card.from_index(index): rules.decks for index in range(52)})
    if rules.jokers:
        deck[JOKER] = rules.jokers
    return deck


def _in_progress(rng: random.Random, rules: Rules) -> tuple[list[Meld], list[Card]]:
    stock = _deck(rules)
    table = _lay_table(rng, rules, stock, rng.randint(*TABLE_MELDS), MAX_TABLE_CARDS)
    hand = _draw(rng, stock, rng.randint(*HAND_CARDS))
    return table, hand


def _rearranged(rng: random.Random, rules: Rules) -> tuple[list[Meld], list[Card], int] | None:
    stock = _deck(rules)
    hand_size = rng.randint(*HAND_CARDS)
    pulled_count = min(rng.randint(*PULLED_CARDS), hand_size)
    # the final table holds the pulled cards too, and the starting table must keep 2 melds
    final = _lay_table(rng, rules, stock, rng.randint(*TABLE_MELDS), MAX_TABLE_CARDS + pulled_count)
    cards = [card for meld in final for card in meld.cards]
    if len(cards) - pulled_count < 6:
        return None
    for _ in range(ATTEMPTS):
        order = rng.sample(range(len(cards)), len(cards))
        pulled = [cards[i] for i in order[:pulled_count]]
        rest = Counter(cards[i] for i in order[pulled_count:])
        table = _split(rng, rules, rest)
        if table is not None and TABLE_MELDS[0] <= len(table) <= TABLE_MELDS[1]:
            hand = pulled + _draw(rng, stock, hand_size - pulled_count)
            return table, hand, pulled_count
    return None


def _lay_table(
    rng: random.Random, rules: Rules, stock: Counter[Card], melds: int, max_cards: int
) -> list[Meld]:
    """Up to `melds` melds taken from the stock, at most `max_cards` cards in all."""
    table: list[Meld] = []
    laid = 0
    while len(table) < melds:
        # leave room for the melds still to come, three cards each
        room = max_cards - laid - 3 * (melds - len(table) - 1)
        if room < 3:
            break
        meld = _lay_meld(rng, rules, stock, min(room, max(RUN_LENGTH_WEIGHTS)))
        if meld is None:
            break
        table.append(meld)
        laid += len(meld.cards)
    return table


def _lay_meld(rng: random.Random, rules: Rules, stock: Counter[Card], most: int) -> Meld | None:
    for _ in range(ATTEMPTS):
        joker = bool(stock[JOKER]) and rng.random() < JOKER_SHARE
        if rng.random() < SET_SHARE:
            cards = _set_cards(
                rng, stock, 4 if most >= 4 and rng.random() < FOUR_CARD_SET_SHARE else 3, joker
            )
        else:
            lengths = [n for n in RUN_LENGTH_WEIGHTS if n <= most]
            length = rng.choices(lengths, [RUN_LENGTH_WEIGHTS[n] for n in lengths])[0]
            cards = _run_cards(rng, rules, length, joker)
        if cards is None or not _in_stock(cards, stock):
            continue
        try:
            meld = Meld.of(cards, rules)
        except MeldError:  # pragma: no cover - the shapes above are valid by construction
            continue
        stock.subtract(cards)
        return meld
    return None


def _set_cards(rng: random.Random, stock: Counter[Card], size: int, joker: bool) -> list[Card] | None:
    rank = rng.randint(1, 13)
    suits = [suit for suit in SUITS if stock[Card(rank, suit)]]
    real = size - 1 if joker else size
    if len(suits) < real:
        return None
    cards = [Card(rank, suit) for suit in sorted(rng.sample(suits, real), key=SUITS.index)]
    return [*cards, JOKER] if joker else cards


def _run_cards(rng: random.Random, rules: Rules, length: int, joker: bool) -> list[Card]:
    suit = rng.choice(SUITS)
    start = rng.randint(1, rules.top_position - length + 1)
    cards = [_at(position, suit) for position in range(start, start + length)]
    if joker:
        cards[rng.randrange(length)] = JOKER
    return cards


def _at(position: int, suit: Suit) -> Card:
    """The card at a run position, 14 being the ace above the king."""
    return Card(1 if position == 14 else position, suit)


def _in_stock(cards: Sequence[Card], stock: Counter[Card]) -> bool:
    return all(stock[card] >= n for card, n in Counter(cards).items())


def _draw(rng: random.Random, stock: Counter[Card], count: int) -> list[Card]:
    cards = rng.sample(list(stock.elements()), min(count, stock.total()))
    stock.subtract(cards)
    return cards


# -- re-splitting cards into a valid table


@cache
def _shapes(rules: Rules) -> tuple[tuple[tuple[tuple[int, ...], int], ...], ...]:
    """For each card index 0-51, every set and every run of 3 to 5 cards holding it, as card indices
    (52 for a joker) and as a bit mask of them. No shape holds a card twice.

    Longer runs come from joining these afterwards, as the engine's own model does.
    """
    shapes: set[tuple[Card, ...]] = set()
    jokers = rules.jokers_per_meld > 0
    for rank in range(1, 14):
        for size in (3, 4):
            for suits in combinations(SUITS, size):
                shapes.add(tuple(Card(rank, suit) for suit in suits))
            if jokers:
                # the joker stands for any one suit the set lacks
                for suits in combinations(SUITS, size - 1):
                    shapes.add((*(Card(rank, suit) for suit in suits), JOKER))
    for suit in SUITS:
        for length in (3, 4, 5):
            for start in range(1, rules.top_position - length + 2):
                cards = tuple(_at(p, suit) for p in range(start, start + length))
                shapes.add(cards)
                if jokers:
                    for hole in range(length):
                        shapes.add((*cards[:hole], JOKER, *cards[hole + 1 :]))
    by_card: list[list[tuple[tuple[int, ...], int]]] = [[] for _ in range(52)]
    for shape in sorted(tuple(c.index for c in s) for s in shapes):
        # as a bit mask too, to test it against the cards left in one operation
        mask = sum(1 << index for index in shape)
        for index in shape:
            if index != JOKER.index:
                by_card[index].append((shape, mask))
    return tuple(tuple(found) for found in by_card)


def _split(rng: random.Random, rules: Rules, cards: Counter[Card]) -> list[Meld] | None:
    """A random partition of the cards into valid melds, or None when this try got stuck.

    The card with the fewest ways left is covered first, by a random shape; cards no shape can take
    go onto a meld already laid where they fit; adjacent runs are joined now and then.
    """
    shapes = _shapes(rules)
    left = [0] * 53
    for card, count in cards.items():
        left[card.index] += count
    built: list[list[Card]] = []
    while any(left[:52]):
        present = sum(1 << i for i, n in enumerate(left) if n)
        ways = {
            index: [shape for shape, mask in shapes[index] if present & mask == mask]
            for index in range(52)
            if left[index]
        }
        fewest = min(len(found) for found in ways.values())
        index = rng.choice([i for i, found in ways.items() if len(found) == fewest])
        if fewest:
            shape = rng.choice(ways[index])
            built.append([Card.from_index(i) for i in shape])
            for i in shape:
                left[i] -= 1
        elif _attach(rng, rules, built, Card.from_index(index)):
            left[index] -= 1
        else:
            return None
    for _ in range(left[JOKER.index]):
        if not _attach(rng, rules, built, JOKER):
            return None
    melds = [Meld.of(shape, rules) for shape in built]
    melds = _join_some(rng, rules, melds)
    rng.shuffle(melds)
    return melds


def _attach(rng: random.Random, rules: Rules, built: list[list[Card]], card: Card) -> bool:
    """Put a card at either end of a meld already laid, if some meld takes it."""
    options = [
        (i, shape)
        for i, cards in enumerate(built)
        for shape in ([*cards, card], [card, *cards])
        if _valid(shape, rules)
    ]
    if not options:
        return False
    i, shape = rng.choice(options)
    built[i] = shape
    return True


def _valid(cards: Sequence[Card], rules: Rules) -> bool:
    try:
        Meld.of(cards, rules)
    except MeldError:
        return False
    return True


def _join_some(rng: random.Random, rules: Rules, melds: list[Meld]) -> list[Meld]:
    """Join about half of the runs that continue one another, as players lay them out."""
    runs = sorted((m for m in melds if m.kind is MeldKind.RUN), key=lambda m: (str(m.suit), m.start))
    joined: list[Meld] = []
    for run in runs:
        last = joined[-1] if joined else None
        if (
            last is not None
            and last.kind is MeldKind.RUN
            and last.suit == run.suit
            and last.end + 1 == run.start
            and rng.random() < 0.5
            and _valid(last.cards + run.cards, rules)
        ):
            joined[-1] = Meld.of(last.cards + run.cards, rules)
        else:
            joined.append(run)
    return [m for m in melds if m.kind is MeldKind.SET] + joined


def samples(presets: Sequence[str], count: int, seed: int) -> Iterator[Sample]:
    for name in presets:
        yield from corpus(Rules.named(name), count, seed)


def preset_names(text: str) -> list[str]:
    """Preset names from `classic,jokers`, checked; `all` for every preset."""
    if text.strip() == "all":
        return list(PRESETS)
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        Rules.named(name)
    return [Rules.named(name).name for name in names]


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments: one line on stderr and exit status 2, as everywhere in Tavolo."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(description="Deal the seeded benchmark corpus.")
    parser.add_argument("--per-preset", type=int, default=DEFAULT_PER_PRESET, metavar="N")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--presets", default="all", help="comma-separated preset names, or all")
    parser.add_argument(
        "--dump",
        metavar="FILE",
        help="write the corpus as JSON Lines for `python -m puzzles solve` (- for stdout)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        presets = preset_names(args.presets)
    except ValueError as error:
        parser.error(str(error))
    if args.per_preset < 1:
        parser.error("--per-preset must be at least 1")
    dealt = list(samples(presets, args.per_preset, args.seed))
    if args.dump:
        lines = "".join(json.dumps(s.to_json()) + "\n" for s in dealt)
        if args.dump == "-":
            sys.stdout.write(lines)
            return 0
        try:
            with open(args.dump, "w", encoding="utf-8") as out:
                out.write(lines)
        except OSError as error:
            parser.error(f"cannot write {args.dump}: {error.strerror}")
    else:
        for s in dealt:
            print(f"{s.name:<18} {s.origin:<12} {s.position}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
