"""The key ideas: the forcing player's decisions said with the solution's melds, on generated
puzzles (classic, from `generator make`), and never against the solution."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from puzzles import (
    JOKER,
    Card,
    Decision,
    KeyIdea,
    Meld,
    MeldKind,
    Position,
    decisions_of,
    key_ideas,
    maximum,
    meld_problem,
    parse_cards,
    play_of,
)
from puzzles._forcing import open_values
from puzzles._key import KeyIdeaError, _joker_line, _placed, _stand_ins, stands_otherwise
from puzzles._solver import reaches_otherwise

MASTER = (
    "classic | 3S 3D 3C / 6H 6D 6C / 9S 9H 9D / QS QH QC / 6S 7S 8S / 3H 4H 5H / 9C 10C JC"
    " | 10S JS 2H 10H JH QH AD 2D 4D 5D 8C 8C"
)
MASTER_SOLUTION = (
    "3S 3H 3C / 6S 6D 6C / 9H 9D 9C / 10S 10H 10C / JS JH JC / QS QH QC / 7S 8S 9S / 4H 5H 6H"
    " / AD 2D 3D 4D 5D"
)
MEDIUM = "classic | 5S 5D 5C / 5H 5D 5C / 9H 9D 9C / 9S 10S JS QS / AH 2H 3H / 2H 3H 4H | 8S 8H 10H JH"
MEDIUM_SOLUTION = "5H 5D 5C / 5S 5D 5C / 9S 9D 9C / 10S JS QS / AH 2H 3H / 2H 3H 4H / 8H 9H 10H JH"
TABLE_FORK = (
    "classic | 4S 4D 4C / 7S 7H 7D / 10S 10D 10C / KH KD KC / 4H 5H 6H / 10H JH QH / 7C 8C 9C"
    " | 7S 9H 9H 2D 3D 5D 6D JD QD 6C JC QC KC"
)
TABLE_FORK_SOLUTION = (
    "4S 4H 4C / 7S 7D 7C / 10S 10H 10D / JH JD JC / QH QD QC / KH KD KC / 5H 6H 7H / 2D 3D 4D 5D 6D"
    " / 8C 9C 10C"
)
JOKERS = (
    "jokers | 5S 5H 5D / 8S 8H 8D 8C / 9S 9H 9D 9C / 10H 10D 10C / JS JH JC / QS QD QC / QS QH QD"
    " | 10S 6H 4D 9D JD KC JK"
)
"""A generated `jokers` Expert (seed 0): the grade's count stops at its limit (at least 4 decisions)."""
JOKERS_SOLUTION = (
    "5S 5H 5D / 8S 8D 8C / 9S 9D 9C / QS QH QD / 10S JS QS / 6H JK 8H / 9H 10H JH / 9D 10D JD QD"
    " / 10C JC QC KC"
)
GERMAN_JOKERS = (
    "german-jokers | 7H 7D 7C / KH KD KC / 5S 6S 7S 8S / 8H 9H 10H / 5D 6D 7D / 9D 10D JD QD / 3C 4C 5C 6C JK"
    " | 10S 10S 4D 3C 8C 9C QC QC KC"
)
"""A generated `german-jokers` Expert (seed 0) whose table joker leaves its run for a set."""
GERMAN_JOKERS_SOLUTION = (
    "7H 7D 7C / 8S 8H 8C / 9H 9D 9C / 10S 10H JK / KH KD KC / 5S 6S 7S / 4D 5D 6D 7D / 10D JD QD"
    " / 3C 4C 5C 6C"
)


def solution_of(text: str) -> list[tuple[object, ...]]:
    return [parse_cards(meld) for meld in text.split(" / ")]


def said(position: str, solution: str) -> list[tuple[str, str]]:
    return [
        (idea.kind, str(idea.words())) for idea in key_ideas(Position.parse(position), solution_of(solution))
    ]


