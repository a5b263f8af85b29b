"""Generation methods: each turns one seeded `random.Random` into a candidate position.

A method only draws from its own random state and never asks the solver, so an attempt's position
depends on its ID alone; the solver then accepts or rejects it (see `generator._make`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from generator._tables import (
    JOKER_INDEX,
    card_at,
    counts_of,
    sample_final_table,
    split_into_melds,
    suit_of,
    supply,
    to_meld,
)
from puzzles import Card, Meld, Position, Rules


@dataclass(frozen=True, slots=True)
class Candidate:
    """A position built by a method, and which hand cards it meant as decoys."""

    position: Position
    decoys: tuple[Card, ...]


Method = Callable[[Rules, random.Random], Candidate | None]


@dataclass(frozen=True, slots=True)
class Profile:
    """The knobs of the backwards method."""

    melds: tuple[int, int]
    """How many melds the final table has (inclusive range)."""
    placed: tuple[int, ...]
    """Weights for taking 1, 2, 3 ... cards out of the final table into the hand."""
    decoys: tuple[int, ...]
    """Weights for adding 0, 1, 2 ... decoys."""
    blocks: float = 0.0
    """How often the final table grows a block of parallel runs (see `sample_final_table`)."""


def backwards(profile: Profile) -> Method:
    """Work backwards from a final table: take cards out into the hand, lay the rest of the table
    another way, and add decoys that look playable."""

    def method(rules: Rules, rng: random.Random) -> Candidate | None:
        final = sample_final_table(rules, rng, rng.randint(*profile.melds), profile.blocks)
        placed = rng.choices(range(1, len(profile.placed) + 1), profile.placed)[0]
        cards = [index for meld in final for index in meld]
        for _ in range(3):
            taken = rng.sample(cards, placed)
            counts = counts_of(final)
            for index in taken:
                counts[index] -= 1
            start = split_into_melds(counts, rules, rng, avoid=final)
            if start is not None and 4 <= len(start) <= 20:
                break
        else:
            return None
        table = [to_meld(meld, rules) for meld in start]
        wanted = rng.choices(range(len(profile.decoys)), profile.decoys)[0]
        in_play = counts_of(final)
        decoys = pick_decoys(rules, rng, table, in_play, wanted)
        hand = [Card.from_index(index) for index in taken] + list(decoys)
        return Candidate(Position(rules, tuple(table), tuple(hand)), decoys)

    return method


def pick_decoys(
    rules: Rules, rng: random.Random, table: Sequence[Meld], in_play: Sequence[int], wanted: int
) -> tuple[Card, ...]:
    """Cards that look playable next to this table: one gap past a run's end, or a rank that a set
    already shows in that suit. They are only candidates; the solver decides what is playable."""
    near: list[int] = []
    for meld in table:
        indices = [card.index for card in meld.cards]
        real = [i for i in indices if i != JOKER_INDEX]
        if meld.kind.value == "run":
            suit = suit_of(real[0])
            for position in (meld.start - 2, meld.end + 2):
                if 1 <= position <= rules.top_position:
                    near.append(card_at(suit, position))
        else:
            near.extend(real)
    left = supply(rules)
    for index, count in enumerate(in_play):
        left[index] -= count
    rng.shuffle(near)
    decoys: list[Card] = []
    for index in near:
        if len(decoys) == wanted:
            break
        if left[index] > 0:
            left[index] -= 1
            decoys.append(Card.from_index(index))
    return tuple(decoys)


METHODS: dict[str, Method] = {
    "b": backwards(Profile(melds=(4, 12), placed=(4, 3, 2, 1), decoys=(2, 3, 3, 2))),
}
"""Generation methods by ID letter. A letter, once published, must keep generating the same."""

TIER_METHODS: dict[str | None, str] = {
    None: "b",
    "easy": "b",
    "medium": "b",
    "hard": "b",
    "expert": "b",
    "master": "b",
}
"""The method that finds puzzles of each tier fastest (None: any tier)."""
