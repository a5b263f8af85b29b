"""The searching methods (6e, 6m, 6p): Expert and Master that fork, with honest obvious cards, found
by local search from mid-game tables (Expert, and Master by 6p) and recipes, figures and wide tables
(Master by 6m) (issue 38)."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest

from generator import make_puzzle, near_duplicate, puzzle_from_id, verify
from generator._make import REPLAY_TIME_LIMIT, attempt, attempt_id, recipe_for
from generator._methods import FINISHED_SEARCHES, FORKS_BEFORE_SETTLED, METHODS, RECIPES, SEARCHES
from generator._runs import Plan, Tally, generate
from generator._search import (
    CHANGES,
    HOPELESS,
    POLISH,
    STEPS,
    STYLES,
    TABLE_MELDS,
    Style,
    _change,
    _pruned,
    _score,
    graded,
    honest,
    met,
    plain,
)
from generator._shapes import obvious_laid
from puzzles import Meld, Position, Rules, analyse, decisions_of, parse_cards, skill_limited

CHAIN_OF_SEVEN = (
    "classic | 4H 4D 4C / 7S 7D 7C / 10S 10H 10C / KS KH KD KC / 4S 5S 6S / 7H 8H 9H / 10D JD QD | "
    "3S 3S 8S 6H 2D 3D 5D 6D 9D"
)
"""A chain of seven melds whose every decision is a decline (no fork): Hard."""


def test_an_obvious_card_of_the_best_play_is_honest_and_a_trap_alone_is_not() -> None:
    # 6♣ fits the sixes as the table lies; 10♠ fits before J♠ Q♠ K♠
    position = Position.parse("classic | 6S 6H 6D / JS QS KS / 2C 3C 4C | 6C 10S 9H")
    assert obvious_laid(position, parse_cards("6C")) == (2, 1)
    assert honest(position, parse_cards("6C"))
    assert not honest(position, parse_cards("9H"))
    # one placed of four obvious cards is fewer than three in ten
    crowded = Position.parse("classic | 6S 6H 6D / JS QS KS / 2C 3C 4C | 6C 10S 5C AC 9H")
    assert obvious_laid(crowded, parse_cards("6C")) == (4, 1)
    assert not honest(crowded, parse_cards("6C"))


@pytest.mark.parametrize("rules", ["classic", "italian", "german-jokers"])
def test_every_change_leaves_a_legal_position(rules: str) -> None:
    changed = 0
    for seed in range(40):
        rng = random.Random(seed)
        candidate = METHODS["6m"](Rules.named(rules), rng)
        if candidate is None:
            continue
        position = candidate.position
        for change in CHANGES:
            try:
                after = change(position, rng)
            except ValueError:
                continue
            if after is not None:
                # the constructor checks the copies of each card and every meld
                assert isinstance(after, Position) and after.rules == position.rules
                assert after != position
                changed += 1
    assert changed > 50


@pytest.mark.slow  # two masters searched from scratch
def test_searched_masters_fork_twice_keep_an_honest_obvious_card_and_differ() -> None:
    masters = [make_puzzle("classic", "master", seed=seed, time_limit=REPLAY_TIME_LIMIT) for seed in (3, 4)]
    for master in masters:
        assert master.id[1:3] in SEARCHES
        assert master.tier == "master"
        assert master.forks is not None and master.forks >= 2
        assert master.decisions is not None and master.decisions >= 3
        position = master.position()
        assert honest(position, master.laid_cards)
        assert skill_limited(position, 5, 30, goal=master.max_placed).placed < master.max_placed
        assert verify(master) == []
        assert puzzle_from_id(master.id) == master


@pytest.mark.slow  # three experts searched from scratch
def test_a_run_of_searched_experts_forks_and_keeps_no_table_relabelled() -> None:
    # two searches from one recipe may keep its skeleton (seeds 3 and 4 of the Master test do): a
    # run leaves out the second, so its puzzles differ up to relabelling
    tally = Tally()
    plan = Plan("classic", recipe_for("expert"), seed=3, tier="expert", time_limit=REPLAY_TIME_LIMIT)
    experts = list(generate(plan, 3, 1, lambda: False, set(), tally))
    assert len(experts) == 3
    for expert in experts:
        assert expert.tier == "expert"
        assert expert.forks is not None and expert.forks >= 1
        assert honest(expert.position(), expert.laid_cards)
    for a, b in combinations(experts, 2):
        assert not near_duplicate(a.table, b.table, "classic")


def test_a_search_counts_decisions_from_its_goals_chain_and_never_keeps_a_tier_above() -> None:
    analysis = analyse(Position.parse(CHAIN_OF_SEVEN), time_limit=REPLAY_TIME_LIMIT)
    assert analysis.chain.length == 7
    deadline = time.perf_counter() + REPLAY_TIME_LIMIT
    # declines only: Hard, which neither goal meets
    hard = graded(analysis, "master", deadline)
    assert hard is not None and hard.forcing is not None and hard.forcing.forks == 0
    assert hard.skill is None and not met(hard, "master")
    # the same chain counted as if it forked twice would be a Master: above an Expert's goal, so
    # an Expert's search ranks it below an Expert and never stops there
    forking = replace(hard, forcing=replace(hard.forcing, forks=2))
    assert _score(forking, "expert")[1] < _score(forking, "master")[1] == 4
    assert _score(forking, "expert")[1] == 2 and not met(forking, "expert")
    # a chain shorter than the goal's is climbed on the chain alone: no count yet
    short = graded(replace(analysis, chain=replace(analysis.chain, length=3)), "expert", deadline)
    assert short is not None and short.forcing is None and not met(short, "expert")


def test_a_searched_table_keeps_within_its_goals_melds() -> None:
    rules = Rules.named("classic")
    grown = 0
    for seed in range(30):
        rng = random.Random(seed)
        candidate = METHODS["6m"](rules, rng)
        if candidate is None:
            continue
        for goal, (least, most) in TABLE_MELDS.items():
            position = candidate.position
            for _ in range(12):
                after = _change(position, rng, goal)
                if after is None:
                    continue
                # a change adds one meld at most, never past the goal's most, and drops none
                # below its least
                assert len(after.table) <= max(len(position.table), most)
                assert len(after.table) >= min(len(position.table), least)
                grown += len(after.table) > len(position.table)
                position = after
    assert grown > 10


def test_a_searching_attempt_gives_a_puzzle_of_its_goal_or_none() -> None:
    goals = []
    for number in range(10):
        result = attempt(attempt_id("classic", ("6e",), 5, number), REPLAY_TIME_LIMIT)
        if result.puzzle is not None:
            assert result.puzzle.tier == "expert" and result.puzzle.forks and result.puzzle.forks >= 1
            assert honest(result.puzzle.position(), result.puzzle.laid_cards)
            assert len(result.puzzle.table) <= TABLE_MELDS["expert"][1]
        goals.append(result.outcome)
    assert "short of its tier" in goals


PRUNED_MASTER = (
    "classic | AH AD AC / AS AH AC / 2H 2D 2C / 4S 4H 4D / AS 2S 3S / 5H 6H 7H 8H 9H 10H / 3C 4C 5C /"
    " AD 2D 3D 4D / 3H 3D 3C / 4H 5H 6H / 5C 6C 7C | 2S 5S 5S 3H 8H JD 6C"
)
"""`c6p6v7ye`, a Master that 6p found: chain 6, two forks, three decisions."""


def test_a_style_takes_its_goals_budgets_where_it_leaves_one_out() -> None:
    for goal in ("expert", "master"):
        assert Style().budgets(goal) == (STEPS[goal], POLISH[goal], HOPELESS[goal], TABLE_MELDS[goal])
    assert Style(steps=7, table_melds=(2, 3)).budgets("master") == (
        7,
        POLISH["master"],
        HOPELESS["master"],
        (2, 3),
    )
    # the older letters search by their goals' budgets, so that their IDs replay; 6p has its own
    assert not {"6e", "6m", "7e", "7m"} & set(STYLES)
    assert set(STYLES) <= set(SEARCHES) and SEARCHES["6p"] == SEARCHES["4m"] == "master"
    assert STYLES["6p"].prune > 0 and STYLES["6p"].budgets("master") != Style().budgets("master")
    # 4m searches as 6p does, then adds a trap where a decision is short and prunes after it,
    # a figure's melds first
    assert STYLES["4m"].prune and STYLES["4m"].prune_later and STYLES["4m"].unfigure
    assert "4m" in FINISHED_SEARCHES and "6p" not in FINISHED_SEARCHES
    # 5t (`generator._gadgets`) takes every Master turn; 1m, 2m, 4m, 5m, 5p, 5q and 9m keep their IDs
    assert RECIPES["master"] == ("5t",)


def test_a_pruned_master_drops_a_meld_nobody_touches_and_stays_a_master() -> None:
    position = Position.parse(PRUNED_MASTER)
    # a run far from the hand's cards: the best play leaves it as it lies
    untouched = Meld.of(parse_cards("JS QS KS"), position.rules)
    wider = Position(position.rules, (*position.table, untouched), position.hand)
    deadline = time.perf_counter() + REPLAY_TIME_LIMIT
    # searched by 6p, which counts forks as before issue 38 (its second fork is a free choice)
    found = graded(analyse(wider, time_limit=REPLAY_TIME_LIMIT), "master", deadline, settled=False)
    assert found is not None and met(found, "master")
    assert untouched in found.analysis.best.play.table
    pruned = _pruned(found, "master", deadline, random.Random(1), tries=8, least=4, settled=False)
    assert pruned is not None and met(pruned, "master")
    assert untouched not in pruned.analysis.position.table
    assert len(pruned.analysis.position.table) < len(wider.table)
    # every meld it dropped was one the best play left as it lay; the hand is the same
    dropped = Counter(wider.table) - Counter(pruned.analysis.position.table)
    assert set(dropped) <= set(found.analysis.best.play.table)
    assert pruned.analysis.position.hand == wider.hand
    # with no tries it drops nothing
    assert _pruned(found, "master", deadline, random.Random(1), tries=0, least=4, settled=False) == found


PLAIN_MASTER = (
    "classic | 3S 3D 3C / 6S 6H 6D / 8S 8H 8C / 9S 9H 9C / QS QH QD / 3H 4H 5H / 8D 9D 10D JD /"
    " 2C 3C 4C 5C 6C 7C 8C / 8H 9H 10H JH / 10C JC QC | AS 2S KS 7H 10H 5D 5C KC KC"
)
"""A Master whose table is no figure (sets of 8 and 9 but none of 7 or 10; no three parallel runs)."""


def test_a_table_is_plain_unless_it_shows_a_figure() -> None:
    position = Position.parse(PLAIN_MASTER)
    assert plain(position)
    # a set of sevens beside those of eights and nines: three sets on consecutive ranks
    sevens = Meld.of(parse_cards("7H 7D 7C"), position.rules)
    assert not plain(Position(position.rules, (*position.table, sevens), position.hand))
    assert not plain(Position.parse(PRUNED_MASTER))  # sets of aces, twos and threes


def test_pruning_that_unfigures_drops_the_melds_that_make_a_figure_first() -> None:
    position = Position.parse(PLAIN_MASTER)
    # two melds the best play leaves as they lie: a set of sevens, which makes the table a figure
    # (sets of 7, 8, 9), and a run of spades far from the chain
    sevens = Meld.of(parse_cards("7H 7D 7C"), position.rules)
    spades = Meld.of(parse_cards("JS QS KS"), position.rules)
    wider = Position(position.rules, (*position.table, sevens, spades), position.hand)
    deadline = time.perf_counter() + REPLAY_TIME_LIMIT
    found = graded(analyse(wider, time_limit=REPLAY_TIME_LIMIT), "master", deadline)
    assert found is not None and met(found, "master") and not plain(wider)
    assert {sevens, spades} <= set(found.analysis.best.play.table)
    # one try each: in a random order some seeds drop the spades and leave the figure ...
    blind = [_pruned(found, "master", deadline, random.Random(seed), 1, 4) for seed in range(6)]
    assert any(p is not None and sevens in p.analysis.position.table for p in blind)
    # ... while pruning that unfigures always drops the sevens first, and the Master stays
    for seed in range(6):
        pruned = _pruned(found, "master", deadline, random.Random(seed), 1, 4, unfigure=True)
        assert pruned is not None and met(pruned, "master")
        assert sevens not in pruned.analysis.position.table and plain(pruned.analysis.position)


def test_a_6p_master_replays_from_its_id_graded_by_its_real_forks_and_is_honest() -> None:
    """c6p6v7ye was searched, and published, as a Master that forks twice. Its search still counts
    forks as it did (`FORKS_BEFORE_SETTLED`), so the ID gives the same position; one of the two is a
    free choice (another maximal play ends its card otherwise), so its grade is Expert now."""
    master = puzzle_from_id("c6p6v7ye")
    assert "6p" in FORKS_BEFORE_SETTLED
    before = decisions_of(master.position(), master.max_placed, settled=False)
    assert before.decisions == master.decisions == 3 and before.forks == 2
    assert (master.chain >= 6, master.forks, master.tier) == (True, 1, "expert")
    assert honest(master.position(), master.laid_cards)
    assert len(master.table) <= STYLES["6p"].budgets("master")[3][1]
    assert verify(master) == []
