"""Cards and their text notation."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class CardError(ValueError):
    """A token that is not a card."""


class Suit(enum.Enum):
    """The four suits, in the order the site sorts them."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    # Enum hashes a member by its name in Python; a card hashes its suit, and the solver hashes
    # cards by the million (a tenth of an analysis). A member is its own only instance, so its
    # identity serves, in C. A name's hash is seeded per process anyway: no order may rest on it.
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def index(self) -> int:
        """0 to 3, in the order of the enum."""
        return _SUIT_INDEX[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


SUITS: tuple[Suit, ...] = tuple(Suit)
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_SUIT_LETTERS = {suit: suit.value for suit in SUITS}
_OUTLINE_SYMBOLS = {Suit.SPADES: "♤", Suit.HEARTS: "♡", Suit.DIAMONDS: "♢", Suit.CLUBS: "♧"}
_SUIT_TOKENS: dict[str, Suit] = (
    {s.value: s for s in SUITS}
    | {sym: s for s, sym in _SUIT_SYMBOLS.items()}
    | {sym: s for s, sym in _OUTLINE_SYMBOLS.items()}
)
_PRESENTATION = str.maketrans("", "", "\ufe0e\ufe0f")
"""The variation selectors a phone's emoji keyboard puts after a suit symbol (♠️): invisible, dropped."""

RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
_RANK_TOKENS: dict[str, int] = {name: n for n, name in RANK_NAMES.items()} | {"T": 10}

JOKER_RANK = 0
JOKER_TOKEN = "JK"
_JOKER_TOKENS = {JOKER_TOKEN, "JOKER", "🃏"}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card: a rank from 1 (ace) to 13 (king) and a suit, or the joker.

    >>> Card.parse("10h")
    Card.parse('10H')
    >>> str(Card.parse("T♥"))
    '10H'
    """

    rank: int
    """1 for the ace, 11-13 for J, Q, K; 0 for the joker."""
    suit: Suit | None
    """None for the joker only."""

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank != JOKER_RANK:
                raise CardError(f"rank {self.rank} needs a suit")
        elif not 1 <= self.rank <= 13:
            raise CardError(f"rank {self.rank} is not between 1 and 13")

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read `10H`, `th`, `10♥`, `10♡`, `A♠️` (from an emoji keyboard) or `JK`; raise CardError
        naming the token."""
        if not isinstance(token, str):
            raise CardError(f"{token!r} is not a card: expected a string like '10H'")
        text = token.translate(_PRESENTATION).strip().upper()
        if not text:
            raise CardError("'' is not a card: empty token")
        if text in _JOKER_TOKENS:
            return JOKER
        rank_text, suit_text = text[:-1], text[-1]
        suit = _SUIT_TOKENS.get(suit_text)
        if suit is None:
            shown = suit_text if suit_text.isprintable() else f"U+{ord(suit_text):04X}"
            raise CardError(f"{token!r} is not a card: unknown suit {shown!r}")
        rank = _RANK_TOKENS.get(rank_text)
        if rank is None:
            what = f"unknown rank {rank_text!r}" if rank_text else "missing rank"
            raise CardError(f"{token!r} is not a card: {what}")
        return cls(rank, suit)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def index(self) -> int:
        """0-51 for the real cards (suit-major), 52 for the joker: a compact card type."""
        suit = self.suit
        if suit is None:
            return 52
        return _SUIT_BASE[suit] + self.rank

    @classmethod
    def from_index(cls, index: int) -> Card:
        # cards are values: the 53 types are made once, not again at every model's reading
        return _BY_INDEX[index]

    def sort_key(self) -> tuple[int, int]:
        """Suit then rank, jokers last: the order of a sorted hand."""
        return (4, 0) if self.suit is None else (self.suit.index, self.rank)

    def pretty(self) -> str:
        """`10♥`, or `🃏` for the joker."""
        if self.suit is None:
            return "🃏"
        return RANK_NAMES[self.rank] + self.suit.symbol

    def __str__(self) -> str:
        if self.suit is None:
            return JOKER_TOKEN
        # the letter from a dict: `Suit.value` is a Python descriptor, and tables sort by their text
        return RANK_NAMES[self.rank] + _SUIT_LETTERS[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(JOKER_RANK, None)
_SUIT_BASE = {suit: suit.index * 13 - 1 for suit in SUITS}
"""A suit's first index, less one: the index of a card is its suit's base plus its rank."""
_BY_INDEX: tuple[Card, ...] = (*(Card(i % 13 + 1, SUITS[i // 13]) for i in range(52)), JOKER)


def parse_cards(tokens: Iterable[str] | str) -> tuple[Card, ...]:
    """Cards from a list of tokens or a space- or comma-separated string."""
    if isinstance(tokens, str):
        tokens = tokens.replace(",", " ").split()
    return tuple(Card.parse(token) for token in tokens)


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=Card.sort_key))
