"""What every pinned Expert and Master of a searching letter must still be when its ID is replayed."""

from __future__ import annotations

from generator import Puzzle, puzzle_from_id, verify
from generator._search import TABLE_MELDS, honest
from generator._shapes import is_figure
from puzzles import skill_limited


def check_pinned_expert(puzzle_id: str) -> Puzzle:
    """The ID replays an Expert that forks, tempts with a live decoy, is no figure, keeps to
    Expert's table size and an honest obvious card, defeats the skill-3 player and passes `verify`,
    the same twice. Returns it, for checks of the letter's own."""
    expert = puzzle_from_id(puzzle_id)
    position = expert.position()
    assert expert.tier == "expert"
    assert expert.forks is not None and expert.forks >= 1
    assert expert.live_decoys >= 1
    assert not is_figure(position.table, position.rules.top_position)
    assert len(position.table) <= TABLE_MELDS["expert"][1]
    assert honest(position, expert.laid_cards)
    assert skill_limited(position, 3, 30, goal=expert.max_placed).placed < expert.max_placed
    assert verify(expert) == []
    assert puzzle_from_id(puzzle_id) == expert
    return expert


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
