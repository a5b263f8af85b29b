"""What the player is told names the forks a strong player feels (issue 38 items 1 and 7): a run's
judged line carries its real forks, its key ideas say which forks are weak, lead with a real one
("The key: ..."), and the hint ladder's first rung names a real fork's card, never a weak one's."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from generator import Puzzle, PuzzleError, verify
from generator._make import judged
from puzzles import (
    Board,
    Card,
    KeyIdea,
    KeyIdeaError,
    Meld,
    MeldKind,
    hint,
    key_card,
    mark_weak,
    parse_cards,
    plan_steps,
    play_of,
    shown_ideas,
    the_key,
)
from tests.generator.test_weak_forks import ACES, TWO_OF_SPADES, accepted

REAL = "J♠ goes to the set J♠ J♥ J♦, not to a run."
WEAK = "2♠ goes to 2♠ 3♠ 4♠, its only home: nothing else competes for it."


@pytest.fixture(scope="module")
def master() -> Puzzle:
    """`c9m1vndi4v` judged as a run judges it: 2♠ a weak fork, J♠ (a table card) a real one."""
    weighed = judged(accepted(*TWO_OF_SPADES))
    assert weighed.puzzle is not None
    return weighed.puzzle


def test_the_line_carries_its_real_forks_and_reads_back(master: Puzzle) -> None:
    assert (master.forks, master.real_forks) == (2, 1)
    line = master.to_json()
    assert line["real_forks"] == 1
    assert Puzzle.from_json(json.loads(json.dumps(line))) == master
    with pytest.raises(PuzzleError, match="real_forks is 3, more than the 2 forks"):
        Puzzle.from_json({**line, "real_forks": 3})
    # a line written before the forks were judged reads as it did: no real forks, every fork real
    old = {key: value for key, value in line.items() if key != "real_forks"}
    old["key_ideas"] = [{k: v for k, v in idea.items() if k != "weak"} for idea in line["key_ideas"]]
    before = Puzzle.from_json(old)
    assert before.real_forks is None and before.key_ideas is not None
    assert all(idea.weak is None for idea in before.key_ideas)


def test_the_key_is_the_real_fork_and_the_weak_one_is_said_plainly_last(master: Puzzle) -> None:
    ideas = master.key_ideas
    assert ideas is not None
    assert [(idea.kind, str(idea.card), idea.weak) for idea in ideas] == [
        ("fork", "JS", False),
        ("decline", "3D", None),
        ("fork", "2S", True),
    ]
    assert the_key(ideas) == ideas[0] and key_card(ideas) == ideas[0]
    position = master.position()
    solution = [Meld.of(parse_cards(meld), position.rules) for meld in master.solution]
    said = [
        str(line) for line in shown_ideas(position, plan_steps(position, play_of(position, solution)), ideas)
    ]
    assert said == [f"The key: {REAL}", "Keep 3♦ back, though it fits 4♦ 5♦ 6♦.", WEAK]
    assert not ideas[2].names_a_choice


def test_the_first_rung_names_the_real_forks_card_without_where_it_goes(master: Puzzle) -> None:
    assert master.key_ideas is not None
    position = master.position()
    board = Board.start(position)
    solution = [list(parse_cards(meld)) for meld in master.solution]
    first = hint(board, 1, solution, 60.0, key_card(master.key_ideas))
    assert str(first.words) == "J♠ is the key card: think about where it goes."
    (card_id,) = first.card_ids
    assert board.cards()[card_id] == Card.parse("JS") and first.meld is None


def fork(card: str, home: str, kind: MeldKind, rival: MeldKind | None = None) -> KeyIdea:
    return KeyIdea("fork", Card.parse(card), parse_cards(home), kind, None, rival)


def test_a_weak_fork_that_names_a_choice_is_no_key_card_nor_the_key() -> None:
    # as the engine lists them: the weak fork first, naming the run it refuses
    weak = fork("5H", "5S 5H 5D", MeldKind.SET, MeldKind.RUN)
    real = fork("7S", "5S 6S 7S", MeldKind.RUN)
    decline = KeyIdea("decline", Card.parse("8C"), None, None, parse_cards("9C 10C JC"))
    unjudged = (weak, real, decline)
    # not judged: every fork reads as real, as before, and none is called "The key"
    assert key_card(unjudged) == weak and the_key(unjudged) is None
    marked = mark_weak(unjudged, [Card.parse("5H")])
    assert [(str(idea.card), idea.weak) for idea in marked] == [("7S", False), ("8C", None), ("5H", True)]
    # the real fork names no choice: the decline is the key card, and nothing is called "The key"
    assert key_card(marked) == decline and the_key(marked) is None
    named = mark_weak((weak, fork("7S", "5S 6S 7S", MeldKind.RUN, MeldKind.SET), decline), [Card.parse("5H")])
    assert key_card(named) == named[0] == the_key(named) and str(named[0].card) == "7S"
    # a weak fork alone: no key card (the first rung names the meld to break), said plainly
    alone = mark_weak((weak,), [Card.parse("5H")])
    assert key_card(alone) is None and the_key(alone) is None
    assert str(alone[0].words()) == "5♥ goes to 5♠ 5♥ 5♦, its only home: nothing else competes for it."


def test_the_weak_flag_round_trips_and_is_checked() -> None:
    weak = mark_weak((fork("5H", "5S 5H 5D", MeldKind.SET),), [Card.parse("5H")])[0]
    assert weak.to_json()["weak"] is True and KeyIdea.from_json(weak.to_json()) == weak
    decline = {
        "kind": "decline",
        "card": "8C",
        "home": None,
        "home_kind": None,
        "instead": ["9C", "10C", "JC"],
    }
    for wrong in ({**weak.to_json(), "weak": "yes"}, {**decline, "weak": False}):
        with pytest.raises(KeyIdeaError, match="weak"):
            KeyIdea.from_json(wrong)


def test_an_expert_whose_one_fork_is_real_leads_with_it() -> None:
    weighed = judged(accepted(*ACES))
    assert weighed.puzzle is not None and weighed.puzzle.real_forks == 1
    ideas = weighed.puzzle.key_ideas
    assert ideas is not None and ideas[0].kind == "fork" and ideas[0].weak is False
    assert not any(idea.weak for idea in ideas)


def test_verify_proves_a_judged_line_and_names_a_wrong_verdict(master: Puzzle) -> None:
    assert verify(master) == []
    assert verify(replace(master, real_forks=2)) == ["real_forks is 2, but 1 are not weak"]
    assert master.key_ideas is not None
    # the weak fork said as a real one, first: the ideas are not those the judged line says
    wrong = (replace(master.key_ideas[2], weak=False), *master.key_ideas[:2])
    [problem] = verify(replace(master, key_ideas=wrong))
    assert problem.startswith("key_ideas do not say")