def test_a_fork_the_other_choice_also_wins_is_left_out() -> None:
    # the line's fork "10♠ goes to the set 10♠ 10♥ 10♣, not to a run" is not one: 10♠ J♠ Q♠ on
    # 7♠ 8♠ 9♠, with 10♥ J♥ Q♥ and 10♣ J♣ Q♣, places as many cards; the declines are true
    assert said(MASTER, MASTER_SOLUTION) == [
        ("decline", "Keep 2♥ back, though it fits 3♥ 4♥ 5♥."),
        ("decline", "Keep 8♣ back, though it fits 9♣ 10♣ J♣."),
    ]
    position = Position.parse(MASTER)
    assert reaches_otherwise(position, 8, parse_cards("10S")[0], 1, 0) is True
    assert reaches_otherwise(position, 8, parse_cards("2H")[0], 0, 0) is False


def test_a_fork_comes_first_then_the_declines() -> None:
    # c6m21k9cm0, a Master: 3♠ must split; the line's 7♠ is no fork, 2♠ (open, and proved) takes
    # its place; the decline follows
    position = (
        "classic | 3S 3D 3C / 4S 4H 4C / 5H 5D 5C / 6H 6D 6C / 7S 7D 7C / 8S 8D 8C / 9S 9H 9C / 6H 7H 8H"
        " / 8C 9C 10C / 9H 10H JH / 5C 6C 7C / 5S 6S 7S | 2S 3S 10H JH AD 2D 9D 4C"
    )
    solution = (
        "2S 3S 4S / 5S 6S 7S / 7S 8S 9S / 4H 5H 6H / 6H 7H 8H 9H 10H JH / 9H 10H JH / AD 2D 3D"
        " / 5D 6D 7D 8D 9D / 3C 4C 5C 6C 7C 8C 9C 10C / 4C 5C 6C 7C 8C 9C"
    )
    assert said(position, solution) == [
        ("fork", "One 3♠ goes to the run 2♠ 3♠ 4♠; keep the other in the hand."),
        ("fork", "2♠ goes to the run 2♠ 3♠ 4♠."),
        ("decline", "9♦ goes to 5♦ 6♦ 7♦ 8♦ 9♦, not onto 9♠ 9♥ 9♣."),
    ]


def test_no_other_kind_is_named_where_none_could_take_the_card() -> None:
    # c0a21k9cli: no other four is anywhere, so 4♦ has no set to refuse
    position = (
        "classic | AH AD AC / 2S 2H 2D 2C / 6S 6H 6D 6C / 10S 10H 10D / JH JD JC / QS QH QD"
        " / KS KH KD KC / 9H 10H JH QH KH | 4D 5D 7D 7C 8C"
    )
    solution = (
        "AH AD AC / 2S 2H 2D 2C / 6S 6H 6C / 10S 10H 10D / JH JD JC / QS QH QD / KS KH KD KC"
        " / 9H 10H JH QH KH / 4D 5D 6D 7D"
    )
    assert said(position, solution) == [("fork", "4♦ goes to the run 4♦ 5♦ 6♦ 7♦.")]


def test_no_more_ideas_than_decisions() -> None:
    # cn4c3a2w6, an Easy of one decision: the only line that agrees with the solution has four
    position = (
        "classic | 3S 3D 3C / 5H 5D 5C / 7S 7H 7C / 4S 5S 6S / 7H 8H 9H / 4D 5D 6D 7D 8D / 6D 7D 8D"
        " / 10D JD QD / 4C 5C 6C / 6C 7C 8C | 2S 8S 6H 8H 2D 2D 3C 8C 10C"
    )
    solution = (
        "5H 5D 5C / 7S 7H 7C / 8S 8H 8C / 2S 3S 4S 5S 6S / 6H 7H 8H 9H / 2D 3D 4D 5D 6D 7D 8D / 6D 7D 8D"
        " / 10D JD QD / 3C 4C 5C 6C / 6C 7C 8C"
    )
    assert said(position, solution) == [("fork", "2♠ goes to the run 2♠ 3♠ 4♠ 5♠ 6♠.")]


