"""A position as a player types it on the analyser page: every problem found, each naming its token.

Pure, like the engine: no Flask. The engine's own readers stop at the first problem; a person fixing
a typed table wants them all at once, and the melds that did read, to see them drawn.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from puzzles import (
    DEFAULT_RULES,
    PRESETS,
    Card,
    CardError,
    Meld,
    MeldError,
    Objective,
    Position,
    PositionError,
    Rules,
    RulesError,
)

MAX_TABLE_TEXT = 1200
MAX_HAND_TEXT = 400
MAX_PROBLEMS = 12
"""Beyond this many, the page says how many more rather than listing them."""

_MELD_BREAK = re.compile(r"[/\n;]")
_TOKEN_BREAK = re.compile(r"[\s,;]+")


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the typed position: which field, where in it, and why."""

    field: str
    """`rules`, `objective`, `table`, `hand`, or `position` for the two together."""
    message: str


@dataclass(frozen=True, slots=True)
class TypedMeld:
    """One meld as typed: the cards that read, and why they are not a meld (None when they are)."""

    number: int
    text: str
    cards: tuple[Card, ...]
    problem: str | None


@dataclass(frozen=True, slots=True)
class Entry:
    """What was typed, as it was typed, with what it means."""

    rules_name: str
    table_text: str
    hand_text: str
    objective_name: str
    melds: tuple[TypedMeld, ...]
    hand: tuple[Card, ...]
    problems: tuple[Problem, ...]
    position: Position | None
    """The position, when there is no problem."""
    objective: Objective

    @property
    def blank(self) -> bool:
        """Nothing typed yet: a fresh page, with no problems to show."""
        return not self.table_text.strip() and not self.hand_text.strip()

    def problems_of(self, field: str) -> list[Problem]:
        return [problem for problem in self.problems if problem.field == field]

    @property
    def rules(self) -> Rules:
        return PRESETS.get(self.rules_name, DEFAULT_RULES)


def read_entry(rules_name: str, table_text: str, hand_text: str, objective_name: str = "cards") -> Entry:
    """Read a typed position: melds separated by `/` (or new lines), cards by spaces or commas."""
    problems: list[Problem] = []
    try:
        rules = Rules.named(rules_name)
        rules_name = rules.name
    except RulesError as error:
        problems.append(Problem("rules", str(error)))
        rules = DEFAULT_RULES
    try:
        objective = Objective(objective_name)
    except ValueError:
        problems.append(Problem("objective", f"{objective_name[:20]!r} is not an objective: cards or points"))
        objective = Objective.CARDS
    if len(table_text) > MAX_TABLE_TEXT:
        problems.append(Problem("table", f"the table is too long: at most {MAX_TABLE_TEXT} characters"))
    if len(hand_text) > MAX_HAND_TEXT:
        problems.append(Problem("hand", f"the hand is too long: at most {MAX_HAND_TEXT} characters"))
    melds: list[TypedMeld] = []
    hand: list[Card] = []
    readable = not problems
    if readable:
        melds = _read_table(table_text, rules, problems)
        hand = _read_hand(hand_text, problems)
    if not problems and not hand:
        problems.append(Problem("hand", "the hand is empty: type the cards you held"))
    if readable:  # every problem at once: too many copies among the cards that did read, too
        problems += _copies(rules, melds, hand)
    position = None
    if not problems:
        try:
            position = Position(rules, tuple(Meld.of(meld.cards, rules) for meld in melds), tuple(hand))
        except (PositionError, MeldError) as error:  # pragma: no cover - every case is caught above
            problems.append(Problem("position", str(error)))
    return Entry(
        rules_name=rules_name,
        table_text=table_text,
        hand_text=hand_text,
        objective_name=objective.value,
        melds=tuple(melds),
        hand=tuple(hand),
        problems=tuple(problems),
        position=position,
        objective=objective,
    )


def _read_table(text: str, rules: Rules, problems: list[Problem]) -> list[TypedMeld]:
    melds = []
    texts = [part.strip() for part in _MELD_BREAK.split(text)]
    for number, meld_text in enumerate((part for part in texts if part), start=1):
        cards = []
        problem = None
        for token in _tokens(meld_text):
            try:
                cards.append(Card.parse(token))
            except CardError as error:
                problems.append(Problem("table", f"meld {number}: {error}"))
                problem = "a token is not a card"
        if problem is None:
            try:
                cards = list(Meld.of(cards, rules).cards)  # in table order, as the answer numbers it
            except MeldError as error:
                problem = str(error)
                shown = " ".join(card.pretty() for card in cards)
                problems.append(Problem("table", f"meld {number} ({shown}): {problem}"))
        melds.append(TypedMeld(number, meld_text, tuple(cards), problem))
    return melds


def _read_hand(text: str, problems: list[Problem]) -> list[Card]:
    hand = []
    for token in _tokens(text):
        try:
            hand.append(Card.parse(token))
        except CardError as error:
            problems.append(Problem("hand", str(error)))
    return hand


def _tokens(text: str) -> list[str]:
    return [token for token in _TOKEN_BREAK.split(text) if token]


def _copies(rules: Rules, melds: list[TypedMeld], hand: list[Card]) -> list[Problem]:
    """More copies of a card than the preset's decks hold (or more jokers than it has)."""
    counts = Counter(hand)
    for meld in melds:
        counts.update(meld.cards)
    problems = []
    for card, count in sorted(counts.items(), key=lambda item: item[0].sort_key()):
        allowed = rules.copies(card)
        if count > allowed:
            if card.is_joker:
                what, have = ("joker" if count == 1 else "jokers"), (str(allowed) if allowed else "none")
            else:
                what, have = f"copies of {card.pretty()}", str(allowed)
            problems.append(
                Problem(
                    "position",
                    f"{count} {what} on the table and in the hand, but the {rules.name} rules have {have}",
                )
            )
    return problems


def position_args(entry: Entry) -> dict[str, Any]:
    """The query that reproduces an entry: canonical when it is a valid position, else as typed."""
    position = entry.position
    if position is None:
        return {"rules": entry.rules_name, "table": entry.table_text, "hand": entry.hand_text}
    return {
        "rules": position.rules.name,
        "table": " / ".join(str(meld) for meld in position.table),
        "hand": " ".join(str(card) for card in position.hand),
    }
