"""Rule presets: every difference between the rule descriptions is a field here, not a branch."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from puzzles._cards import Card
from puzzles._problems import N_


class RulesError(ValueError):
    """An unknown preset name, or a rule set the engine cannot play."""


class FreedJoker(enum.Enum):
    """Where a joker goes when the real card it stands for replaces it on the table."""

    TABLE = "table"
    """It stays on the table and moves freely like any table card (Polish online rules)."""
    HAND = "hand"
    """The player who swaps in the exact card takes the joker into their hand (German leaflet)."""

    __hash__ = object.__hash__  # in C, as `Suit`'s: the solver's caches hash the rules at every ask


@dataclass(frozen=True, slots=True)
class HandPoints:
    """What a card left in the hand costs at the end of a hand."""

    ace: int
    ten: int
    face: int
    joker: int

    def of(self, card: Card) -> int:
        if card.is_joker:
            return self.joker
        if card.rank == 1:
            return self.ace
        if card.rank == 10:
            return self.ten
        if card.rank > 10:
            return self.face
        return card.rank


GERMAN_POINTS = HandPoints(ace=1, ten=10, face=10, joker=25)
"""A = 1, 2-10 face value, J Q K = 10. The leaflet gives the joker no value; we charge the Polish 25."""
POLISH_POINTS = HandPoints(ace=11, ten=10, face=10, joker=25)
"""A = 11, 10 J Q K = 10, joker = 25, others face value."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule set. Presets are looked up by name with `Rules.named`."""

    name: str
    decks: int
    """How many 52-card decks are shuffled together: each exact card exists this many times."""
    jokers: int
    """Jokers in the game, on top of the decks."""
    jokers_per_meld: int
    """At most this many jokers in one meld (0 when the game has none)."""
    ace_high: bool
    """Whether the ace may also follow the king (Q-K-A); it is always allowed low (A-2-3)."""
    freed_joker: FreedJoker | None
    """Where a joker freed by its real card goes; None when the game has no jokers."""
    points: HandPoints
    description: str = ""
    title: str = ""
    """The preset's name as players read it (a catalog message); `name` is the identifier."""

    def __post_init__(self) -> None:
        if self.decks < 1:
            raise RulesError(f"{self.name}: at least one deck is needed")
        if self.jokers < 0:
            raise RulesError(f"{self.name}: a negative number of jokers")
        if self.jokers and self.jokers_per_meld != 1:
            # Runs of 3 to 5 cards only compose every longer run when a meld holds one joker at most.
            raise RulesError(f"{self.name}: the engine plays with exactly one joker per meld")
        if not self.jokers and (self.jokers_per_meld or self.freed_joker is not None):
            raise RulesError(f"{self.name}: joker rules without jokers")
        if self.jokers and self.freed_joker is None:
            raise RulesError(f"{self.name}: say where a freed joker goes")

    @property
    def top_position(self) -> int:
        """The highest position in a run: 14 (an ace after the king) when the ace may be high."""
        return 14 if self.ace_high else 13

    def copies(self, card: Card) -> int:
        """How many of this exact card the game holds."""
        return self.jokers if card.is_joker else self.decks

    @staticmethod
    def named(name: str) -> Rules:
        """The preset of this name (`classic`, `italian`, `jokers`, `german-jokers`, `three-decks`)."""
        try:
            return PRESETS[_ALIASES.get(name.strip().lower(), name.strip().lower())]
        except (KeyError, AttributeError):
            known = ", ".join(PRESETS)
            raise RulesError(f"unknown rules {name!r}; the presets are {known}") from None

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Rules.named({self.name!r})"


PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        Rules(
            "classic", 2, 0, 0, False, None, GERMAN_POINTS,
            N_("German leaflet: two decks, no jokers, ace low only"), N_("Classic"),
        ),
        Rules(
            "italian", 2, 0, 0, True, None, GERMAN_POINTS,
            N_("Italian entry: two decks, no jokers, ace low or high"), N_("Italian"),
        ),
        Rules(
            "jokers", 2, 4, 1, True, FreedJoker.TABLE, POLISH_POINTS,
            N_("Polish online rules: four jokers, one per meld, freed jokers stay on the table"),
            N_("Jokers"),
        ),
        Rules(
            "german-jokers", 2, 2, 1, False, FreedJoker.HAND, GERMAN_POINTS,
            N_("German joker variant: two jokers, one per meld, a freed joker goes to the hand"),
            N_("German jokers"),
        ),
        Rules(
            "three-decks", 3, 0, 0, False, None, GERMAN_POINTS,
            N_("German variant for 5-6 players: three decks, no jokers, ace low only"), N_("Three decks"),
        ),
    )
}  # fmt: skip

_ALIASES = {"german": "classic", "default": "classic", "polish": "jokers", "3-decks": "three-decks"}
DEFAULT_RULES = PRESETS["classic"]
