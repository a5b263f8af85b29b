"""Positions: a rule set, a table of melds and a hand, with their text and JSON forms."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from puzzles._cards import Card, CardError, parse_cards, sorted_cards
from puzzles._melds import Meld, MeldError
from puzzles._rules import DEFAULT_RULES, Rules, RulesError

ACCEPTED_FIELDS = frozenset(
    {"rules", "table", "hand", "id"}
    | {"max_placed", "laid", "solution", "depth", "chain", "tier", "themes", "hand_size", "decoys"}
    | {"max_played", "played"}  # the same two in files written before the words were settled
    | {"live_decoys", "decisions", "decisions_at_least", "forks", "forks_at_least", "key_ideas", "canonical"}
    | {"real_forks"}
)
"""A position's fields and the rest of a generator output line (see generator.FIELDS)."""


class PositionError(ValueError):
    """A position that cannot occur: a bad card, an invalid meld, more copies than the decks hold."""


@dataclass(frozen=True, slots=True)
class Position:
    """What a player faces at the start of a turn.

    The text form is `rules | table melds separated by / | hand`:

    >>> str(Position.parse("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD"))
    'classic | 3S 4S 5S / 7H 7D 7C | 6S 7S KD'
    """

    rules: Rules
    table: tuple[Meld, ...]
    hand: tuple[Card, ...]
    """Sorted by suit then rank, jokers last."""
    _table_counts: Counter[Card] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "hand", sorted_cards(self.hand))
        counts: Counter[Card] = Counter()
        for meld in self.table:
            counts.update(meld.cards)
        object.__setattr__(self, "_table_counts", counts)
        total = counts + Counter(self.hand)
        for card, count in sorted(total.items(), key=lambda item: item[0].sort_key()):
            allowed = self.rules.copies(card)
            if count > allowed:
                if card.is_joker:
                    what = f"{count} joker{'s' if count != 1 else ''}"
                else:
                    what = f"{count} cop{'ies' if count != 1 else 'y'} of {card.pretty()}"
                raise PositionError(
                    f"{what} on the table and in the hand, "
                    f"but the {self.rules.name} rules have {allowed or 'none'}"
                )

    @classmethod
    def build(
        cls,
        rules: Rules | str,
        table: Iterable[Sequence[str] | str],
        hand: Sequence[str] | str,
    ) -> Position:
        """A position from tokens, with errors that say which meld or card is wrong."""
        if isinstance(rules, str):
            try:
                rules = Rules.named(rules)
            except RulesError as error:
                raise PositionError(str(error)) from None
        melds = []
        for number, meld in enumerate(table, start=1):
            if not isinstance(meld, (str, list, tuple)):
                raise PositionError(f"table meld {number}: expected a list of cards")
            try:
                melds.append(Meld.parse(meld, rules))
            except MeldError as error:
                raise PositionError(f"table meld {number} ({_show(meld)}): {error}") from None
        if not isinstance(hand, (str, list, tuple)):
            raise PositionError("hand: expected a list of cards")
        try:
            cards = parse_cards(hand)
        except CardError as error:
            raise PositionError(f"hand: {error}") from None
        return cls(rules, tuple(melds), cards)

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read `{"rules": "classic", "table": [["3S","4S","5S"]], "hand": ["6S"]}`.

        `table` and `hand` are required (each may also be text: `"3S 4S 5S / 7H 7D 7C"`, `"6S"`),
        `rules` defaults to classic. `id` and the other fields of a generator line (`solution`,
        `tier`...) are read past, so a generator line reads as its position; any other field is
        refused, so that a misspelt `rule` is not answered silently under the classic rules.
        """
        if not isinstance(data, Mapping):
            raise PositionError("a position must be a JSON object with table and hand")
        unknown = sorted(str(name) for name in set(data) - ACCEPTED_FIELDS)
        if unknown:
            raise PositionError(f"unknown field {unknown[0][:40]!r}: a position has rules, table and hand")
        rules = data.get("rules", DEFAULT_RULES.name)
        if not isinstance(rules, str):
            raise PositionError("rules must be a preset name")
        if "table" not in data:
            raise PositionError("table is missing")
        table = data["table"]
        if not isinstance(table, (list, str)):
            raise PositionError("table must be a list of melds")
        if isinstance(table, str):
            table = [meld for meld in table.split("/") if meld.strip()]
        if "hand" not in data:
            raise PositionError("hand is missing")
        return cls.build(rules, table, data["hand"])

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read the text form `rules | meld / meld | hand`."""
        parts = text.split("|")
        if len(parts) != 3:
            raise PositionError("a position reads 'rules | table melds separated by / | hand'")
        rules, table, hand = parts
        melds = [meld for meld in table.split("/") if meld.strip()]
        return cls.build(rules.strip(), melds, hand)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.name,
            "table": [meld.tokens() for meld in self.table],
            "hand": [str(card) for card in self.hand],
        }

    def table_counts(self) -> Counter[Card]:
        return Counter(self._table_counts)

    def hand_counts(self) -> Counter[Card]:
        return Counter(self.hand)

    def __str__(self) -> str:
        table = " / ".join(str(meld) for meld in self.table)
        hand = " ".join(str(card) for card in self.hand)
        return f"{self.rules.name} | {table} | {hand}"


def _show(meld: Sequence[str] | str) -> str:
    if isinstance(meld, str):
        return meld.strip()
    return " ".join(str(token) for token in meld)
