"""Melds: sets and runs under every preset, jokers and their stand-ins, joining runs."""

from __future__ import annotations

import pytest

from puzzles import PRESETS, Card, Meld, MeldError, MeldKind, Rules, join_runs, meld_problem, parse_cards

CLASSIC = Rules.named("classic")
ITALIAN = Rules.named("italian")
JOKERS = Rules.named("jokers")
GERMAN_JOKERS = Rules.named("german-jokers")
ACE_HIGH = [name for name, rules in PRESETS.items() if rules.ace_high]
ACE_LOW_ONLY = [name for name, rules in PRESETS.items() if not rules.ace_high]
WITH_JOKERS = [name for name, rules in PRESETS.items() if rules.jokers]
WITHOUT_JOKERS = [name for name, rules in PRESETS.items() if not rules.jokers]


def problem(text: str, rules: Rules | str) -> str | None:
    if isinstance(rules, str):
        rules = Rules.named(rules)
    found = meld_problem(parse_cards(text), rules)
    return None if found is None else str(found)  # the CLI's one-liner


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize(
    "text",
    [
        "8H 8D 8C",
        "8S 8H 8D 8C",
        "AS AH AD",
        "4S 5S 6S",
        "4S 5S 6S 7S",
        "AS 2S 3S",
        "JC QC KC",
        "9D 10D JD QD KD",
    ],
)
def test_melds_valid_under_every_preset(name: str, text: str) -> None:
    assert problem(text, name) is None