def test_a_true_fork_the_line_left_unsaid_fills_a_dropped_ones_place() -> None:
    # cp21k9co9, an Easy of two decisions: the line's 6♣ to a run is no fork (6♣ may as well stay
    # in the sixes, 6♠ 7♠ 8♠ making the run); 8♠, which the forced moves leave open, must leave its run
    position = "classic | 6S 6H 6D 6C / 8H 8D 8C / 9H 9D 9C / JS JD JC / KH KD KC / 7S 8S 9S | 7H 7D JD 7C 8C"
    solution = "6S 6H 6D / 7S 7H 7D / 8S 8H 8D 8C / 9S 9H 9D 9C / JS JD JC / KH KD KC / 6C 7C 8C"
    assert said(position, solution) == [
        ("fork", "7♠ goes to the set 7♠ 7♥ 7♦, not to a run."),
        ("fork", "8♠ goes to the set 8♠ 8♥ 8♦ 8♣, not to a run."),
    ]
    assert set(open_values(Position.parse(position), 4)[parse_cards("8S")[0]]) == {(1, 0, 0), (0, 1, 0)}


def test_both_copies_are_said_where_both_must_go() -> None:
    # c8m21k9clw: the J♠ of J♠ Q♠ K♠ must leave it for a set too
    position = (
        "classic | 5S 5H 5D / 6S 6H 6C / JS JH JC / QS QD QC / QH QD QC / KS KD KC / KH KD KC / JS QS KS"
        " / JH QH KH | 4S 4H 6H 9H 2D 3D 4D 5D 7C 8C 9C JC"
    )
    solution = (
        "JS JH JC / JS JH JC / QS QH QD QC / QS QH QD QC / KS KH KD KC / KS KH KD KC / 4S 5S 6S / 4H 5H 6H"
        " / 2D 3D 4D 5D / 6C 7C 8C 9C"
    )
    assert said(position, solution) == [
        ("fork", "4♠ goes to the run 4♠ 5♠ 6♠, not to a set."),
        ("fork", "Both J♠ end in sets (J♠ J♥ J♣), the one in J♠ Q♠ K♠ too."),
    ]


def test_one_copy_moving_is_said_as_one() -> None:
    # c6e21k9co7: both 7♥ end in sets, but the table's stays in its four: only the hand's moves
    position = (
        "classic | 8S 8D 8C / 5S 6S 7S 8S / 2D 3D 4D 5D 6D / 5C 6C 7C 8C 9C 10C JC QC KC / 7S 7H 7D 7C"
        " / 3S 4S 5S / 4C 5C 6C | 6S 9S 3H 7H 9D QD 2C 2C JC"
    )
    solution = (
        "5S 5D 5C / 6S 6D 6C / 7H 7D 7C / 7S 7H 7C / 8S 8D 8C / 3S 4S 5S 6S 7S 8S 9S / 2D 3D 4D / 4C 5C 6C"
        " / 8C 9C 10C JC / JC QC KC"
    )
    assert said(position, solution)[0] == ("fork", "7♥ goes to the set 7♥ 7♦ 7♣.")


def test_a_card_laid_comes_before_a_card_kept_among_the_true_forks() -> None:
    # c0a4c3a2vh: the line's 10♦ is no fork; of the open cards proved, 4♦ (laid) is said, not 3♠
    # (kept: the puzzle's one best hand says that alone)
    position = (
        "classic | 4S 4H 4D 4C / 9S 9H 9D 9C / 9S 9H 9D 9C / 10S 10D 10C / 10S 10H 10C / QH QD QC / JD QD KD"
        " | 3S 5S 3D 5D 6D 10D"
    )
    solution = (
        "4S 4H 4C / 9S 9H 9D 9C / 9S 9H 9D 9C / 10S 10D 10C / 10S 10H 10C / QH QD QC / 3D 4D 5D 6D"
        " / 10D JD QD KD"
    )
    assert said(position, solution) == [
        ("fork", "3♦ goes to the run 3♦ 4♦ 5♦ 6♦."),
        ("fork", "4♦ goes to the run 3♦ 4♦ 5♦ 6♦, not to a set."),
    ]


