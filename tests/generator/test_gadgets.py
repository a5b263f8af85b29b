"""Methods 5m, 5p, 5q and 5t: Masters with a fork gadget planted (`generator._gadgets`, issue 38 item 4)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from generator import PuzzleId
from generator._gadgets import (
    PLANTERS,
    Gadget,
    fits,
    gadget,
    givers,
    planted,
    planted_plain,
    planted_real,
    touches,
    with_gadget,
)
from generator._ladder import _made_figure
from generator._make import REPLAY_TIME_LIMIT, attempt, forks_enough, judged
from generator._methods import FINISHED_SEARCHES, GADGETS, LADDERS, METHODS, SEARCHES
from generator._search import STYLES
from generator._shapes import is_figure
from puzzles import Meld, Position, Rules, analyse, decisions_of, parse_cards
from tests.generator.masters import check_pinned_master

MASTER = "c5m6v804"
"""A 5m Master (seed 11): an Expert's real fork, a gadget's beside it (J♥ or J♦ leaves the jacks)."""
PLAIN_MASTER = "c5p6v804"
"""A 5p Master (seed 11): two real forks, on a table the climb kept from becoming a figure."""
DEEPER_MASTER = "c5q6v845"
"""A 5q Master (seed 11) of 4 decisions: its climb met a Master of 3 and climbed on for a fourth."""
LINKED_MASTER = "c5t6v7zc"
"""A 5t Master (seed 11) from 2e's chain of links: Q♦ leaves the queens for 10♦ J♦ K♦, and the clubs,
eights, diamonds and fives pass a card each down to 3♥ 4♥ 6♥."""

RULES = Rules.named("classic")


def test_five_m_plants_a_fork_and_is_finished_as_two_m() -> None:
    assert SEARCHES["5m"] == "master"
    assert "5m" in GADGETS and "5m" not in LADDERS
    assert "5m" in FINISHED_SEARCHES
    assert STYLES["5m"].prune and STYLES["5m"].prune_later
    # 2m's starts, drawn the same way: the gadget comes after the Expert search
    for seed in range(20):
        assert METHODS["5m"](RULES, random.Random(seed)) == METHODS["2m"](RULES, random.Random(seed))


def test_five_p_is_five_m_whose_climb_makes_no_figure() -> None:
    assert SEARCHES["5p"] == "master"
    assert "5p" in GADGETS and "5p" in FINISHED_SEARCHES
    assert STYLES["5p"] == STYLES["5m"]
    assert METHODS["5p"] is METHODS["5m"]
    # 5m plants and climbs as it always did, so that its IDs replay
    assert PLANTERS["5m"] is planted and set(PLANTERS) == GADGETS


def test_five_q_is_five_p_whose_climb_wants_real_forks_and_a_decision_more() -> None:
    assert SEARCHES["5q"] == "master"
    assert "5q" in GADGETS and "5q" in FINISHED_SEARCHES
    assert STYLES["5q"] == STYLES["5p"]
    assert METHODS["5q"] is METHODS["5p"]
    assert PLANTERS["5p"] is planted_plain and PLANTERS["5q"] is not planted_plain


def test_five_t_is_five_q_from_two_e_starts() -> None:
    assert SEARCHES["5t"] == "master"
    assert "5t" in GADGETS and "5t" in FINISHED_SEARCHES
    assert STYLES["5t"] == STYLES["5q"]
    assert PLANTERS["5t"] is PLANTERS["5q"] is planted_real
    # 2e's chains of varied links, not 2m's starts that 5m, 5p and 5q draw
    assert METHODS["5t"] is METHODS["2e"] and METHODS["5q"] is METHODS["2m"]
    draw = [(METHODS[letter](RULES, random.Random(seed)) for letter in ("5t", "5q")) for seed in range(20)]
    assert any(links != chains for links, chains in draw)


def test_a_change_makes_a_figure_only_from_a_table_that_was_none() -> None:
    plain = Position.parse("classic | 4S 4H 4D / 5S 5H 5C / 9H 10H JH | 6H 6D 6C")
    figure = Position.parse("classic | 4S 4H 4D / 5S 5H 5C / 6H 6D 6C | 9H")
    wider = Position.parse("classic | 4S 4H 4D / 5S 5H 5C / 6H 6D 6C / 7S 7H 7D | 9H")
    assert not is_figure(plain.table) and is_figure(figure.table)
    assert _made_figure(plain, figure)
    # a table that is a figure already, changed, is not made one (pruning may yet take it off)
    assert not _made_figure(figure, wider) and not _made_figure(figure, plain)
    assert not _made_figure(plain, plain)


def _alone(drawn: Gadget) -> Position:
    return with_gadget(Position(RULES, (), ()), drawn)


def test_every_gadget_drawn_forks_once_on_its_own() -> None:
    """Alone, each gadget is a puzzle of one best play whose forcing line forks once: which card of
    the set leaves for the hand's run that its decider lengthens; any other decision is a decline."""
    kinds: Counter[tuple[int, int]] = Counter()
    drawn_count = 0
    for seed in range(120):
        drawn = gadget(random.Random(seed))
        if drawn is None:
            continue
        drawn_count += 1
        position = _alone(drawn)
        analysis = analyse(position, time_limit=30)
        assert analysis.proven and analysis.uniqueness.unique is True
        assert analysis.best.placed >= 3
        forcing = decisions_of(position, analysis.best.placed)
        assert forcing.forks == 1
        assert all(decision.kind in ("fork", "decline") for decision in forcing.line)
        kinds[(len(drawn.melds), max(len(meld) for meld in drawn.melds))] += 1
    assert drawn_count >= 60
    # a set of four alone, or a set of three with a run of four or five that gives its end card
    assert set(kinds) == {(1, 4), (2, 4), (2, 5)}


