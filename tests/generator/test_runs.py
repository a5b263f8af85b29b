"""Generation runs: attempt order, deduplication by canonical form, tiers, stopping."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from generator import Puzzle, PuzzleId
from generator._grading import LEAST_DECISIONS
from generator._make import REPLAY_TIME_LIMIT, Attempt, recipe_for
from generator._runs import (
    DEEPER_SHARE,
    FIGURE_SHARE,
    MOTIF_GRACE,
    MOTIF_SHARE,
    TEMPLATE_SHARE,
    VARIED,
    Plan,
    Tally,
    _Kept,
    _new_puzzle,
    _too_common,
    attempts,
    generate,
)
from generator._themes import motif_of


def plan(tier: str | None = None) -> Plan:
    # a generous limit: a loaded machine must not change which attempts the solver proves
    return Plan("classic", recipe_for(tier), seed=11, tier=tier, time_limit=REPLAY_TIME_LIMIT)


@pytest.mark.slow  # generator runs of several puzzles
def test_a_run_keeps_attempt_order_and_counts_everything() -> None:
    tally = Tally()
    puzzles = list(generate(plan(), 5, 1, lambda: False, set(), tally))
    assert len(puzzles) == tally.kept == 5
    assert tally.attempts == sum(tally.outcomes.values()) >= 5
    assert sum(tally.tiers.values()) == 5
    # a method may take two letters of the ID (`0a`), so the seed is parsed, not sliced
    ids = [PuzzleId.parse(puzzle.id).seed for puzzle in puzzles]
    assert ids == sorted(ids)


@pytest.mark.slow  # generator runs of several puzzles
def test_puzzles_already_seen_are_skipped_as_duplicates() -> None:
    first, second = generate(plan(), 2, 1, lambda: False, set(), Tally())
    tally = Tally()
    seen = {first.canonical}
    again = list(generate(plan(), 1, 1, lambda: False, seen, tally))
    assert again == [second]
    assert tally.duplicates == 1
    assert seen == {first.canonical, second.canonical}


@pytest.mark.slow  # generator runs of several puzzles
def test_a_tier_run_keeps_only_that_tier() -> None:
    tally = Tally()
    puzzles = list(generate(plan("medium"), 3, 2, lambda: False, set(), tally))
    assert [puzzle.tier for puzzle in puzzles] == ["medium"] * 3
    assert tally.tiers == {"medium": 3}
    assert tally.acceptance == 3 / tally.attempts


def test_a_run_stops_when_asked_and_after_its_attempt_limit() -> None:
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    assert len(list(attempts(plan(), 1, stop))) <= 3
    assert len(list(attempts(plan(), 2, lambda: False, limit=6))) == 6


def test_a_motif_is_left_out_once_it_would_hold_more_than_its_share() -> None:
    # the first MOTIF_GRACE puzzles of a tier are kept whatever their motif
    assert not _too_common(Counter({"cycle": MOTIF_GRACE - 1}), "cycle")
    # then one more cycle among 4 cycles and 6 others would make 5 of 11, over two in five
    assert _too_common(Counter({"cycle": 4, "swap": 3, "ladder": 3}), "cycle")
    assert not _too_common(Counter({"cycle": 4, "swap": 3, "ladder": 3}), "swap")
    assert not _too_common(Counter({"cycle": 3, "swap": 4, "ladder": 3}), "cycle")
    # a puzzle without a motif (an extension, a new meld) is never left out for it
    assert not _too_common(Counter({None: 20}), None)
    assert MOTIF_SHARE == 0.4


def test_a_run_planned_for_a_share_has_no_grace() -> None:
    # a run of 10 of a tier ends with at most 4 of a motif, so the fifth is left out from the start
    assert not _too_common(Counter({"cycle": 3}), "cycle", planned=10)
    assert _too_common(Counter({"cycle": 4}), "cycle", planned=10)
    # past its plan (a run given earlier puzzles) the share counts what it holds
    assert not _too_common(Counter({"cycle": 4, "swap": 8}), "cycle", planned=10)
    # a short run keeps its first puzzles whatever they are, as a run of no plan does
    assert not _too_common(Counter({"cycle": MOTIF_GRACE - 1}), "cycle", planned=MOTIF_GRACE - 1)
    assert _too_common(Counter({"cycle": MOTIF_GRACE}), "cycle", planned=MOTIF_GRACE - 1)


DEEP = {"decisions": 9, "decisions_at_least": None}
"""More decisions than any tier needs: the run's share of deeper puzzles leaves such a puzzle alone."""

LENGTHS = [(a, b) for a in range(3, 10) for b in range(a + 1, 10)]