def test_the_new_fields_round_trip_and_old_ideas_still_read() -> None:
    idea = KeyIdea(
        "fork",
        parse_cards("JS")[0],
        parse_cards("JS JH JC"),
        MeldKind.SET,
        None,
        MeldKind.RUN,
        2,
        0,
        parse_cards("JS QS KS"),
    )
    assert KeyIdea.from_json(idea.to_json()) == idea
    old = {"kind": "fork", "card": "4D", "home": ["4D", "5D", "6D"], "home_kind": "run", "instead": None}
    assert KeyIdea.from_json(old).to_json() == old
    with pytest.raises(KeyIdeaError, match="copies"):
        KeyIdea.from_json({**old, "copies": "two"})
    joker = KeyIdea("fork", JOKER, parse_cards("10D JD JK"), MeldKind.RUN, None, stands_for=Card.parse("QD"))
    assert KeyIdea.from_json(joker.to_json()) == joker
    # a joker's idea stored before its card was checked says only where it goes
    before = {key: value for key, value in joker.to_json().items() if key != "stands_for"}
    assert str(KeyIdea.from_json(before).words()) == "🃏 goes to the run 10♦ J♦ 🃏, not to a set."
    for wrong in ("QS", "JD"):
        with pytest.raises(KeyIdeaError, match="stands_for"):
            KeyIdea.from_json({**joker.to_json(), "stands_for": wrong})


def test_a_decline_names_the_meld_the_card_fits_as_it_lies() -> None:
    assert said(MEDIUM, MEDIUM_SOLUTION) == [("decline", "Keep 8♠ back, though it fits 9♠ 10♠ J♠ Q♠.")]


def test_a_table_card_that_changes_kind_is_a_fork() -> None:
    # J♥ lies in the run 10♥ J♥ Q♥ and ends in the jacks' set
    # (the line's own fork is left out of the puzzle's ideas: J♥ may as well stay in its run)
    position = Position.parse(TABLE_FORK)
    table = tuple(Meld.of(meld, position.rules) for meld in solution_of(TABLE_FORK_SOLUTION))
    first = _placed(position, table, Decision(parse_cards("JH")[0], 1, 0, 0))
    assert first is not None
    assert (first.kind, str(first.words())) == ("fork", "J♥ goes to the set J♥ J♦ J♣, not to a run.")
    assert said(TABLE_FORK, TABLE_FORK_SOLUTION) == [
        ("decline", "Keep 9♥ back, though it fits 10♥ J♥ Q♥."),
        ("decline", "Keep 6♣ back, though it fits 7♣ 8♣ 9♣."),
    ]


def test_a_hand_card_sent_elsewhere_than_its_obvious_meld() -> None:
    # 6♠ fits 7♠ 8♠ 9♠ as it lies; the decision sends it to the sixes instead (6♠ fits the sixes
    # too, so the forcing player calls it a fork: the kind is the line's, the words the table's)
    position = Position.parse("classic | 7S 8S 9S / 6H 6D 6C | 6S")
    table = [Meld.parse("6S 6H 6D 6C", position.rules), Meld.parse("7S 8S 9S", position.rules)]
    for kind in ("decline", "fork"):
        idea = _placed(position, tuple(table), Decision(parse_cards("6S")[0], 1, 0, 0, kind))
        assert idea is not None and idea.kind == kind
        assert str(idea.words()) == "6♠ goes to 6♠ 6♥ 6♦ 6♣, not onto 7♠ 8♠ 9♠."


def test_a_decision_the_solution_contradicts_is_left_out() -> None:
    position = Position.parse("classic | 7S 8S 9S / 6H 6D 6C | 6S")
    table = (Meld.parse("6S 7S 8S 9S", position.rules), Meld.parse("6H 6D 6C", position.rules))
    # the decision says a set, the solution lays 6♠ on the run: no words for it
    assert _placed(position, table, Decision(parse_cards("6S")[0], 1, 0, 0)) is None
    assert _placed(position, table, Decision(parse_cards("6S")[0], 0, 0, 1)) is None


