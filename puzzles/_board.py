"""A turn in progress: the table as the player has rearranged it so far, and the moves that change it.

Every card on the board has an id that stays with it
for the whole turn, `t0`, `t1`, ... for the table's cards and `h0`, `h1`, ... for the hand's, because a
two-deck game holds two of each card and the page must say which one moves.

In the glossary's words (docs/ARCHITECTURE.md): the hand cards on the table are *laid*; a table
joker sent back to the hand (`german-jokers`) is *freed*; the hand is down by the cards *placed*,
laid less freed.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from puzzles._cards import Card
from puzzles._melds import Meld, MeldError, meld_problem
from puzzles._plays import Play, play_of, play_problems
from puzzles._position import Position
from puzzles._problems import PresetName, Problem, ProblemCode
from puzzles._rules import FreedJoker, Rules
from puzzles._words import Words, words

NEW_MELD = "new"
HAND = "hand"


class MoveError(ValueError):
    """A move the rules or the board do not allow; `words` says why."""

    def __init__(self, why: Words) -> None:
        super().__init__(str(why))
        self.words = why


class MeldState(enum.Enum):
    VALID = "valid"
    INCOMPLETE = "incomplete"
    INVALID = "invalid"


@dataclass(frozen=True, slots=True)
class MeldView:
    """One meld of the board as the page shows it: its cards in table order and its state."""

    index: int
    card_ids: tuple[str, ...]
    cards: tuple[Card, ...]
    state: MeldState
    reason: Problem | None


@dataclass(frozen=True, slots=True)
class Board:
    """The position of a puzzle and where each of its cards lies now."""

    position: Position
    melds: tuple[tuple[str, ...], ...]
    """The table now, as card ids, meld by meld in the player's order."""

    @classmethod
    def start(cls, position: Position) -> Board:
        """The table as the turn begins."""
        melds, number = [], 0
        for meld in position.table:
            melds.append(tuple(f"t{number + i}" for i in range(len(meld.cards))))
            number += len(meld.cards)
        return cls(position, tuple(melds))

    @classmethod
    def load(cls, position: Position, melds: Any) -> Board:
        """A board stored as a list of lists of card ids, checked against the position."""
        if not isinstance(melds, list) or not all(isinstance(meld, list) for meld in melds):
            raise MoveError(words("a board is a list of melds"))
        board = cls(position, tuple(tuple(str(card_id) for card_id in meld) for meld in melds))
        every = [card_id for meld in board.melds for card_id in meld]
        cards = board.cards()
        unknown = [card_id for card_id in every if card_id not in cards]
        if unknown or len(set(every)) != len(every) or any(not meld for meld in board.melds):
            raise MoveError(words("the stored board does not match its puzzle"))
        gone = [card_id for card_id in cards if card_id.startswith("t") and card_id not in every]
        if any(not board.may_free(card_id) for card_id in gone):
            raise MoveError(words("the stored board lost a table card"))
        return board

    def cards(self) -> dict[str, Card]:
        """Every card of the puzzle by id: the table's first, then the hand's."""
        table = [card for meld in self.position.table for card in meld.cards]
        ids = {f"t{i}": card for i, card in enumerate(table)}
        return ids | {f"h{i}": card for i, card in enumerate(self.position.hand)}

    def to_json(self) -> list[list[str]]:
        return [list(meld) for meld in self.melds]

    def hand_ids(self) -> tuple[str, ...]:
        """The hand now, in the hand's sorted order, then any joker freed from the table."""
        on_table = {card_id for meld in self.melds for card_id in meld}
        hand = tuple(f"h{i}" for i in range(len(self.position.hand)) if f"h{i}" not in on_table)
        return hand + self.freed()

    def freed(self) -> tuple[str, ...]:
        """The table's jokers now in the hand (only where the rules send a freed joker there)."""
        on_table = {card_id for meld in self.melds for card_id in meld}
        count = sum(len(meld.cards) for meld in self.position.table)
        return tuple(f"t{i}" for i in range(count) if f"t{i}" not in on_table)

    @property
    def jokers_to_hand(self) -> bool:
        """Whether the rules send a freed joker to the hand (rather than elsewhere on the table)."""
        return self.position.rules.freed_joker is FreedJoker.HAND

    def may_free(self, card_id: str) -> bool:
        """Whether this table card may go to the hand: a joker, where a freed joker goes there.
        Whether its real card took its place is for the end of the turn to say, as at the table."""
        card = self.cards().get(card_id)
        return card is not None and card.is_joker and self.jokers_to_hand

    def laid(self) -> tuple[Card, ...]:
        """The hand cards on the table now."""
        cards = self.cards()
        return tuple(cards[card_id] for meld in self.melds for card_id in meld if card_id.startswith("h"))

    def play(self) -> Play | None:
        """The play this table makes if the turn ends now, once every meld is valid (None before):
        its `count` is how many cards the hand is down by, a freed joker cancelling one card laid.
        Whether it is a legal play is for `problems` to say."""
        cards = self.cards()
        rules = self.position.rules
        melds = [_judged(tuple(cards[card_id] for card_id in meld), rules)[2] for meld in self.melds]
        if any(meld is None for meld in melds):
            return None
        return play_of(self.position, (meld for meld in melds if meld is not None))

    def move(self, card_id: str, target: str, seen_at: str | None = None) -> Board:
        """Move one card onto meld `target` (its index), onto a new meld, or back to the hand.

        `seen_at` is where the page showed the card (a meld index or `hand`); a page out of date
        gets an error rather than a move it did not mean.
        """
        cards = self.cards()
        if card_id not in cards:
            raise MoveError(words("there is no card %(id)s in this puzzle", id=repr(card_id[:20])))
        card = cards[card_id]
        source = self._source(card_id, card, seen_at)
        melds = [list(meld) for meld in self.melds]
        if target == HAND:
            if source is None:
                raise MoveError(words("%(card)s is already in the hand", card=card))
            self._check_to_hand(card_id, card)
            melds[source].remove(card_id)
        elif target == NEW_MELD:
            if source is not None:
                melds[source].remove(card_id)
            melds.append([card_id])
        else:
            index = _meld_index(target, len(melds))
            if index == source:
                raise MoveError(words("%(card)s is already in meld %(number)s", card=card, number=index + 1))
            if source is not None:
                melds[source].remove(card_id)
            melds[index].append(card_id)
        return Board(self.position, tuple(tuple(meld) for meld in melds if meld))

    def _source(self, card_id: str, card: Card, seen_at: str | None) -> int | None:
        """The index of the meld that holds the card (None for the hand), checked against `seen_at`."""
        source = next((i for i, meld in enumerate(self.melds) if card_id in meld), None)
        where = HAND if source is None else str(source)
        if seen_at is None or seen_at == where:
            return source
        if source is None:
            raise MoveError(
                words(
                    "%(card)s is in the hand now, not where the page showed it: reload the page",
                    card=card,
                )
            )
        raise MoveError(
            words(
                "%(card)s is in meld %(number)s now, not where the page showed it: reload the page",
                card=card,
                number=source + 1,
            )
        )

    def _check_to_hand(self, card_id: str, card: Card) -> None:
        """Refuse to send a table card to the hand, unless it is a joker the rules free there."""
        if not card_id.startswith("t") or self.may_free(card_id):
            return
        if card.is_joker:
            raise MoveError(
                words(
                    "%(card)s belongs to the table: in the %(rules)s rules a freed joker stays on the table",
                    card=card,
                    rules=PresetName(self.position.rules.name),
                )
            )
        raise MoveError(words("%(card)s belongs to the table: no table card may go to the hand", card=card))

    def views(self) -> tuple[MeldView, ...]:
        """Each meld in table order (runs low to high) with whether it is valid, and why not."""
        cards = self.cards()
        rules = self.position.rules
        views = []
        for index, meld in enumerate(self.melds):
            shown = tuple(cards[card_id] for card_id in meld)
            state, reason, valid = _judged(shown, rules)
            if valid is not None:  # in table order: a run low to high
                shown = valid.cards
            views.append(MeldView(index, _in_order(meld, cards, shown), shown, state, reason))
        return tuple(views)

    def problems(self) -> list[Problem]:
        """Why this table cannot end the turn; empty when it can."""
        cards = self.cards()
        table = [[cards[card_id] for card_id in meld] for meld in self.melds]
        problems = play_problems(self.position, table)
        if not self.laid():
            problems.append(Problem(ProblemCode.NOTHING_LAID))
        return problems


