"""A position as a player types it on the analyser page: every problem found, each naming its token.

The engine's own readers stop at the first problem; a person fixing
a typed table wants them all at once, and the melds that did read, to see them drawn.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from puzzles._cards import Card, CardError
from puzzles._melds import Meld, MeldError
from puzzles._model import Objective
from puzzles._position import Position, PositionError
from puzzles._problems import PresetName, ProblemCode
from puzzles._problems import Problem as MeldProblem
from puzzles._rules import DEFAULT_RULES, PRESETS, Rules, RulesError
from puzzles._words import Words, words, words_n

MAX_TABLE_TEXT = 1200
MAX_HAND_TEXT = 400
MAX_PROBLEMS = 12
"""Beyond this many, the page says how many more rather than listing them."""

_MELD_BREAK = re.compile(r"[/\n;]")
_TOKEN_BREAK = re.compile(r"[\s,;]+")


ENGLISH_SUITS = "SHDC"
"""The engine's suit letters, spades to clubs: read on every page where the page's own do not use them."""


class AmbiguousCard(CardError):
    """A token that reads as more than one card with the page's letters (a German `K` suit is Karo or
    Kreuz): refused with its readings, never read as one of them."""

    def __init__(self, token: str, readings: tuple[Card, ...]) -> None:
        super().__init__(f"{token!r} could be {' or '.join(str(card) for card in readings)}")
        self.token = token
        self.readings = readings


@dataclass(frozen=True, slots=True)
class EntryProblem:
    """One thing wrong with the typed position: which field, where in it, and why."""

    field: str
    """`rules`, `objective`, `table`, `hand`, or `position` for the two together."""
    message: Words | MeldProblem


@dataclass(frozen=True, slots=True)
class TypedMeld:
    """One meld as typed: the cards that read, and why they are not a meld (None when they are)."""

    number: int
    text: str
    cards: tuple[Card, ...]
    problem: Words | MeldProblem | None


@dataclass(frozen=True, slots=True)
class Entry:
    """What was typed, as it was typed, with what it means."""

    rules_name: str
    table_text: str
    hand_text: str
    objective_name: str
    melds: tuple[TypedMeld, ...]
    hand: tuple[Card, ...]
    problems: tuple[EntryProblem, ...]
    position: Position | None
    """The position, when there is no problem."""
    objective: Objective

    @property
    def blank(self) -> bool:
        """Nothing typed yet: a fresh page, with no problems to show."""
        return not self.table_text.strip() and not self.hand_text.strip()

    def problems_of(self, field: str) -> list[EntryProblem]:
        return [problem for problem in self.problems if problem.field == field]

    @property
    def rules(self) -> Rules:
        return PRESETS.get(self.rules_name, DEFAULT_RULES)


def read_entry(
    rules_name: str,
    table_text: str,
    hand_text: str,
    objective_name: str = "cards",
    letters: str = "JQKA",
    suits: Mapping[str, str] | None = None,
) -> Entry:
    """Read a typed position: melds separated by `/` (or new lines), cards by spaces or commas.

    `letters` are the jack, queen, king and ace of the player's deck (`BDKA` on a German one): a
    token's rank may be written with them as well as with J Q K A. `suits` are the page's language's
    suit letters (`read_card`)."""
    problems: list[EntryProblem] = []
    known = _read_rules(rules_name, problems)
    rules = known or DEFAULT_RULES
    objective = _read_objective(objective_name, problems)
    problems += _lengths(table_text, hand_text)
    melds: list[TypedMeld] = []
    hand: list[Card] = []
    readable = not problems
    if readable:
        melds = _read_table(table_text, rules, problems, letters, suits)
        hand = _read_hand(hand_text, problems, letters, suits)
    if not problems and not hand:
        problems.append(EntryProblem("hand", words("the hand is empty: type the cards you held")))
    if readable:  # every problem at once: too many copies among the cards that did read, too
        problems += _copies(rules, melds, hand)
    position = None if problems else _position(rules, melds, hand, problems)
    return Entry(
        # a known preset is kept under its own name, an unknown one as typed
        rules_name=rules_name if known is None else known.name,
        table_text=table_text,
        hand_text=hand_text,
        objective_name=objective.value,
        melds=tuple(melds),
        hand=tuple(hand),
        problems=tuple(problems),
        position=position,
        objective=objective,
    )


def _read_rules(name: str, problems: list[EntryProblem]) -> Rules | None:
    """The preset named, or None (and a problem) when there is none of that name."""
    try:
        return Rules.named(name)
    except RulesError:
        problems.append(
            EntryProblem(
                "rules",
                words(
                    "unknown rules %(rules)s: one of %(known)s",
                    rules=repr(name[:30]),
                    known=", ".join(PRESETS),
                ),
            )
        )
        return None


def _read_objective(name: str, problems: list[EntryProblem]) -> Objective:
    try:
        return Objective(name)
    except ValueError:
        problems.append(
            EntryProblem(
                "objective", words("%(name)s is not an objective: cards or points", name=repr(name[:20]))
            )
        )
        return Objective.CARDS


def _lengths(table_text: str, hand_text: str) -> list[EntryProblem]:
    """A problem for each field too long to read at all."""
    problems = []
    if len(table_text) > MAX_TABLE_TEXT:
        problems.append(
            EntryProblem(
                "table", words("the table is too long: at most %(most)s characters", most=MAX_TABLE_TEXT)
            )
        )
    if len(hand_text) > MAX_HAND_TEXT:
        problems.append(
            EntryProblem(
                "hand", words("the hand is too long: at most %(most)s characters", most=MAX_HAND_TEXT)
            )
        )
    return problems


def _position(
    rules: Rules, melds: list[TypedMeld], hand: list[Card], problems: list[EntryProblem]
) -> Position | None:
    """The position of melds and hand that read without a problem."""
    try:
        return Position(rules, tuple(Meld.of(meld.cards, rules) for meld in melds), tuple(hand))
    except (PositionError, MeldError) as error:  # pragma: no cover - every case is caught above
        problems.append(EntryProblem("position", words(str(error))))
        return None


def _read_table(
    text: str, rules: Rules, problems: list[EntryProblem], letters: str, suits: Mapping[str, str] | None
) -> list[TypedMeld]:
    melds = []
    texts = [part.strip() for part in _MELD_BREAK.split(text)]
    for number, meld_text in enumerate((part for part in texts if part), start=1):
        cards = []
        problem: Words | MeldProblem | None = None
        for token in _tokens(meld_text):
            try:
                cards.append(read_card(token, letters, suits))
            except CardError as error:
                problems.append(
                    EntryProblem(
                        "table",
                        words(
                            "meld %(number)s: %(problem)s",
                            number=number,
                            problem=_not_a_card(token, error, suits),
                        ),
                    )
                )
                problem = words("a token is not a card")
        if problem is None:
            try:
                cards = list(Meld.of(cards, rules).cards)  # in table order, as the answer numbers it
            except MeldError as error:
                assert error.problem is not None  # cards, not tokens: every error is a Problem
                problem = error.problem
                problems.append(
                    EntryProblem("table", MeldProblem(ProblemCode.MELD, tuple(cards), number, inner=problem))
                )
        melds.append(TypedMeld(number, meld_text, tuple(cards), problem))
    return melds


def _read_hand(
    text: str, problems: list[EntryProblem], letters: str, suits: Mapping[str, str] | None
) -> list[Card]:
    hand = []
    for token in _tokens(text):
        try:
            hand.append(read_card(token, letters, suits))
        except CardError as error:
            problems.append(EntryProblem("hand", _not_a_card(token, error, suits)))
    return hand


def read_card(token: str, letters: str = "JQKA", suits: Mapping[str, str] | None = None) -> Card:
    """A card token, its rank written with the engine's letters or the deck's (`letters`, jack to ace),
    its suit a symbol, one of the page's suit letters (`suits`: letter -> the engine's suit letters it
    stands for, `{"C": "H"}` for the Italian cuori) or an English one the page's letters do not use.

    Only the rank (all but the last character) is read with the deck's letters, so a suit letter is
    never mistaken for a court: `DD` on a German deck is the queen of diamonds. The engine's J Q K A
    keep their meaning on every deck, where no other court takes the letter (a German `K` is the king
    either way). A suit letter the page's letters give two suits (Karo and Kreuz are both `K` in
    German) raises `AmbiguousCard` with both readings."""
    text = token.strip()
    rank, suit = text[:-1].upper(), text[-1:].upper()
    if len(rank) == 1 and rank in letters and rank not in "JQKA":
        rank = "JQKA"[letters.index(rank)]
    if text.upper() in ("JK", "JOKER", "🃏"):
        return Card.parse(text)
    meant = (suits or {}).get(suit, suit if suit in ENGLISH_SUITS else "")
    if len(meant) > 1:
        readings = tuple(Card.parse(rank + each) for each in meant)
        raise AmbiguousCard(text, readings)
    return Card.parse(rank + (meant or suit))


def _not_a_card(token: str, error: CardError | None = None, suits: Mapping[str, str] | None = None) -> Words:
    """Why a token is no card, as the engine's CardError says it, in words the site translates."""
    if isinstance(error, AmbiguousCard):
        first, *others = error.readings
        return words(
            "%(token)s could be %(first)s or %(second)s: type the suit as a symbol (♠ ♥ ♦ ♣)",
            token=repr(token[:20]),
            first=first,
            second=others[-1],
        )
    text = token.strip().upper()
    shown = repr(token[:20])
    try:
        read_card("2" + text[-1], suits=suits)
    except AmbiguousCard:
        pass
    except CardError:
        return words("%(token)s is not a card: unknown suit %(suit)s", token=shown, suit=repr(text[-1:]))
    if len(text) == 1:
        return words("%(token)s is not a card: missing rank", token=shown)
    return words("%(token)s is not a card: unknown rank %(rank)s", token=shown, rank=repr(text[:-1][:8]))