def test_a_free_choice_is_no_key_idea() -> None:
    # a decision whose other home wins as well (the forcing player's "choice") is said by no words
    position = Position.parse("classic | 7S 8S 9S / 6H 6D 6C | 6S")
    table = (Meld.parse("6S 7S 8S 9S", position.rules), Meld.parse("6H 6D 6C", position.rules))
    six = parse_cards("6S")[0]
    assert _placed(position, table, Decision(six, 0, 1, 0)) is not None
    assert _placed(position, table, Decision(six, 0, 1, 0, kind="choice")) is None


def check_agrees(parsed: Position, final: list[tuple[object, ...]]) -> None:
    """Every idea is true of this solution: its home holds the card, a kept card stays in the hand,
    a declined card is a hand card that fits the meld named as it lies."""
    rules = parsed.rules
    play = play_of(parsed, [Meld.of(meld, rules) for meld in final])
    left = Counter(play.hand_after(parsed))
    for idea in key_ideas(parsed, final):
        said = str(idea.words())
        if idea.home is None:
            assert left[idea.card], said
        else:
            assert idea.card in idea.home, said
            assert any(Counter(idea.home) == Counter(Meld.of(meld, rules).cards) for meld in final)
            assert idea.home_kind is (
                MeldKind.SET if len({c.rank for c in idea.home if not c.is_joker}) == 1 else MeldKind.RUN
            )
        if idea.kind == "decline":
            assert idea.card in parsed.hand, "only a hand card has an obvious move to decline"
        if idea.instead is not None:
            assert idea.card in parsed.hand
            assert any(idea.instead == meld.cards for meld in parsed.table)
            assert meld_problem((*idea.instead, idea.card), rules) is None


@pytest.mark.parametrize(
    "text",
    [
        MASTER,
        MEDIUM,
        TABLE_FORK,
        "classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C",
        "jokers | 3S 4S 5S / 7H 7D 7C | JK 9D",
        "jokers | 2S 2D 2C / 3S 3D 3C / 6S 6D 6C / 7S 7D 7C / 8H 8D 8C / QS QH QC"
        " | 5S 6S 9H 10H 3D 5D QD 5C JK",
        "jokers | JS JH JD / QS QH QD QC / 3H 4H 5H / 7H 8H 9H 10H JH QH KH / 7H JK 9H 10H / 2D 3D 4D"
        " / 9D 10D JD / AC 2C 3C | AS 2S 4S 5S AH 4H 6D 5C 5C JC",
    ],
)
def test_the_key_ideas_of_the_solvers_own_play_are_true_of_it(text: str) -> None:
    # the solver's play, not a stored one: the line is asked to agree with whichever play is shown
    position = Position.parse(text)
    best = maximum(position, time_limit=20.0)
    final = [meld.cards for meld in best.play.table]
    assert key_ideas(position, final), "each of these positions needs a decision"
    check_agrees(position, final)


def test_a_joker_says_which_card_it_stands_for_then_the_decisions_it_leaves() -> None:
    # the grade's count finds no line within JOKER_NODE_LIMIT; with the joker placed, two declines do,
    # and a card the forced moves leave open fills the fourth decision the grade proved
    assert said(JOKERS, JOKERS_SOLUTION) == [
        ("fork", "The joker stands for 7♥ in the run 6♥ 🃏 8♥."),
        ("fork", "J♠ goes to the run 10♠ J♠ Q♠, not to a set."),
        ("decline", "10♠ goes to 10♠ J♠ Q♠, not onto 10♥ 10♦ 10♣."),
        ("decline", "J♦ goes to 9♦ 10♦ J♦ Q♦, not onto J♠ J♥ J♣."),
    ]


