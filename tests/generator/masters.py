"""What every pinned Master of a searching letter must still be when its ID is replayed."""

from __future__ import annotations

from generator import puzzle_from_id, verify
from generator._search import honest
from puzzles import skill_limited


def check_pinned_master(puzzle_id: str) -> None:
    """The ID replays a Master that forks twice in three decisions or more on a chain of 6 or more,
    keeps an honest obvious card, defeats the skill-5 player and passes `verify`, the same twice."""
    master = puzzle_from_id(puzzle_id)
    assert master.tier == "master"
    assert master.forks is not None and master.forks >= 2
    assert master.decisions is not None and master.decisions >= 3
    assert master.chain >= 6
    position = master.position()
    assert honest(position, master.laid_cards)
    assert skill_limited(position, 5, 30, goal=master.max_placed).placed < master.max_placed
    assert verify(master) == []
    assert puzzle_from_id(puzzle_id) == master
