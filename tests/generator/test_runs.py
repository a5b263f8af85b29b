"""Generation runs: attempt order, deduplication by canonical form, tiers, stopping."""

from __future__ import annotations

from generator._make import REPLAY_TIME_LIMIT, recipe_for
from generator._runs import Plan, Tally, attempts, generate


def plan(tier: str | None = None) -> Plan:
    # a generous limit: a loaded machine must not change which attempts the solver proves
    return Plan("classic", recipe_for(tier), seed=11, tier=tier, time_limit=REPLAY_TIME_LIMIT)


def test_a_run_keeps_attempt_order_and_counts_everything() -> None:
    tally = Tally()
    puzzles = list(generate(plan(), 5, 1, lambda: False, set(), tally))
    assert len(puzzles) == tally.kept == 5
    assert tally.attempts == sum(tally.outcomes.values()) >= 5
    assert sum(tally.tiers.values()) == 5
    ids = [int(puzzle.id[2:], 36) for puzzle in puzzles]
    assert ids == sorted(ids)


def test_puzzles_already_seen_are_skipped_as_duplicates() -> None:
    first, second = generate(plan(), 2, 1, lambda: False, set(), Tally())
    tally = Tally()
    seen = {first.canonical}
    again = list(generate(plan(), 1, 1, lambda: False, seen, tally))
    assert again == [second]
    assert tally.duplicates == 1
    assert seen == {first.canonical, second.canonical}


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