def _tokens(text: str) -> list[str]:
    return [token for token in _TOKEN_BREAK.split(text) if token]


def _copies(rules: Rules, melds: list[TypedMeld], hand: list[Card]) -> list[EntryProblem]:
    """More copies of a card than the preset's decks hold (or more jokers than it has)."""
    counts = Counter(hand)
    for meld in melds:
        counts.update(meld.cards)
    problems = []
    for card, count in sorted(counts.items(), key=lambda item: item[0].sort_key()):
        allowed = rules.copies(card)
        if count <= allowed:
            continue
        if card.is_joker and not allowed:
            said = words_n(
                "%(num)d joker on the table and in the hand, but the %(rules)s rules have none",
                "%(num)d jokers on the table and in the hand, but the %(rules)s rules have none",
                count,
                rules=PresetName(rules.name),
            )
        elif card.is_joker:
            said = words_n(
                "%(num)d jokers on the table and in the hand, but the %(rules)s rules have %(allowed)s",
                "%(num)d jokers on the table and in the hand, but the %(rules)s rules have %(allowed)s",
                count,
                rules=PresetName(rules.name),
                allowed=allowed,
            )
        else:
            said = words_n(
                "%(num)d copy of %(card)s on the table and in the hand, "
                "but the %(rules)s rules have %(allowed)s",
                "%(num)d copies of %(card)s on the table and in the hand, "
                "but the %(rules)s rules have %(allowed)s",
                count,
                card=(card,),
                rules=PresetName(rules.name),
                allowed=allowed,
            )
        problems.append(EntryProblem("position", said))
    return problems
