"""Rivals and blockers: small figures whose decoys cost a card, for Easy and Medium (issue 21).

On a random mid-game table a single decoy almost never costs a card: some other meld has room for
it, so it raises the maximum instead of tempting. These figures build the cost in. One table meld
can give exactly one card that the hand needs, and the hand also holds cards that want it another
way:

- a **rival**: two hand cards that make a run with another card of the same meld, so that the meld
  could serve them instead (it gives one card, not two); they place two where the best play places
  three;
- a **blocker**: a hand card that lengthens the giving run at the very end the best play takes a
  card from, the obvious move; laid there, the run cannot give that card any more.

Both are live decoys (RULES.md: some play places them, no maximal play does). At depth 1 the meld
gives the card itself (a set of four, or a run of four at one end): one break, Easy. At depth 2 the
set has three cards and must first take its fourth suit from the end of a run: two breaks in one
rearrangement, Medium.
"""

from __future__ import annotations

import random

from generator._tables import JOKER_INDEX, Figure, card_at
from puzzles import Rules

KINDS = ("rival", "blocker", "both")
"""What tempts: rival cards, a blocker, or (at depth 2) both."""


def sample_rivals(rules: Rules, rng: random.Random, stock: list[int], depth: int, ends: int) -> Figure | None:
    """A giving meld, the hand cards that need one of its cards and the decoys that want it too, drawn
    from the stock (None when it lacks the cards). `depth` 1 gives the card at once, 2 through a set
    that takes its fourth suit from a run first; `ends` is unused (the figures' common signature).

    The cards a hand card could meet (second copies, a run's next cards) and the jokers are left
    out of the rest of the table, so that it offers no other home (the figure's `near`)."""
    del ends
    kind = rng.choice(KINDS[:2] if depth == 1 else KINDS)
    if depth == 1 and kind == "blocker":
        return _blocked_run(rng, stock)
    rank = rng.randint(4, 10)
    suits = [0, 1, 2, 3]
    rng.shuffle(suits)
    wanted, rival, other, refill = suits
    # the best play's hand cards: a run of four of the wanted suit, short of the set's card
    shape = rng.choice(((-2, -1, 1), (-1, 1, 2)))
    extras = [card_at(wanted, rank + d) for d in shape]
    lures: list[int] = []
    if kind in ("rival", "both"):
        pair = rng.choice(((-2, -1), (-1, 1), (1, 2)))
        lures += [card_at(rival, rank + d) for d in pair]
    # each suit's ranks that the rest of the table leaves out: any card of the set could go to a run
    # of its suit, and the hand's cards reach a rank further
    spans = {suit: (rank - 2, rank + 2) for suit in suits} | {
        wanted: (rank - 3, rank + 3),
        rival: (rank - 3, rank + 3),
    }
    if depth == 1:
        melds = [sorted(card_at(suit, rank) for suit in range(4))]
    else:
        # the set lacks the refill suit, which the end of a run of four holds
        below = rng.random() < 0.5
        low = rank - 3 if below else rank
        melds = [
            sorted(card_at(suit, rank) for suit in (wanted, rival, other)),
            [card_at(refill, p) for p in range(low, low + 4)],
        ]
        spans[refill] = (low - 2, low + 5)
        if kind in ("blocker", "both"):
            lures.append(card_at(refill, rank + 1 if below else rank - 1))
    return _drawn(stock, melds, extras, lures, rank, spans)


def _blocked_run(rng: random.Random, stock: list[int]) -> Figure | None:
    """A run of four whose end card two hand cards of its rank need for a set, and a hand card that
    lengthens the run at that end."""
    suits = [0, 1, 2, 3]
    rng.shuffle(suits)
    run_suit, first, second, _ = suits
    start = rng.randint(2, 9)
    high = rng.random() < 0.5
    end, beyond = (start + 3, start + 4) if high else (start, start - 1)
    melds = [[card_at(run_suit, p) for p in range(start, start + 4)]]
    extras = [card_at(first, end), card_at(second, end)]
    spans = {run_suit: (start - 2, start + 5), first: (end - 2, end + 2), second: (end - 2, end + 2)}
    return _drawn(stock, melds, extras, [card_at(run_suit, beyond)], end, spans)


def _drawn(
    stock: list[int],
    melds: list[list[int]],
    extras: list[int],
    lures: list[int],
    rank: int,
    spans: dict[int, tuple[int, int]],
) -> Figure | None:
    """The figure, drawn from the stock (None when it lacks the cards), leaving out of the rest of
    the table every card of the given rank, the cards of each suit's span and the jokers."""
    cards = extras + lures + [index for meld in melds for index in meld]
    if any(stock[index] < cards.count(index) for index in set(cards)):
        return None
    for index in cards:
        stock[index] -= 1
    near = {card_at(suit, rank) for suit in range(4)}
    near |= {
        card_at(suit, p) for suit, (low, high) in spans.items() for p in range(max(low, 1), min(high, 13) + 1)
    }
    # a joker would stand in for the card the meld gives, and serve the rivals and the best play alike
    return Figure(melds, extras, [*sorted(near), JOKER_INDEX], lures)
