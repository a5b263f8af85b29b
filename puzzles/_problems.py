"""What is wrong with a meld or a play, as a value: a code and the cards it names.

Each code has one English message (`MESSAGES`), marked for the site's catalogs: `str(problem)` is
the English one-liner the CLI prints, and the site renders the same message through gettext, in the
player's language and deck letters (`Problem.render`).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from puzzles._cards import Card


def N_(message: str) -> str:
    """Mark an English literal for the site's message catalogs (gettext's `gettext_noop`): the engine
    and the generator keep their English, and the site looks the text up in the player's language."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """`N_` for a message with a plural: `%(num)d` is the count."""
    return singular, plural


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


class PresetName(str):
    """A preset's name inside a sentence: the CLI writes it as typed (`classic`), the site writes the
    preset's title in the player's language (`Klassisch`)."""

    __slots__ = ()


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

    def render(
        self, gettext: Callable[..., str], ngettext: Callable[..., str], show: Callable[[Any], str]
    ) -> str:
        """The message in a language: `gettext(message, **values)` and `ngettext(singular, plural,
        count, **values)` translate, `show` writes a card or the cards of a meld."""
        shown = [show(card) for card in self.cards]
        rules = show(PresetName(self.rules))
        values: dict[str, Any] = {"number": self.count, "count": self.count, "rules": rules}
        values["cards"] = " ".join(shown)
        if shown:
            values.update(card=shown[0], first=shown[0], second=shown[-1])
        if self.inner is not None:
            values["problem"] = self.inner.render(gettext, ngettext, show)
        message = MESSAGES[self.code]
        if isinstance(message, tuple):
            words = ngettext(*message, self.count, **values)
        else:
            words = gettext(message, **values)
        if self.ace_low_only:
            words = gettext(ACE_LOW_ONLY, problem=words, rules=rules)
        return words

    def __str__(self) -> str:
        if self.code is ProblemCode.JOKERS_IN_MELD and self.count in _COUNT_WORDS:
            return f"{_COUNT_WORDS[self.count]} jokers in one meld"  # the CLI has always said "two"
        return self.render(_english, _english_n, _english_shown)


MESSAGES: dict[ProblemCode, str | tuple[str, str]] = {
    ProblemCode.TOO_FEW: Nn_("only %(num)d card", "only %(num)d cards"),
    ProblemCode.NEEDS_MORE: Nn_("needs %(num)d more card", "needs %(num)d more cards"),
    ProblemCode.NO_JOKERS: N_("no jokers in the %(rules)s rules"),
    ProblemCode.JOKERS_IN_MELD: Nn_("%(num)d joker in one meld", "%(num)d jokers in one meld"),
    ProblemCode.NO_SHARED: N_("%(first)s and %(second)s share neither rank nor suit"),
    ProblemCode.MIXED: N_("mixes ranks and suits: a set needs one rank, a run one suit"),
    ProblemCode.TWICE: N_("%(card)s twice"),
    ProblemCode.TWICE_IN_SET: N_("%(card)s twice in a set"),
    ProblemCode.SET_TOO_BIG: N_("a set has at most 4 cards, not %(count)d"),
    ProblemCode.TWICE_IN_RUN: N_("%(card)s twice in a run"),
    ProblemCode.GAP: N_("gap between %(first)s and %(second)s"),
    ProblemCode.ACE_BOTH_ENDS: N_("the ace cannot be low and high in one run"),
    ProblemCode.WRAP: N_("a run cannot wrap around from the king through the ace to the two"),
    ProblemCode.MELD: N_("meld %(number)d (%(cards)s): %(problem)s"),
    ProblemCode.LEFT_TABLE: N_("%(card)s left the table"),
    ProblemCode.NOT_IN_HAND: N_("%(card)s is not in the hand"),
    ProblemCode.JOKERS_LEFT: Nn_("%(num)d joker left the table", "%(num)d jokers left the table"),
    ProblemCode.JOKER_UNREPLACED: N_("a joker went back to the hand without its real card taking its place"),
    ProblemCode.NOTHING_LAID: N_("no card from the hand is on the table"),
}
"""Each code's English message, with `%(name)s` places for its values."""
ACE_LOW_ONLY = N_("%(problem)s (the ace is low only in the %(rules)s rules)")


def _english_shown(value: Card | str) -> str:
    return value.pretty() if isinstance(value, Card) else str(value)


def _english(message: str, **values: Any) -> str:
    return message % values


def _english_n(singular: str, plural: str, count: int, /, **values: Any) -> str:
    return (singular if count == 1 else plural) % {"num": count, **values}


_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}