def judge(cards: Sequence[Card], rules: Rules) -> tuple[MeldState, Problem | None]:
    """Valid, incomplete (short, but some valid meld holds these cards) or invalid, and why."""
    problem = meld_problem(cards, rules)
    if problem is None:
        return MeldState.VALID, None
    if len(cards) >= 3:
        return MeldState.INVALID, problem
    short = _pair_problem(cards, rules)
    if short is None:
        return MeldState.INCOMPLETE, Problem(ProblemCode.NEEDS_MORE, count=3 - len(cards))
    return MeldState.INVALID, short


def _judged(cards: tuple[Card, ...], rules: Rules) -> tuple[MeldState, Problem | None, Meld | None]:
    """The meld's state, why, and the meld itself when it is valid."""
    try:
        return MeldState.VALID, None, Meld.of(cards, rules)
    except MeldError:
        state, reason = judge(cards, rules)
        return state, reason, None


def _pair_problem(cards: Sequence[Card], rules: Rules) -> Problem | None:
    """Why one or two cards can never grow into a meld, or None when they can."""
    jokers = [card for card in cards if card.is_joker]
    if jokers and not rules.jokers:
        return Problem(ProblemCode.NO_JOKERS, rules=rules.name)
    if len(jokers) > rules.jokers_per_meld:
        return Problem(ProblemCode.JOKERS_IN_MELD, count=len(jokers))
    real = [card for card in cards if not card.is_joker]
    if len(real) < 2:
        return None
    first, second = real
    if first == second:
        return Problem(ProblemCode.TWICE, (first,))
    if first.rank == second.rank or first.suit == second.suit:
        return None
    return Problem(ProblemCode.NO_SHARED, (first, second))


def _in_order(ids: tuple[str, ...], cards: dict[str, Card], arranged: tuple[Card, ...]) -> tuple[str, ...]:
    """The meld's card ids in the order of its cards `arranged`."""
    pending: dict[Card, list[str]] = {}
    for card_id in ids:
        pending.setdefault(cards[card_id], []).append(card_id)
    return tuple(pending[card].pop(0) for card in arranged)


def _meld_index(target: str, count: int) -> int:
    # ASCII digits only: `int("١")` reads an Arabic-Indic 1 that no page writes
    index = int(target) if target.isascii() and target.isdigit() and len(target) <= 4 else None
    if index is None:
        raise MoveError(
            words(
                "%(target)s is not a meld: expected a meld number, 'new' or 'hand'", target=repr(target[:20])
            )
        )
    if index >= count:
        raise MoveError(words("there is no meld %(number)s on the table", number=index + 1))
    return index
