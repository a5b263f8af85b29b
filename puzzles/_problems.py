"""What is wrong with a meld or a play, as a value: a code and the cards it names.

The engine never words a problem for a reader beyond the English one-liner of `str(problem)` (what
the CLI prints); the site renders the code and its cards in the player's language.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from puzzles._cards import Card


def N_(message: str) -> str:
    """Mark an English literal for the site's message catalogs (gettext's `gettext_noop`): the engine
    and the generator keep their English, and the site looks the text up in the player's language."""
    return message


class ProblemCode(enum.Enum):
    """Every way a meld or a final table can be wrong."""

    TOO_FEW = "too-few"
    """`count` cards, fewer than 3."""
    NEEDS_MORE = "needs-more"
    """An incomplete meld that can still grow: `count` more cards needed."""
    NO_JOKERS = "no-jokers"
    """A joker under rules (`rules`) that have none."""
    JOKERS_IN_MELD = "jokers-in-meld"
    """`count` jokers in one meld, over the rules' limit."""
    NO_SHARED = "no-shared"
    """The two `cards` share neither rank nor suit."""
    MIXED = "mixed"
    """Some cards share a rank, others a suit."""
    TWICE = "twice"
    """The card twice among two cards."""
    TWICE_IN_SET = "twice-in-set"
    SET_TOO_BIG = "set-too-big"
    """A set of `count` cards."""
    TWICE_IN_RUN = "twice-in-run"
    GAP = "gap"
    """A gap in a run between the two `cards`."""
    ACE_BOTH_ENDS = "ace-both-ends"
    WRAP = "wrap"
    """A run around from the king through the ace to the two."""
    MELD = "meld"
    """Meld number `count` of a final table (its `cards`) is not valid: `inner` says why."""
    LEFT_TABLE = "left-table"
    NOT_IN_HAND = "not-in-hand"
    JOKERS_LEFT = "jokers-left"
    """`count` jokers left the table, where the rules keep a freed joker on it."""
    JOKER_UNREPLACED = "joker-unreplaced"
    NOTHING_LAID = "nothing-laid"


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem: its code, the cards it is about, and the number or rules name it needs."""

    code: ProblemCode
    cards: tuple[Card, ...] = ()
    count: int = 0
    rules: str = ""
    """The rules' name, for a problem that only these rules make (jokers, a low ace)."""
    ace_low_only: bool = False
    """A run that the same cards would make with the ace high, which `rules` do not allow."""
    inner: Problem | None = None

    def __str__(self) -> str:
        words = _english(self)
        if self.ace_low_only:
            words += f" (the ace is low only in the {self.rules} rules)"
        return words


def _pretty(cards: tuple[Card, ...]) -> str:
    return " ".join(card.pretty() for card in cards)


def _english(problem: Problem) -> str:
    code, cards, n = problem.code, problem.cards, problem.count
    if code is ProblemCode.TOO_FEW:
        return f"only {n} card{'s' if n != 1 else ''}"
    if code is ProblemCode.NEEDS_MORE:
        return f"needs {n} more card{'s' if n != 1 else ''}"
    if code is ProblemCode.NO_JOKERS:
        return f"no jokers in the {problem.rules} rules"
    if code is ProblemCode.JOKERS_IN_MELD:
        return f"{_COUNT_WORDS.get(n, str(n))} jokers in one meld"
    if code is ProblemCode.NO_SHARED:
        return f"{cards[0].pretty()} and {cards[1].pretty()} share neither rank nor suit"
    if code is ProblemCode.MIXED:
        return "mixes ranks and suits: a set needs one rank, a run one suit"
    if code is ProblemCode.TWICE:
        return f"{cards[0].pretty()} twice"
    if code is ProblemCode.TWICE_IN_SET:
        return f"{cards[0].pretty()} twice in a set"
    if code is ProblemCode.SET_TOO_BIG:
        return f"a set has at most 4 cards, not {n}"
    if code is ProblemCode.TWICE_IN_RUN:
        return f"{cards[0].pretty()} twice in a run"
    if code is ProblemCode.GAP:
        return f"gap between {cards[0].pretty()} and {cards[1].pretty()}"
    if code is ProblemCode.ACE_BOTH_ENDS:
        return "the ace cannot be low and high in one run"
    if code is ProblemCode.WRAP:
        return "a run cannot wrap around from the king through the ace to the two"
    if code is ProblemCode.MELD:
        return f"meld {n} ({_pretty(cards)}): {problem.inner}"
    if code is ProblemCode.LEFT_TABLE:
        return f"{cards[0].pretty()} left the table"
    if code is ProblemCode.NOT_IN_HAND:
        return f"{cards[0].pretty()} is not in the hand"
    if code is ProblemCode.JOKERS_LEFT:
        return f"{n} joker{'s' if n > 1 else ''} left the table"
    if code is ProblemCode.JOKER_UNREPLACED:
        return "a joker went back to the hand without its real card taking its place"
    return "no card from the hand is on the table"


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}