def runs_of(number: int) -> tuple[tuple[str, ...], ...]:
    """Two runs from the two, of other lengths for each number up to 20: tables that no relabelling
    turns into each other (none in diamonds)."""
    spades, hearts = LENGTHS[number]
    return (
        tuple(f"{rank}S" for rank in range(2, 2 + spades)),
        tuple(f"{rank}H" for rank in range(2, 2 + hearts)),
    )


@pytest.mark.usefixtures("templates_apart")
@pytest.mark.parametrize("tier", ["easy", "medium", "hard", "expert", "master"])
def test_expert_and_master_keep_their_motifs_under_their_share(master: Puzzle, tier: str) -> None:
    # one motif, offered again and again on tables that share no meld: only the grace and its share
    tally, kept, seen = Tally(), _Kept(), set[str]()
    for number in range(4 * MOTIF_GRACE):
        offered = replace(
            master,
            tier=tier,
            themes=("end-card",),
            table=runs_of(number),
            hand=("KD",),
            **DEEP,
        )
        found = Attempt(PuzzleId.parse(master.id), offered, "puzzle", None, 1.0)
        _new_puzzle(Plan("classic", ("b",), seed=0, tier=tier), found, seen, kept, tally)
    if tier not in VARIED:  # below Expert the live decoys come first
        assert tally.kept == 4 * MOTIF_GRACE and tally.motif_refusals == 0
        return
    assert tier in ("expert", "master")
    assert tally.kept == MOTIF_GRACE and tally.motif_refusals == 3 * MOTIF_GRACE
    # another motif is still welcome
    other = replace(master, tier=tier, themes=("swap",), table=(("8D", "9D", "10D"),), hand=("KD",), **DEEP)
    found = Attempt(PuzzleId.parse(master.id), other, "puzzle", None, 1.0)
    assert _new_puzzle(Plan("classic", ("b",), seed=0, tier=tier), found, seen, kept, tally) == other


def figure_of(number: int) -> tuple[tuple[str, ...], ...]:
    """Sets of three on the ranks 2 to 4, a figure (`generator._shapes.is_figure`), and a run of
    clubs of another length for each number up to 9."""
    sets = tuple(tuple(f"{rank}{suit}" for suit in "SHD") for rank in range(2, 5))
    names = {11: "J", 12: "Q", 13: "K"}
    return (*sets, tuple(f"{names.get(rank, rank)}C" for rank in range(2, 5 + number)))


@pytest.mark.usefixtures("templates_apart")
@pytest.mark.parametrize("tier", ["easy", "medium", "hard", "expert", "master"])
def test_expert_and_master_keep_their_figures_under_their_share(master: Puzzle, tier: str) -> None:
    # figures and other tables offered in turn, each motif new: only the grace and the share count
    tally, kept, seen = Tally(), _Kept(), set[str]()
    plan = Plan("classic", ("b",), seed=0, tier=tier)
    figures = 0
    for number in range(2 * MOTIF_GRACE):
        offered = replace(master, tier=tier, themes=(), table=runs_of(number), hand=("KD",), **DEEP)
        found = Attempt(PuzzleId.parse(master.id), offered, "puzzle", None, 1.0)
        assert _new_puzzle(plan, found, seen, kept, tally) == offered
        figure = replace(master, tier=tier, themes=(), table=figure_of(number), hand=("KD",), **DEEP)
        found = Attempt(PuzzleId.parse(master.id), figure, "puzzle", None, 1.0)
        figures += _new_puzzle(plan, found, seen, kept, tally) is not None
    if tier not in VARIED:
        assert figures == 2 * MOTIF_GRACE and tally.figure_refusals == 0
        return
    # the grace takes figures to half of the first puzzles; then none is kept until they would
    # hold no more than their share
    assert tally.figure_refusals == 2 * MOTIF_GRACE - figures > 0
    assert figures + 1 > FIGURE_SHARE * (tally.kept + 1) >= figures
    assert kept.figures[tier] == figures


def run_of(
    offered: list[Puzzle], tier: str, count: int, tally: Tally, monkeypatch: pytest.MonkeyPatch
) -> list[Puzzle]:
    """What a real run of `count` puzzles of the tier keeps when its attempts make `offered`, in turn."""
    attempts_made = [Attempt(PuzzleId.parse(puzzle.id), puzzle, "puzzle", None, 1.0) for puzzle in offered]
    monkeypatch.setattr("generator._runs.attempts", lambda *args, **kwargs: (one for one in attempts_made))
    return list(generate(Plan("classic", ("b",), seed=0, tier=tier), count, 1, lambda: False, set(), tally))


