"""Weak forks in the generator: a run leaves out an Expert or Master whose only forks lay a card in
its one home (`judged`, `forks_enough`), while its ID, `show` and `verify` replay as they did."""

from __future__ import annotations

from collections import Counter

import pytest

from generator import PuzzleId, puzzle_of, verify
from generator._make import ACCEPTED, REPLAY_TIME_LIMIT, Attempt, attempt, forks_enough, judged, make_puzzle
from generator._runs import Plan, Tally, _Kept, _new_puzzle
from puzzles import Position

# the Master of the issue 38 audit whose 2♠ has one home and no rival: one real fork of its two
TWO_OF_SPADES = (
    "c9m1vndi4v",
    "classic | 4S 4H 4C / 5S 6S 7S / 7S 7D 7C / 9S 10S JS QS / KS KD KC / 7H 8H 9H / 9H 9D 9C / 10H 10D "
    "10C / JH QH KH / 4D 5D 6D / 5D 6D 7D / 8D 9D 10D / JD QD KD | 2S 3S JH KH 3D 3D 8D 6C 7C 10C KC",
)
# the Expert whose A♠ the audit called weak: A♥ 2♥ 3♥ rivals it for the threes, a real fork
ACES = (
    "i5e1vndi59",
    "italian | 2S 2H 2D / 3S 3H 3D / 6S 6H 6C / QS QH QD QC / QH QD QC / 6D 7D 8D 9D 10D JD / 2C 3C 4C "
    "5C | AS 2S 5S QS AH 5D 7D 7C 7C KC",
)
HARD = ("ch1", "classic | 7S 7H 7D / 4C 5C 6C 7C | 5S 6S 5H 6H 8H 8C")


def accepted(puzzle_id: str, text: str) -> Attempt:
    """An accepted attempt of this position, graded as the generator grades its own."""
    position = Position.parse(text)
    puzzle = puzzle_of(puzzle_id, position)
    return Attempt(PuzzleId.parse(puzzle_id), puzzle, ACCEPTED, position, 0.0)


def test_a_master_with_one_real_fork_is_left_out_of_a_run() -> None:
    master = accepted(*TWO_OF_SPADES)
    assert master.puzzle is not None and master.puzzle.tier == "master" and master.puzzle.forks == 2
    weighed = judged(master)
    assert weighed.real_forks == 1 and not forks_enough(weighed)
    tally = Tally()
    plan = Plan("classic", ("9m",), seed=0, tier="master")
    assert _new_puzzle(plan, weighed, set(), _Kept(), tally) is None
    assert (tally.weak_forks, tally.kept) == (1, 0)
    # judged only for the tier the run asks for
    assert judged(master, "expert").real_forks is None


def test_an_expert_whose_one_home_card_has_a_rival_is_kept() -> None:
    expert = accepted(*ACES)
    weighed = judged(expert)
    assert weighed.real_forks == 1 and forks_enough(weighed)
    tally = Tally()
    plan = Plan("italian", ("5e",), seed=0, tier="expert")
    # kept as judged: its line carries its real forks (tests/generator/test_real_forks.py)
    assert _new_puzzle(plan, weighed, set(), _Kept(), tally) == weighed.puzzle
    assert (tally.weak_forks, tally.kept) == (0, 1)


def test_a_tier_below_expert_is_not_judged() -> None:
    hard = accepted(*HARD)
    assert hard.puzzle is not None and hard.puzzle.tier not in ("expert", "master")
    assert judged(hard).real_forks is None and forks_enough(judged(hard))


def test_make_puzzle_passes_over_weak_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first attempt's Master forks on 2♠ alone beside J♠; the next one is taken."""
    weak, strong = accepted(*TWO_OF_SPADES), accepted(*ACES)
    tried = Counter[int]()

    def attempts(puzzle_id: PuzzleId, time_limit: float) -> Attempt:
        tried[0] += 1
        return weak if tried[0] == 1 else strong

    monkeypatch.setattr("generator._make.attempt", attempts)
    assert make_puzzle("classic", seed=0) == judged(strong).puzzle
    assert tried[0] == 2


@pytest.mark.slow  # a Master replayed from its ID and verified
def test_a_published_master_with_weak_forks_still_replays() -> None:
    """The run's step is not the attempt's: the ID gives its Master, and `verify` holds."""
    result = attempt(PuzzleId.parse(TWO_OF_SPADES[0]), REPLAY_TIME_LIMIT)
    assert result.puzzle is not None and result.puzzle.tier == "master"
    assert result.position is not None
    stored = Position.parse(TWO_OF_SPADES[1])
    assert Counter(result.position.table) == Counter(stored.table)
    assert Counter(result.position.hand) == Counter(stored.hand)
    assert verify(result.puzzle) == []
