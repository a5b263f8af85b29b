"""How well the spoiler guard knows a puzzle: the disguises of a guarded puzzle it lets through, and
the positions it refuses that are no guarded puzzle at all.

Puzzles come from the generator (`--per-preset` of each preset, tiers easy to expert, seeds from
`--seed`); each takes its turn as the open daily, beside `--dailies - 1` others of its preset.

- **Disguises**: each guarded puzzle relabelled at random (suits permuted, ranks shifted or
  mirrored), its melds shuffled and rebuilt into other valid melds, some hand cards left out (one
  at least kept), and sometimes a meld or a card added. Each must be refused.
- **Real-game positions**: `bench/corpus.py`'s in-progress and rearranged positions of each preset,
  judged against the open dailies. Each refusal is a player denied an answer for nothing.
- **Other puzzles**: every puzzle of the run that is not an open daily, judged against them.

    .venv/bin/python bench/guard.py [--per-preset 8] [--corpus 200] [--disguises 20] [--seed 0]

Figures are printed for the guard's TABLE_SHARE and a few others beside it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence

from corpus import _split, corpus  # bench/corpus.py: the seeded positions

from generator import Puzzle, make_puzzle
from puzzles import PRESETS, SUITS, Card, Meld, Position, Rules, relabel, relabellings
from webapp.analyser import guard
from webapp.analyser.guard import Guarded

TIERS = ("easy", "medium", "hard", "expert")
CHOSEN = guard.TABLE_SHARE
SHARES = tuple(sorted({0.65, CHOSEN}))
EXTRAS = ((4, 0.3), (6, 0.7), (99, 2.0))
CHOSEN_EXTRA = guard.EXTRA_CARDS, guard.EXTRA_SHARE


def guarded(puzzle: Puzzle) -> Guarded:
    table = Counter(Card.parse(token) for meld in puzzle.table for token in meld)
    return Guarded(lambda: puzzle.id, table, Counter(Card.parse(token) for token in puzzle.hand))


def refused(position: Position, dailies: Sequence[Guarded]) -> bool:
    table = Counter(card for meld in position.table for card in meld.cards)
    return any(daily.held_by(position, table) for daily in dailies)


def disguise(rng: random.Random, puzzle: Puzzle) -> Position:
    """The puzzle relabelled, its melds rebuilt and shuffled, hand cards left out, a card added."""
    position = puzzle.position()
    position = relabel(position, rng.choice(list(relabellings(position))))
    rules = position.rules
    cards = Counter(card for meld in position.table for card in meld.cards)
    melds: list[Meld] = list(_split(rng, rules, cards) or position.table)
    rng.shuffle(melds)
    hand = list(position.hand)
    rng.shuffle(hand)
    hand = hand[: rng.randint(1, len(hand))]
    if rng.random() < 0.3:
        melds.append(_added_meld(rng, rules, cards + Counter(hand)))
    if rng.random() < 0.5:
        hand.append(Card(rng.randint(1, 13), rng.choice(SUITS)))
    try:
        return Position(rules, tuple(melds), tuple(hand))
    except ValueError:
        return Position(rules, tuple(melds), tuple(hand[:-1]))


def _added_meld(rng: random.Random, rules: Rules, used: Counter[Card]) -> Meld:
    """A set of three that the cards in play leave room for."""
    while True:
        rank = rng.randint(1, 13)
        suits = rng.sample(SUITS, 3)
        cards = [Card(rank, suit) for suit in suits]
        if all(used[card] < rules.copies(card) for card in cards):
            return Meld.of(cards, rules)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-preset", type=int, default=8)
    parser.add_argument("--corpus", type=int, default=200)
    parser.add_argument("--disguises", type=int, default=20)
    parser.add_argument("--dailies", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started = time.process_time()
    puzzles: dict[str, list[Puzzle]] = {}
    for name in PRESETS:
        puzzles[name] = [
            make_puzzle(name, tier=TIERS[i % len(TIERS)], seed=args.seed + i) for i in range(args.per_preset)
        ]
    print(f"{sum(map(len, puzzles.values()))} puzzles in {time.process_time() - started:.0f} s of CPU")
    rng = random.Random(args.seed)
    for share, (extra, extra_share) in ((share, extra) for share in SHARES for extra in EXTRAS):
        guard.TABLE_SHARE, guard.EXTRA_CARDS, guard.EXTRA_SHARE = share, extra, extra_share
        let_through = disguises = real = real_refused = others = others_refused = 0
        checks = 0
        clock = time.process_time()
        for name, made in puzzles.items():
            games = [sample.position for sample in corpus(PRESETS[name], args.corpus, args.seed)]
            for first in range(0, len(made), args.dailies):
                open_ = made[first : first + args.dailies]
                dailies = [guarded(puzzle) for puzzle in open_]
                for puzzle in open_:
                    for _ in range(args.disguises):
                        disguises += 1
                        let_through += not refused(disguise(rng, puzzle), dailies)
                for position in games:
                    real += 1
                    real_refused += refused(position, dailies)
                for puzzle in made:
                    if puzzle not in open_:
                        others += 1
                        others_refused += refused(puzzle.position(), dailies)
                checks += args.dailies * (len(open_) * args.disguises + len(games) + len(made))
        per_check = (time.process_time() - clock) / max(checks, 1) * 1e3
        mark = " (the guard's)" if (share, (extra, extra_share)) == (CHOSEN, CHOSEN_EXTRA) else ""
        print(
            f"share {share:.2f}, extra {extra} or {extra_share:.0%}{mark}: "
            f"disguises let through {let_through}/{disguises}; "
            f"real-game positions refused {real_refused}/{real} ({real_refused / max(real, 1):.1%}); "
            f"other puzzles refused {others_refused}/{others} ({others_refused / max(others, 1):.1%}); "
            f"{per_check:.2f} ms of CPU a daily checked"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