@pytest.mark.usefixtures("templates_apart")
@pytest.mark.parametrize("tier", ["expert", "master"])
def test_a_run_ends_within_its_ceilings_when_its_first_puzzles_are_alike(
    master: Puzzle, tier: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # figures of one motif first, then other tables of other motifs: a grace of five would keep
    # five figures of one motif, half of a run of 10, and no later puzzle could take them back
    count = 2 * MOTIF_GRACE
    figures = [
        replace(master, tier=tier, themes=("cycle",), table=figure_of(n), hand=("KD",), **DEEP)
        for n in range(count)
    ]
    motifs = ("swap", "ladder", "bridge", "staircase")
    others = [
        replace(master, tier=tier, themes=(motifs[n % 4],), table=runs_of(n), hand=("KD",), **DEEP)
        for n in range(2 * count)
    ]
    tally = Tally()
    kept = run_of(figures + others, tier, count, tally, monkeypatch)
    assert len(kept) == count
    held = sum(puzzle.table in {figure.table for figure in figures} for puzzle in kept)
    assert held == int(FIGURE_SHARE * count) == 3
    by_motif = Counter(motif_of(puzzle.themes) for puzzle in kept)
    assert max(by_motif.values()) <= MOTIF_SHARE * count
    assert tally.figure_refusals + tally.motif_refusals == count - held


@pytest.fixture
def templates_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each table a template of its own: the synthetic tables below share the few templates their
    one solution gives them, and a test of another share must not meet the templates' ceiling."""
    monkeypatch.setattr("generator._runs._template", lambda puzzle: puzzle.table)


@pytest.mark.parametrize("tier", ["easy", "medium", "hard", "expert", "master"])
def test_a_template_is_left_out_once_it_would_hold_more_than_its_share(
    master: Puzzle, tier: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the first ten tables are one template, the next ten each one of its own; at every tier a run
    # of 10 ends with at most two of one template
    alike = {runs_of(number) for number in range(10)}
    monkeypatch.setattr(
        "generator._runs._template", lambda puzzle: "alike" if puzzle.table in alike else puzzle.table
    )
    count = 10
    offered = [
        replace(master, tier=tier, themes=(motif,), table=runs_of(number), hand=("KD",), **DEEP)
        for number, motif in zip(
            range(20), ("swap", "ladder", "bridge", "staircase", "cycle") * 4, strict=True
        )
    ]
    tally = Tally()
    kept = run_of(offered, tier, count, tally, monkeypatch)
    assert len(kept) == count
    assert sum(puzzle.table in alike for puzzle in kept) == int(TEMPLATE_SHARE * count) == 2
    assert tally.template_refusals == 8


@pytest.mark.usefixtures("templates_apart")
@pytest.mark.parametrize("tier", ["easy", "medium", "hard", "expert", "master"])
def test_masters_that_count_more_decisions_keep_their_share(master: Puzzle, tier: str) -> None:
    # issue 38 item 1: puzzles of just the tier's decisions offered three for each that counts more
    tally, kept, seen = Tally(), _Kept(), set[str]()
    plan = Plan("classic", ("b",), seed=0, tier=tier)
    least = LEAST_DECISIONS.get(tier, 0)
    deeper = 0
    for number in range(4 * MOTIF_GRACE):
        more = number % 4 == 3
        # the count not proved reads as its lower bound, as the grade reads it
        counted = {"decisions": least + 1} if more else {"decisions": None, "decisions_at_least": least}
        offered = replace(master, tier=tier, themes=(), table=runs_of(number), hand=("KD",), **counted)
        found = Attempt(PuzzleId.parse(master.id), offered, "puzzle", None, 1.0)
        taken = _new_puzzle(plan, found, seen, kept, tally) is not None
        deeper += more and taken
    if tier != "master":
        assert tally.kept == 4 * MOTIF_GRACE and tally.decision_refusals == 0
        return
    # the grace keeps the first five whatever they count; then a Master of just 3 decisions waits
    # until those that count more hold their share
    assert deeper == MOTIF_GRACE
    assert tally.decision_refusals > 0
    assert deeper >= DEEPER_SHARE[tier] * tally.kept > deeper - 1
    assert kept.least[tier] == tally.kept - deeper


@pytest.mark.slow  # a generator run of two puzzles
def test_kept_counts_each_tiers_motifs_and_tables() -> None:
    first, second = generate(plan(), 2, 1, lambda: False, set(), Tally())
    kept = _Kept()
    kept.add(first)
    kept.add(second)
    assert sum(len(tables) for tables in kept.tables.values()) == 2
    assert sum(sum(motifs.values()) for motifs in kept.motifs.values()) == 2
    assert motif_of(first.themes) in kept.motifs[first.tier]
