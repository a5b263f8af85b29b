"""Themes: every theme's own example shows it, a play that does not do a thing is not tagged with it,
and the worked examples of RULES.md read as a player would describe them."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import pytest

from generator._themes import MOTIFS, THEMES, Theme, motif_of, themes_of
from puzzles import Analysis, Position, analyse

TIME_LIMIT = 10.0
each_theme = pytest.mark.parametrize("theme", THEMES.values(), ids=list(THEMES))


@cache
def analysed(text: str) -> Analysis:
    return analyse(Position.parse(text), time_limit=TIME_LIMIT)


def tags(text: str) -> tuple[str, ...]:
    return themes_of(analysed(text))


@each_theme
def test_a_theme_is_documented(theme: Theme) -> None:
    assert THEMES[theme.name] is theme
    assert re.fullmatch(r"[a-z]+(-[a-z]+)*", theme.name)
    assert theme.title and theme.title[0].isupper()
    assert theme.description.endswith(".")
    assert str(Position.parse(theme.example)) == " ".join(theme.example.split())


@each_theme
def test_a_themes_example_is_a_puzzle_whose_play_shows_it(theme: Theme) -> None:
    analysis = analysed(theme.example)
    assert analysis.uniqueness.unique is True
    assert analysis.best.placed >= 1
    assert theme.name in themes_of(analysis)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # RULES.md example 1: three sets become three runs J-Q-K, the club run takes A♣
        ("italian | JH JD JC / QH QD QC / KH KD KC | AC", ("sets-to-runs", "ladder")),
        # RULES.md example 2: runs 10-J-Q of ♥ and ♦ and 9-10-J♠, Q♣ joins Q♦ Q♠ from the hand
        ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS",
         ("new-meld", "sets-to-runs", "staircase")),
        # RULES.md example 3: 3-4-5♣ and 7-8-9♣ free 6♣ for a set with 6♥ 6♦
        ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", ("new-meld", "split-run")),
        ("classic | 3S 4S 5S / 7H 7D 7C | 6S 7S", ("extend",)),
    ],
)  # fmt: skip
def test_the_worked_examples_read_as_a_player_says_them(text: str, expected: tuple[str, ...]) -> None:
    assert tags(text) == expected


NOT_DONE = [
    ("classic | 3S 4S 5S 6S | 7S", "end-card", "a run of four that grows gives up no end card"),
    ("classic | 3S 4S 5S 6S | 7S", "new-meld", "a card added to a meld starts none"),
    ("classic | 3S 4S 5S | 6S 7S 8S", "bridge", "runs that touch need no card between them"),
    ("classic | 3S 4S 5S / 7S 8S 9S | 6S", "new-meld", "the card between two runs joins them"),
    ("classic | 5H 5D 5C | 3H 4H 3D 4D 6C 7C", "set-of-four", "a set of three dissolved is no set of four"),
    ("classic | 5H 5D 5C | 3H 4H 3D 4D 6C 7C", "ladder", "one set into runs is no ladder"),
    ("classic | 7S 7H 7D 7C | 5C 6C", "sets-to-runs", "three of the four stay a set"),
    ("classic | 7S 7H 7D 7C | 5C 6C", "swap", "the set takes nothing from a run"),
    ("classic | 4S 5S 6S 7S | 7H 7D", "split-run", "one end card off is no split"),
    ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", "end-card", "the card comes from the middle"),
    ("classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D", "runs-to-sets", "most of the run stays in runs"),
    ("classic | 7H 7D 7C / 4S 5S 6S 7S | 6C 8C", "pass-on", "a swap between two melds passes nothing on"),
    ("classic | 7H 7D 7C / 5S 6S 7S / 4S 4H 4D 4C | 6C 8C", "cycle", "a line is no circle"),
    (
        "classic | 7S 7H 7C / 10S 10H 10D / AD 2D 3D / 5D 6D 7D / 8C 9C 10C | 8S 9S JS QS AH 4D 5D 8D AC",
        "cycle",
        "a chain that ends at a bridge goes round no circle",
    ),
    ("classic | 7H 7D 7C / 5S 6S 7S / 4S 4H 4D 4C | 6C 8C", "long-chain", "a chain of three is not long"),
    ("jokers | 3S 4S 5S | 9H 9D JK", "free-joker", "the joker comes from the hand"),
    ("jokers | 5H JK 7H | 3S 4S 6H", "hand-joker", "the joker comes from the table"),
    ("jokers | 5H JK 7H | 8H", "free-joker", "the joker stays in its run"),
    ("jokers | 5H 6H 7H JK | 3S 4S", "free-joker", "no real card takes the joker's place"),
    ("classic | 5H 5D 5C / 6H 6D 6C | 4H 4D 7C 8C", "ladder", "two sets side by side are no ladder"),
    ("classic | 5H 5D 5C / 6H 6D 6C | 4H 4D 7C 8C", "staircase", "nor a staircase"),
    ("italian | JH JD JC / QH QD QC / KH KD KC | AC", "staircase", "three suits shared: a ladder"),
    ("classic | 10H 10D 10S / JH JD JS / QH QD QC | 9S QD QS", "ladder", "the suits shift: a staircase"),
]


@pytest.mark.parametrize(("text", "theme", "why"), NOT_DONE, ids=[f"{t}: {why}" for _, t, why in NOT_DONE])
def test_a_theme_is_not_given_when_the_play_does_not_do_it(text: str, theme: str, why: str) -> None:
    assert theme in THEMES
    analysis = analysed(text)
    assert analysis.uniqueness.unique is True and analysis.best.placed >= 1
    assert theme not in themes_of(analysis), why


def test_the_order_the_table_is_written_in_does_not_matter() -> None:
    assert tags("classic | 4S 4H 4D 4C / 5S 6S 7S / 7H 7D 7C | 8C 6C") == tags(THEMES["pass-on"].example)
    assert tags("classic | 5H 6H 7H / 4S 5S 6S / 7S 7D 7C / 4H 4D 4C | 8S") == tags(THEMES["cycle"].example)


def test_themes_are_known_names_in_vocabulary_order() -> None:
    order = list(THEMES)
    texts = [theme.example for theme in THEMES.values()] + [text for text, _, _ in NOT_DONE]
    for text in texts:
        names = tags(text)
        assert set(names) <= set(THEMES), text
        assert list(names) == sorted(names, key=order.index), text


def test_every_theme_is_shown_by_some_example_and_absent_from_another() -> None:
    shown = {name for theme in THEMES.values() for name in tags(theme.example)}
    assert shown == set(THEMES)
    for name in THEMES:
        assert any(name not in tags(theme.example) for theme in THEMES.values()), name


def test_a_puzzles_motif_is_its_most_telling_trick() -> None:
    assert set(MOTIFS) < set(THEMES)
    assert motif_of(["extend", "sets-to-runs", "ladder", "long-chain"]) == "ladder"
    assert motif_of(["sets-to-runs", "ladder", "cycle"]) == "cycle"
    assert motif_of(tags(THEMES["cycle"].example)) == "cycle"
    # passing a card on is what every chain does: a chain is named by what else it does
    assert "pass-on" not in MOTIFS
    assert motif_of(tags(THEMES["pass-on"].example)) == "set-of-four"
    assert motif_of(["new-meld", "end-card", "swap", "pass-on"]) == "end-card"
    assert motif_of(["new-meld", "swap", "pass-on"]) == "swap"
    assert motif_of(["new-meld", "extend", "long-chain"]) is None
    assert motif_of([]) is None


def test_a_ladder_turned_into_runs_passes_no_card_on() -> None:
    # each run takes one card of each set: no meld takes a card and gives one of its own away
    assert {"cycle", "pass-on"}.isdisjoint(tags("italian | JH JD JC / QH QD QC / KH KD KC | AC"))


def test_a_circle_of_four_melds_is_a_cycle() -> None:
    # 8S needs 7S: the spades give 4S to the fours, which give 4H to the hearts, which give 7H to
    # the sevens, which give 7S back to the spades
    analysis = analysed(THEMES["cycle"].example)
    assert analysis.best.play.laid == Position.parse(THEMES["cycle"].example).hand
    assert analysis.chain.length == 4


def test_themes_read_the_graded_play_not_the_depth_play() -> None:
    # the depth play breaks four melds at once; the graded play, three at a time, climbs a ladder
    position = Position.parse(
        "classic | 2S 2D 2C / 2S 2H 2D / 5H 5D 5C / 6S 6H 6D / 8S 8H 8D / 9S 9H 9D / 10S 10H 10D / "
        "JS JH JD / QS QH QD / 2H 3H 4H / 3C 4C 5C / 8C 9C 10C JC QC | 6D 7D KD AC AC 2C"
    )
    analysis = analyse(position, time_limit=60)
    assert analysis.chain.play is not None and analysis.chain.play.table != analysis.shown.table
    graded = themes_of(analysis)
    assert "ladder" in graded and "runs-to-sets" not in graded
    assert themes_of(replace(analysis, depth=replace(analysis.depth, play=analysis.chain.play))) == graded
    # with no graded play, the depth play is read
    assert "runs-to-sets" in themes_of(replace(analysis, chain=replace(analysis.chain, play=None)))