def test_a_jokers_place_that_another_best_play_changes_is_no_key() -> None:
    # the solution moves the table joker to 10♠ 10♥ 🃏, but 10♠ 10♥ 10♦ with the joker in J♦ Q♦ 🃏
    # places as many cards: "🃏 goes to the set, not to a run" would not be true (j8m1tytgqz's kind)
    position = Position.parse(GERMAN_JOKERS)
    best = maximum(position, time_limit=20.0)
    assert reaches_otherwise(position, best.placed, JOKER, 1, 0) is True
    # in its place, cards whose every other end loses one fill the three decisions the grade proved
    assert said(GERMAN_JOKERS, GERMAN_JOKERS_SOLUTION) == [
        ("fork", "8♠ goes to the set 8♠ 8♥ 8♣, not to a run."),
        ("fork", "One 10♠ goes to the set 10♠ 10♥ 🃏; keep the other in the hand."),
        ("decline", "8♣ goes to 8♠ 8♥ 8♣, not onto 3♣ 4♣ 5♣ 6♣ 🃏."),
    ]
    assert decisions_of(position, best.placed).at_least == 3


def test_a_table_joker_that_stays_where_it_lies_is_no_fork() -> None:
    # the joker's run is only extended: it stands for 9♦ before and after
    position = Position.parse("jokers | 8D JK 10D / 5S 5H 5C | JD 5D 7D")
    final = tuple(Meld.parse(meld, position.rules) for meld in ("7D 8D JK 10D JD", "5S 5H 5D 5C"))
    assert _joker_line(position, final, 3) == []
    # moved to a set, it is one
    position = Position.parse("jokers | 8D JK 10D JD / 5S 5H 5C | 9D")
    final = tuple(Meld.parse(meld, position.rules) for meld in ("8D 9D 10D JD", "5S 5H 5C JK"))
    moved = _joker_line(position, final, 1)
    assert moved is not None and moved[0] == KeyIdea("fork", JOKER, final[1].cards, MeldKind.SET, None)


TWO_RUN_JOKERS = (
    "jokers | 5H 5D 5C / 6S 6H 6C / 7S 7H 7C JK / 10S 10H 10D / 5C 6C 7C 8C 9C / 4H 5H 6H 7H 8H 9H"
    " / 9H JK JH QH | 9S 9S 10H 6D 7D JD 8C"
)
"""A generated `jokers` Expert (j6e1vtm8zy, seed 3911) whose solution lays both jokers at a run's end."""
TWO_RUN_JOKERS_SOLUTION = (
    "5H 5D 5C / 6S 6H 6D / 7S 7H 7D / 9S 9H 9C / 9S 10S JK / 4H 5H 6H 7H 8H 9H 10H / 10H JH QH"
    " / 10D JD JK / 5C 6C 7C 8C / 6C 7C 8C"
)


def test_a_jokers_card_another_best_play_fills_otherwise_is_not_named() -> None:
    # 6♠ 7♠ 🃏 9♠ 10♠ with 10♦ J♦ 🃏 places as many: no joker can stand for J♠ there, so "the joker
    # stands for J♠" is not true; both plays have a joker that can stand for Q♦ (🃏 at a run's end)
    position = Position.parse(TWO_RUN_JOKERS)
    placed = play_of(
        position, [Meld.of(meld, position.rules) for meld in solution_of(TWO_RUN_JOKERS_SOLUTION)]
    )
    assert stands_otherwise(position, placed.placed, Card.parse("JS"), 1) is True
    assert stands_otherwise(position, placed.placed, Card.parse("QD"), 1) is False
    ideas = said(TWO_RUN_JOKERS, TWO_RUN_JOKERS_SOLUTION)
    assert ("fork", "🃏 goes to the run 9♠ 10♠ 🃏, not to a set.") in ideas
    assert ("fork", "The joker stands for Q♦ in the run 10♦ J♦ 🃏.") in ideas
    assert not any("J♠ in the run" in text for _, text in ideas)


