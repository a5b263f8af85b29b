"""A sentence for a player, kept as its English message and its values until a page renders it.

The board, the step check's verdict, hints and the typed position's reader say what they mean
with `words(...)` and `words_n(...)`; the site (`webapp.wording.say`) renders it in the player's
language, with the cards in their deck's letters. `pybabel extract` finds both names
(babel.cfg), so their messages are in the catalogs. `str()` gives the English, for logs and tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from puzzles._cards import Card
from puzzles._problems import PresetName

Gettext = Callable[..., str]
"""`gettext(message, **values)`, as Flask-Babel's."""
Ngettext = Callable[..., str]
"""`ngettext(singular, plural, n, **values)`, as Flask-Babel's."""


@dataclass(frozen=True, slots=True)
class Words:
    """An English message with `%(name)s` places, the values for them, and for a plural its count."""

    message: str
    values: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: int = 0

    def render(self, gettext: Gettext, ngettext: Ngettext, show: Callable[[Any], str]) -> str:
        """The message translated, each value first shown by `show` (cards, nested words)."""
        values = {name: show(value) for name, value in self.values.items()}
        if self.plural is None:
            return gettext(self.message, **values)
        return ngettext(self.message, self.plural, self.count, **values)

    def __str__(self) -> str:
        return self.render(_english, _english_n, _english_value)

    def to_json(self) -> dict[str, Any]:
        """For the database: cards as their tokens."""
        values = {
            name: {"cards": [str(card) for card in value]}
            if _is_cards(value)
            else {"preset": str(value)}
            if isinstance(value, PresetName)
            else value
            for name, value in self.values.items()
        }
        return {"message": self.message, "values": values, "plural": self.plural, "count": self.count}

    @classmethod
    def from_json(cls, data: Any) -> Words:
        """What `to_json` wrote, or the plain English text that records held before."""
        if isinstance(data, str):
            return cls(data)
        values = {name: _value_from_json(value) for name, value in data["values"].items()}
        return cls(str(data["message"]), values, data.get("plural"), int(data.get("count", 0)))

    def __hash__(self) -> int:
        return hash((self.message, tuple(sorted(self.values.items())), self.plural, self.count))


def words(message: str, **values: Any) -> Words:
    return Words(message, values)


def words_n(singular: str, plural: str, count: int, **values: Any) -> Words:
    """A message with a plural: `%(num)d` is the count, as in Flask-Babel's `ngettext`."""
    return Words(singular, values, plural, count)


def _value_from_json(value: Any) -> Any:
    if isinstance(value, dict) and "preset" in value:
        return PresetName(value["preset"])
    if isinstance(value, dict):
        return tuple(Card.parse(token) for token in value["cards"])
    return value


def _is_cards(value: Any) -> bool:
    return isinstance(value, tuple) and bool(value) and all(isinstance(card, Card) for card in value)


def _english_value(value: Any) -> str:
    if isinstance(value, Card):
        return value.pretty()
    if _is_cards(value):
        return " ".join(card.pretty() for card in value)
    return str(value)


def _english(message: str, **values: Any) -> str:
    return message % values if values else message


def _english_n(singular: str, plural: str, count: int, /, **values: Any) -> str:
    return (singular if count == 1 else plural) % {"num": count, **values}
