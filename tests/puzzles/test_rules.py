"""The five rule presets, exactly as the table of RULES.md gives them."""

from __future__ import annotations

import pytest

from puzzles import DEFAULT_RULES, JOKER, PRESETS, Card, FreedJoker, HandPoints, Rules, RulesError

# preset: decks, jokers, jokers per meld, ace high, where a freed joker goes, hand points
TABLE = {
    "classic": (2, 0, 0, False, None, "German"),
    "italian": (2, 0, 0, True, None, "German"),
    "jokers": (2, 4, 1, True, FreedJoker.TABLE, "Polish"),
    "german-jokers": (2, 2, 1, False, FreedJoker.HAND, "German"),
    "three-decks": (3, 0, 0, False, None, "German"),
}

# rank token: (German, Polish) hand points
POINTS = {
    "A": (1, 11),
    "2": (2, 2),
    "3": (3, 3),
    "4": (4, 4),
    "5": (5, 5),
    "6": (6, 6),
    "7": (7, 7),
    "8": (8, 8),
    "9": (9, 9),
    "10": (10, 10),
    "J": (10, 10),
    "Q": (10, 10),
    "K": (10, 10),
}


def test_exactly_the_five_presets() -> None:
    assert list(PRESETS) == list(TABLE)
    assert DEFAULT_RULES is PRESETS["classic"]


@pytest.mark.parametrize("name", TABLE)
def test_preset_matches_the_rules_table(name: str) -> None:
    decks, jokers, per_meld, ace_high, freed, points = TABLE[name]
    rules = Rules.named(name)
    assert rules.name == name
    assert (rules.decks, rules.jokers, rules.jokers_per_meld) == (decks, jokers, per_meld)
    assert rules.ace_high is ace_high
    assert rules.top_position == (14 if ace_high else 13)
    assert rules.freed_joker is freed
    column = 0 if points == "German" else 1
    for rank, values in POINTS.items():
        for suit in "SHDC":
            assert rules.points.of(Card.parse(rank + suit)) == values[column], rank + suit
    assert rules.copies(Card.parse("7H")) == decks
    assert rules.copies(JOKER) == jokers


def test_polish_joker_is_worth_25() -> None:
    assert Rules.named("jokers").points.of(JOKER) == 25


@pytest.mark.parametrize("name", TABLE)
def test_names_round_trip(name: str) -> None:
    rules = Rules.named(name)
    assert str(rules) == name
    assert Rules.named(f"  {name.upper()} ") is rules
    assert eval(repr(rules), {"Rules": Rules}) is rules


@pytest.mark.parametrize(
    ("alias", "name"), [("german", "classic"), ("polish", "jokers"), ("3-decks", "three-decks")]
)
def test_aliases(alias: str, name: str) -> None:
    assert Rules.named(alias) is PRESETS[name]


def test_unknown_rules_name_the_presets() -> None:
    with pytest.raises(RulesError) as caught:
        Rules.named("rummikub")
    assert str(caught.value) == (
        "unknown rules 'rummikub'; the presets are classic, italian, jokers, german-jokers, three-decks"
    )
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("decks", "jokers", "per_meld", "freed", "message"),
    [
        (0, 0, 0, None, "at least one deck"),
        (2, -1, 0, None, "negative number of jokers"),
        (2, 4, 2, FreedJoker.TABLE, "exactly one joker per meld"),
        (2, 0, 1, None, "joker rules without jokers"),
        (2, 0, 0, FreedJoker.HAND, "joker rules without jokers"),
        (2, 2, 1, None, "say where a freed joker goes"),
    ],
)
def test_rule_sets_the_engine_cannot_play(
    decks: int, jokers: int, per_meld: int, freed: FreedJoker | None, message: str
) -> None:
    points = HandPoints(ace=1, ten=10, face=10, joker=25)
    with pytest.raises(RulesError, match=message):
        Rules("odd", decks, jokers, per_meld, False, freed, points)