@pytest.mark.parametrize(
    ("meld", "card"),
    [("QH KH JK", "AH"), ("AH JK 3H", "2H"), ("JK 5C 6C", "4C"), ("5C 6C JK", "7C")],
)
def test_a_run_joker_names_its_card_by_its_place(meld: str, card: str) -> None:
    rules = Position.parse("jokers | QH KH AH | JK").rules
    assert rules.ace_high
    run = Meld.parse(meld, rules)
    (stands_for,) = _stand_ins((run,))
    assert stands_for == Card.parse(card)
    idea = KeyIdea("fork", JOKER, run.cards, MeldKind.RUN, None, stands_for=stands_for)
    assert str(idea.words()) == f"The joker stands for {stands_for.pretty()} in the run {run.pretty()}."
    # not proved, only where it goes is said
    unproved = replace(idea, stands_for=None)
    assert str(unproved.words()) == f"🃏 goes to the run {run.pretty()}, not to a set."


@pytest.mark.parametrize(
    ("position", "solution"),
    [
        (MASTER, MASTER_SOLUTION),
        (MEDIUM, MEDIUM_SOLUTION),
        (TABLE_FORK, TABLE_FORK_SOLUTION),
        (JOKERS, JOKERS_SOLUTION),
        (GERMAN_JOKERS, GERMAN_JOKERS_SOLUTION),
    ],
)
def test_every_idea_agrees_with_the_solution(position: str, solution: str) -> None:
    parsed = Position.parse(position)
    assert key_ideas(parsed, solution_of(solution)), "each of these puzzles has a key idea"
    check_agrees(parsed, solution_of(solution))


def test_a_solution_stored_with_untouched_runs_joined_is_said_with_them_apart() -> None:
    # a jokers Medium (j8m21k9cln) whose stored solution joined 10♥ J♥ Q♥, which it never touches
    position = Position.parse(
        "jokers | 3H 3D JK / 5S 5H 5D 5C / 10S 10H 10C / 4S 5S 6S / 5H 6H 7H 8H 9H / 10H JH QH"
        " / 2D 3D 4D 5D 6D / 3C 4C 5C 6C | 8S 3H AC JK"
    )
    apart = "3H 3D 3C / 5S 5H 5D 5C / 10S 10H 10C / 4S 5S 6S JK 8S / 3H JK 5H 6H 7H 8H 9H / 10H JH QH"
    apart += " / 2D 3D 4D 5D 6D / 4C 5C 6C"
    joined = apart.replace("9H / 10H", "9H 10H")
    melds = [[*parse_cards(meld)] for meld in joined.split(" / ")]
    ideas = key_ideas(position, melds)
    assert ideas == key_ideas(position, [[*parse_cards(meld)] for meld in apart.split(" / ")])
    # the hearts run is named as it lies apart from 10♥ J♥ Q♥ (the jokers' places are no key here:
    # another best play splits them otherwise between sets and runs)
    assert "3♥ goes to the run 3♥ 🃏 5♥ 6♥ 7♥ 8♥ 9♥, not to a set." in [str(idea.words()) for idea in ideas]


def test_a_card_laid_onto_a_part_of_the_meld_it_fits_is_not_sent_elsewhere() -> None:
    # 4♠ and J♠ fit 5♠ ... 10♠ as it lies, and go there: the run is cut after 7♠, each end keeps a
    # part of it. "Not onto 5♠ ... 10♠" would say the opposite of what the cards do
    position = Position.parse("classic | 5S 6S 7S 8S 9S 10S / 8H 8D 8C | 4S JS")
    melds = ("4S 5S 6S 7S", "8S 8H 8D 8C", "9S 10S JS")
    table = tuple(Meld.parse(meld, position.rules) for meld in melds)
    four = _placed(position, table, Decision(Card.parse("4S"), 0, 1, 0))
    assert four is not None and four.instead is None
    assert str(four.words()) == "4♠ goes to the run 4♠ 5♠ 6♠ 7♠."
    jack = _placed(position, table, Decision(Card.parse("JS"), 0, 1, 0))
    assert jack is not None and jack.instead is None