@pytest.mark.parametrize("run", ["4C 5C 6C 7C", "6H 7H 8H 9H 10H", "2D 3D 4D 5D 6D 7D"])
def test_a_gadget_whose_giver_is_a_table_run_forks_once_on_it(run: str) -> None:
    """On a table's run of four or more, a gadget may bring only the set: the run gives its end card."""
    giver = Meld.of(parse_cards(run), RULES)
    table = Position(RULES, (giver,), ())
    seen = 0
    for seed in range(80):
        drawn = gadget(random.Random(seed), givers(table))
        if drawn is None or drawn.giver is None:
            continue
        seen += 1
        assert drawn.giver == giver and len(drawn.melds) == 1
        position = with_gadget(table, drawn)
        analysis = analyse(position, time_limit=30)
        assert analysis.proven and analysis.uniqueness.unique is True
        assert decisions_of(position, analysis.best.placed).forks == 1
    assert seen >= 5


def test_the_classic_gadget_of_rules_md_forks() -> None:
    position = Position.parse("classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C")
    forcing = decisions_of(position, analyse(position, time_limit=30).best.placed)
    assert (forcing.decisions, forcing.forks) == (2, 1)


def test_a_gadget_fits_only_beside_cards_the_decks_still_hold() -> None:
    drawn = Gadget((tuple(parse_cards("7S 7H 7D 7C")),), tuple(parse_cards("5S 6S 5H 6H 8H")))
    empty = Position(RULES, (), ())
    assert fits(empty, drawn) and touches(empty, drawn) == 0
    # both copies of 8H already out: the decider has none left
    full = Position(RULES, (Meld.of(parse_cards("8H 9H 10H"), RULES),), tuple(parse_cards("8H")))
    assert not fits(full, drawn)
    assert touches(full, drawn) > 0
    far = Position(RULES, (Meld.of(parse_cards("JC QC KC"), RULES),), ())
    assert fits(far, drawn) and touches(far, drawn) == 0
    planted = with_gadget(far, drawn)
    assert planted.table[0] == far.table[0] and len(planted.table) == 2
    assert Counter(planted.hand) == Counter(drawn.hand)


@pytest.mark.slow  # a master searched from scratch
def test_a_five_m_master_forks_twice_and_replays_from_its_id() -> None:
    check_pinned_master(MASTER)
    # both forks real: neither lays a card in its one home with nothing competing for it
    weighed = judged(attempt(PuzzleId.parse(MASTER), REPLAY_TIME_LIMIT))
    assert weighed.real_forks is not None and weighed.real_forks >= 2 and forks_enough(weighed)


@pytest.mark.slow  # a master searched from scratch
def test_a_five_p_master_forks_twice_on_no_figure_and_replays_from_its_id() -> None:
    check_pinned_master(PLAIN_MASTER)
    weighed = judged(attempt(PuzzleId.parse(PLAIN_MASTER), REPLAY_TIME_LIMIT))
    assert weighed.puzzle is not None and forks_enough(weighed)
    position = weighed.puzzle.position()
    assert not is_figure(position.table, position.rules.top_position)


@pytest.mark.slow  # a master searched from scratch, twice
def test_a_five_q_master_climbs_on_past_three_decisions_and_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    check_pinned_master(DEEPER_MASTER)
    weighed = judged(attempt(PuzzleId.parse(DEEPER_MASTER), REPLAY_TIME_LIMIT))
    assert weighed.puzzle is not None and forks_enough(weighed)
    assert weighed.puzzle.decisions == 4
    # the same attempt with 5p's climb, which stops at the first Master it meets, counts 3
    monkeypatch.setitem(PLANTERS, "5q", planted_plain)
    stopped = attempt(PuzzleId.parse(DEEPER_MASTER), REPLAY_TIME_LIMIT).puzzle
    assert stopped is not None and stopped.tier == "master" and stopped.decisions == 3


@pytest.mark.slow  # a master searched from scratch
def test_a_five_t_master_forks_twice_from_a_chain_of_links_and_replays() -> None:
    check_pinned_master(LINKED_MASTER)
    weighed = judged(attempt(PuzzleId.parse(LINKED_MASTER), REPLAY_TIME_LIMIT))
    assert weighed.puzzle is not None and forks_enough(weighed)
    assert weighed.puzzle.decisions == 4
    position = weighed.puzzle.position()
    assert not is_figure(position.table, position.rules.top_position)
