"""The order of the run: the longest tests first, shared out among the test processes.

pytest-xdist's `worksteal` hands each process one contiguous share of the collection and lets an
idle process take the back half of a busy one's queue. A long test near the end of a share runs
last, alone, while the other processes wait (issue 22: the run's last minutes were one oracle
test). So each share here starts with its part of the long tests, longest first, then whole
modules whose tests share a module-scoped fixture, and ends with quick ones that can be stolen.
Such a module is never cut: cut at a share's edge or stolen in half, the front-door module set up
its migrations, gunicorn and nginx in two processes (46 s and 34 s, issue 22). A steal takes only
the back half of a queue, so a module near a share's front runs where it was sent.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

# Every run draws the same examples, so that a red run on CI is the code's and can be repeated;
# `HYPOTHESIS_PROFILE=explore` draws new ones each run and keeps failures in .hypothesis/.
settings.register_profile("repeatable", derandomize=True, database=None)
settings.register_profile("explore")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

LONG = {
    # test function (all its parameters) -> seconds of its longest case, from
    # `pytest -n 4 --dist worksteal --durations=80` on the shared 2-core machine (issue 22)
    "tests/puzzles/test_oracle.py::test_chain_length_matches_the_oracle_where_it_is_hard": 228,
    "tests/puzzles/test_forcing.py::test_decisions_match_the_brute_force_on_blocks": 145,
    "tests/puzzles/test_oracle.py::test_depth_matches_the_oracle_when_jokers_move_past_runs": 110,
    "tests/puzzles/test_order.py::test_the_answer_does_not_depend_on_order_or_spelling": 101,
    "tests/puzzles/test_forcing.py::test_decisions_match_the_brute_force_on_small_tables": 83,
    "tests/webapp/test_bad_input.py::test_any_sequence_of_steps_leaves_a_valid_attempt": 78,
    "tests/puzzles/test_forcing.py::test_the_sweep_is_fewer_decisions_than_the_trap": 60,
    "tests/puzzles/test_oracle.py::test_depth_and_shown_play_match_the_oracle": 59,
    "tests/puzzles/test_oracle.py::test_chain_length_matches_the_oracle_when_jokers_move": 58,
    "tests/generator/test_make.py::test_ids_replay_the_same_in_a_fresh_process_whatever_the_hash_seed": 51,
    "tests/puzzles/test_oracle.py::test_chain_length_matches_the_oracle_on_two_spots": 50,
    "tests/generator/test_rivals.py::test_a_tiers_puzzles_hold_live_decoys": 47,
    "tests/puzzles/test_oracle.py::test_chain_depth_matches_the_oracle": 41,
    "tests/puzzles/test_oracle.py::test_chain_length_matches_the_oracle": 40,
    "tests/puzzles/test_oracle.py::test_maximum_matches_the_oracle": 36,
    "tests/webapp/analyser/test_analyser.py::test_no_typed_position_or_move_list_is_ever_a_500": 35,
    "tests/puzzles/test_oracle.py::test_a_unique_best_play_takes_no_joker_back": 33,
    "tests/generator/test_runs.py::test_puzzles_already_seen_are_skipped_as_duplicates": 31,
    "tests/puzzles/test_oracle.py::test_uniqueness_matches_the_oracle": 29,
    "tests/puzzles/test_steps.py::test_following_the_steps_of_a_second_best_play_or_a_points_play": 26,
    "tests/webapp/players/test_real_play.py::"
    "test_forty_throwaway_give_ups_move_a_rating_less_than_fifty_points": 23,
}
"""Figures to order by, not limits: a stale one only makes the order a little worse."""


def expected_seconds(item: pytest.Item) -> int:
    return LONG.get(item.nodeid.split("[", 1)[0], 0)


def shares(count: int, processes: int) -> list[int]:
    """The sizes of worksteal's first shares: each idle process in turn gets an even part of
    what is left (xdist/scheduler/worksteal.py, `check_schedule`)."""
    sizes = []
    for remaining in range(processes, 0, -1):
        sizes.append((count - sum(sizes)) // remaining)
    return sizes


def shared_module(item: pytest.Item) -> str | None:
    """The module of a test that uses a module- or class-scoped fixture (a server, a database, a
    program's output set up once for the module), else None."""
    info = getattr(item, "_fixtureinfo", None)
    for definitions in getattr(info, "name2fixturedefs", {}).values():
        if any(definition.scope in ("module", "class") for definition in definitions):
            return str(item.path)
    return None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every process collects and orders alike (xdist insists), so the order depends only on the
    collection and the number of processes."""
    processes = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        module = shared_module(item)
        if module is not None:
            modules.setdefault(module, []).append(item)
    kept = {id(item) for block in modules.values() for item in block}
    long = sorted(
        (item for item in items if expected_seconds(item) and id(item) not in kept),
        key=expected_seconds,
        reverse=True,
    )
    own: list[list[pytest.Item]] = [long[process::processes] for process in range(processes)]
    # each module to the share with the least so far: its long tests' seconds, and 5 s a test of a
    # module (the front door's 7 took 46 s with their servers' start)
    load = [sum(map(expected_seconds, share)) for share in own]
    for block in sorted(modules.values(), key=len, reverse=True):
        process = load.index(min(load))
        own[process] += block
        load[process] += 5 * len(block)
    moved = {id(item) for share in own for item in share}
    rest = [item for item in items if id(item) not in moved]
    ordered: list[pytest.Item] = []
    for process, size in enumerate(shares(len(items), processes)):
        quick = max(0, size - len(own[process]))
        ordered += own[process] + rest[:quick]
        del rest[:quick]
    ordered += rest
    assert len(ordered) == len(items)
    items[:] = ordered
