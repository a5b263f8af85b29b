"""The play's own idea on the result card of a puzzle whose key ideas name no choice (most Easy and
Medium puzzles): which melds the shown plan breaks and where their cards go, in its order."""

from __future__ import annotations

from puzzles import (
    KeyIdea,
    Meld,
    MeldKind,
    Position,
    analyse,
    key_ideas,
    parse_cards,
    plan_steps,
    play_ideas,
    play_of,
    shown_ideas,
)
from puzzles._key import PLAY_IDEAS

TIME_LIMIT = 10.0


def said(position: str, solution: str) -> list[str]:
    """The play ideas of a position and a maximal play's final table, in English."""
    start = Position.parse(position)
    table = [Meld.parse(meld, start.rules) for meld in solution.split(" / ")]
    steps = plan_steps(start, play_of(start, table))
    return [str(words) for words in play_ideas(start, steps)]


def test_a_hand_card_that_cuts_a_run_in_two() -> None:
    position = "classic | 2H 3H 4H / 5H 6H 7H / 3C 4C 5C 6C 7C 8C 9C 10C | 6C"
    solution = "2H 3H 4H / 5H 6H 7H / 3C 4C 5C 6C / 6C 7C 8C 9C 10C"
    assert said(position, solution) == [
        "3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ splits into 3♣ 4♣ 5♣ 6♣ and 6♣ 7♣ 8♣ 9♣ 10♣."
    ]


def test_a_set_of_four_gives_a_card_to_a_run() -> None:
    position = "classic | 8S 8H 8D 8C / 2H 3H 4H | 7S 9S 10S 6D"
    assert said(position, "8H 8D 8C / 2H 3H 4H / 7S 8S 9S 10S") == ["8♠ leaves 8♠ 8♥ 8♦ 8♣ for 7♠ 8♠ 9♠ 10♠."]


def test_a_chain_is_said_link_by_link_from_the_hand() -> None:
    # 4♦ leaves the fours for the diamonds; the fours take 4♥ from the middle of the long heart run
    position = "classic | 4S 4D 4C / AH 2H 3H 4H 5H 6H 7H | 2D 3D 5D 6D"
    solution = "4S 4H 4C / AH 2H 3H / 5H 6H 7H / 2D 3D 4D 5D 6D"
    assert said(position, solution) == [
        "4♦ leaves 4♠ 4♦ 4♣ for 2♦ 3♦ 4♦ 5♦ 6♦.",
        "4♥ leaves A♥ 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ for 4♠ 4♥ 4♣.",
    ]


def test_sets_that_turn_into_runs_break_up_into_runs() -> None:
    position = "italian | KH KD KC / QH QD QC / JH JD JC | AC"
    solution = "JH QH KH / JD QD KD / JC QC KC AC"
    assert sorted(said(position, solution)) == [
        f"{rank}♥ {rank}♦ {rank}♣ breaks up into runs." for rank in ("J", "K", "Q")
    ]


def test_no_more_than_the_cap_and_nothing_where_nothing_breaks() -> None:
    # five sets of four each give a card to a run of the hand's: five breaks, said up to the cap
    position = (
        "classic | 3S 3H 3D 3C / 5S 5H 5D 5C / 8S 8H 8D 8C / 10S 10H 10D 10C / JS JH JD JC"
        " | 4H 5H 6D 7D 7S 9S JH QH QC KC"
    )
    solution = (
        "3S 3D 3C / 5S 5H 5C / 8H 8D 8C / 10S 10D 10C / JS JH JD"
        " / 3H 4H 5H / 5D 6D 7D / 7S 8S 9S / 10H JH QH / JC QC KC"
    )
    assert len(said(position, solution)) == PLAY_IDEAS < 5
    # extensions alone break nothing: nothing to say
    position = "classic | 3H 3D 3C / 5H 6H 7H | 3S 8H"
    assert said(position, "3S 3H 3D 3C / 5H 6H 7H 8H") == []


def test_an_easy_puzzle_without_a_fork_shows_its_play() -> None:
    # the solver's own analysis of a one-idea Easy: the shown ideas say which meld gives what
    position = Position.parse("classic | AC 2C 3C 4C 5C / 9S 10S JS | 4C 6C 7C")
    analysis = analyse(position, time_limit=TIME_LIMIT)
    play = analysis.chain.play
    assert play is not None and play.placed == 3
    table = [meld.cards for meld in play.table]
    ideas = key_ideas(position, table)
    assert not any(idea.kind == "fork" and idea.names_a_choice for idea in ideas)
    shown = [str(words) for words in shown_ideas(position, plan_steps(position, play), ideas)]
    assert shown[len(ideas) :] == ["5♣ leaves A♣ 2♣ 3♣ 4♣ 5♣ for 4♣ 5♣ 6♣ 7♣."]


def test_a_fork_that_names_its_choice_is_enough() -> None:
    fork = KeyIdea(
        "fork", parse_cards("10S")[0], parse_cards("10S 10H 10C"), MeldKind.SET, None, MeldKind.RUN
    )
    plain = KeyIdea("fork", parse_cards("7S")[0], parse_cards("7S 8S 9S 10S"), MeldKind.RUN, None)
    decline = KeyIdea("decline", parse_cards("3D")[0], None, None, parse_cards("4D 5D 6D 7D"))
    assert fork.names_a_choice and decline.names_a_choice and not plain.names_a_choice
    position = Position.parse("classic | 8S 8H 8D 8C / 2H 3H 4H | 7S 9S 10S")
    start_table = [Meld.parse(m, position.rules) for m in ("8H 8D 8C", "2H 3H 4H", "7S 8S 9S 10S")]
    steps = plan_steps(position, play_of(position, start_table))
    assert [str(w) for w in shown_ideas(position, steps, (fork,))] == [str(fork.words())]
    for ideas in ((plain,), (decline,), ()):
        shown = [str(w) for w in shown_ideas(position, steps, ideas)]
        assert shown == [*(str(idea.words()) for idea in ideas), "8♠ leaves 8♠ 8♥ 8♦ 8♣ for 7♠ 8♠ 9♠ 10♠."]


def test_cards_that_leave_for_several_melds_are_said_together() -> None:
    position = "classic | 3S 4S 5S 6S 7S 8S / 8H 8D 8C | 7H 7D 6H 6D 6C"
    assert said(position, "3S 4S 5S / 6S 6H 6D 6C / 7S 7H 7D / 8S 8H 8D 8C") == [
        "6♠ 7♠ 8♠ leave 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ for other melds."
    ]