@pytest.mark.parametrize("name", PRESETS)
def test_the_longest_runs(name: str) -> None:
    ace_to_king = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert problem(ace_to_king, name) is None
    three_to_ace = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"
    assert (problem(three_to_ace, name) is None) is Rules.named(name).ace_high


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("8H 8H 8D", "8♥ twice in a set"),
        ("5S 7S 8S", "gap between 5♠ and 7♠"),
        ("3S 4S", "only 2 cards"),
        ("3S", "only 1 card"),
        ("", "only 0 cards"),
        ("5S 5S 6S", "5♠ twice in a run"),
        ("8H 9D 10C", "8♥ and 9♦ share neither rank nor suit"),
        ("8H 8D 9D", "8♥ and 9♦ share neither rank nor suit"),
        ("KS AS 2S", "a run cannot wrap around from the king through the ace to the two"),
        ("3S 4S JK", "no jokers in the classic rules"),
    ],
)
def test_invalid_melds_say_why(text: str, reason: str) -> None:
    assert problem(text, CLASSIC) == reason
    with pytest.raises(MeldError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        Meld.parse(text, CLASSIC)


@pytest.mark.parametrize("name", PRESETS)
def test_five_cards_never_make_a_set(name: str) -> None:
    rules = Rules.named(name)
    if rules.jokers:
        assert problem("8S 8H 8D 8C JK", rules) == "a set has at most 4 cards, not 5"
    assert problem("8S 8H 8D 8C 8S", rules) == "8♠ twice in a set"


@pytest.mark.parametrize("name", ACE_HIGH)
def test_ace_high_presets_allow_q_k_a(name: str) -> None:
    assert problem("QS KS AS", name) is None
    assert problem("AS KS QS", name) is None
    meld = Meld.parse("QS KS AS", Rules.named(name))
    assert (meld.start, meld.end) == (12, 14)


@pytest.mark.parametrize("name", ACE_LOW_ONLY)
def test_ace_low_presets_refuse_q_k_a(name: str) -> None:
    assert problem("QS KS AS", name) == f"gap between A♠ and Q♠ (the ace is low only in the {name} rules)"


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("text", ["KS AS 2S", "QS KS AS 2S", "KS AS 2S 3S"])
def test_no_preset_wraps_round_the_ace(name: str, text: str) -> None:
    assert problem(text, name) == "a run cannot wrap around from the king through the ace to the two"


def test_the_ace_is_never_at_both_ends() -> None:
    # the joker would have to be the ace at the other end of a run that already has one
    full = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK"
    assert problem(full, JOKERS) is not None
    assert problem("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK", JOKERS) is None


@pytest.mark.parametrize("name", WITHOUT_JOKERS)
def test_presets_without_jokers_refuse_them(name: str) -> None:
    assert problem("7H 7D JK", name) == f"no jokers in the {name} rules"


@pytest.mark.parametrize("name", WITH_JOKERS)
def test_joker_presets(name: str) -> None:
    assert problem("7H 7D JK", name) is None
    assert problem("7H 7D 7C JK", name) is None
    assert problem("3S JK 5S", name) is None
    assert problem("JK 4S 5S", name) is None
    assert problem("3S JK JK", name) == "two jokers in one meld"
    assert problem("3S JK JK 6S", name) == "two jokers in one meld"
    assert problem("7H 7D JK JK", name) == "two jokers in one meld"
    assert problem("JK JK JK", name) == "three jokers in one meld"
    assert problem("3S JK 6S", name) == "gap between 3♠ and 6♠"
    assert problem("7H 7H JK", name) == "7♥ twice in a set"


def test_a_run_joker_keeps_its_written_place() -> None:
    meld = Meld.parse("3S JK 5S", JOKERS)
    assert meld.tokens() == ["3S", "JK", "5S"]
    assert meld.stand_ins() == (frozenset({Card.parse("4S")}),)
    at_end = Meld.parse("JK 4S 5S", JOKERS)
    assert at_end.start == 3
    assert at_end.stand_ins() == (frozenset({Card.parse("3S")}),)
    after = Meld.parse("4S 5S JK", JOKERS)
    assert after.stand_ins() == (frozenset({Card.parse("6S")}),)


def test_a_run_joker_moves_where_the_written_place_is_impossible() -> None:
    # after the king there is only the high ace, which german-jokers refuses: the joker is the jack
    assert Meld.parse("QS KS JK", JOKERS).stand_ins() == (frozenset({Card.parse("AS")}),)
    low_only = Meld.parse("QS KS JK", GERMAN_JOKERS)
    assert low_only.tokens() == ["JK", "QS", "KS"]
    assert low_only.stand_ins() == (frozenset({Card.parse("JS")}),)
    # a joker written in a gap fills it, whatever order the cards came in
    assert Meld.parse("5S 3S JK", JOKERS).stand_ins() == (frozenset({Card.parse("4S")}),)


def test_set_jokers_stand_for_any_missing_suit() -> None:
    three = Meld.parse("7H 7D JK", JOKERS)
    assert three.kind is MeldKind.SET and three.start == 7
    assert three.stand_ins() == (frozenset(parse_cards("7S 7C")),)
    four = Meld.parse("7C 7H JK 7D", JOKERS)
    assert four.tokens() == ["7H", "7D", "7C", "JK"]
    assert four.stand_ins() == (frozenset(parse_cards("7S")),)
    assert Meld.parse("7H 7D 7C", CLASSIC).stand_ins() == ()


def test_meld_fields() -> None:
    run = Meld.parse("6S 4S 5S 7S", CLASSIC)
    assert run.kind is MeldKind.RUN
    assert run.tokens() == ["4S", "5S", "6S", "7S"]
    assert (run.start, run.end, run.jokers) == (4, 7, 0)
    assert run.suit is not None and run.suit.value == "S"
    assert str(run) == "4S 5S 6S 7S"
    assert run.pretty() == "4♠ 5♠ 6♠ 7♠"
    assert run == Meld.of(parse_cards("4S 5S 6S 7S"), CLASSIC)
    a_set = Meld.parse(["8C", "8H", "8S"], CLASSIC)
    assert a_set.kind is MeldKind.SET and a_set.suit is None and a_set.start == 8
    assert a_set.tokens() == ["8S", "8H", "8C"]
    assert Meld.parse("AS 2S 3S", ITALIAN).start == 1


def test_a_bad_card_in_a_meld_is_a_meld_error() -> None:
    with pytest.raises(MeldError, match="'4X' is not a card: unknown suit 'X'"):
        Meld.parse("3S 4X 5S", CLASSIC)


def runs(*texts: str, rules: Rules = CLASSIC) -> list[Meld]:
    return [Meld.parse(text, rules) for text in texts]


def test_join_runs_lays_runs_that_continue_as_one() -> None:
    joined = join_runs(runs("6S 7S 8S", "3S 4S 5S", "9S 10S JS"), CLASSIC)
    assert [str(meld) for meld in joined] == ["3S 4S 5S 6S 7S 8S 9S 10S JS"]


def test_join_runs_keeps_apart_what_does_not_continue() -> None:
    melds = runs("3S 4S 5S", "7S 8S 9S", "6H 7H 8H", "3S 4S 5S", "KD KH KC")
    joined = join_runs(melds, CLASSIC)
    assert sorted(str(meld) for meld in joined) == sorted(str(meld) for meld in melds)
    assert str(joined[0]) == "KH KD KC"  # sets first


def test_join_runs_with_a_joker_and_the_high_ace() -> None:
    joined = join_runs(runs("3S JK 5S", "6S 7S 8S", rules=JOKERS), JOKERS)
    assert [str(meld) for meld in joined] == ["3S JK 5S 6S 7S 8S"]
    high = join_runs(runs("QS KS AS", "9S 10S JS", rules=ITALIAN), ITALIAN)
    assert [str(meld) for meld in high] == ["9S 10S JS QS KS AS"]
    low_only = join_runs(runs("AS 2S 3S", "JS QS KS"), CLASSIC)
    assert len(low_only) == 2
