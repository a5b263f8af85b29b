"""Chains that mix sets and runs: swap, cycle, split run, end card and bridge (issue 21).

A figure (`generator._tables`) is one block laid the other way; a *chain* is a line of melds, sets
and runs in turn, along which a card is passed on. The hand opens it with two pairs of a suit
around a card that lies in a set of three; the set gives that card and takes the suit it lacks from
a run of three, which gives its end card and takes the next card of its suit beyond its other end
from a set of that rank, and so on. So the best play breaks sets and runs alike, every meld in the
chain takes a card from one meld and gives one to another (the *swap* and *cycle* themes), and no
block of sets or parallel runs shows on the table. How the chain ends names its trick:

- **swap**: the last set takes the suit it lacks from the hand;
- **cycle**: the last set gives its card, and its other two cards start runs with pairs of the hand
  (it turns into runs); with a trap at every run this is the chain that reaches Master;
- **split run**: the chain's first run is a run of six that gives its fourth card, keeps three and
  sends on a pair; it ends with a run of seven that gives its middle card, or as an end card does;
- **end card**: the chain ends with a run of four or five that gives its end card and stays a run;
- **bridge**: the chain ends at a run of three that a hand card joins to a second run of its suit,
  so that both can give their far end card: one to the chain, one to a set the hand holds two of;
- **four**: the chain ends at a set of four that gives the card a run needs and stays a set;
- **middle**: the chain ends with a run of seven that gives its middle card and splits in two (as
  a split run's chain may; with two links, a set and that run, it is a Medium).

A *trap* is a hand card that lengthens a run of the chain at the end it must give: it is the
obvious move (RULES.md), and once laid the run cannot give its card, which loses the chain. The
hand holds as many as the chain can afford (`MARGIN`); the solver has the last word.

Cards are handled here as (suit, rank) pairs while a chain is laid, then as in
`generator._tables`: `Card.index` numbers.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from generator._tables import Figure, _drawn, card_at

TOP = 13
"""Chains keep to the ace (low) and the king, so that they read the same under every preset."""
MOTIF_KINDS: tuple[str, ...] = ("swap", "cycle", "split", "end", "bridge", "four", "middle")
"""The tricks a chain can be about (`sample_chain`'s `kind`)."""

SPLIT_END = 0.5
"""How often a split run's chain ends with a run of seven that gives its middle card (else with an
end card)."""
CYCLE_SPLIT = 0.3
"""How often a cycle's first run is a run of six cut in two, as a split run's is."""
ABOVE = 0.5
"""How often a cycle's last set, where there is room, turns into runs above its rank (else below)."""
MARGIN = 2
"""How many more of the hand's other cards than traps and `free` cards the hand holds (see
`_placed`). A rule of thumb, not a proof: the solver decides whether the traps lose."""


@dataclass(slots=True)
class _Chain:
    """A chain being laid upwards from rank 0: its melds as (suit, rank) cards, and the hand's."""

    rng: random.Random
    melds: list[list[tuple[int, int]]] = field(default_factory=list)
    hand: list[tuple[int, int]] = field(default_factory=list)
    traps: list[tuple[int, int]] = field(default_factory=list)
    """Traps the hand may hold (see `_placed`)."""
    free: int = 0
    """How many of the hand's cards lengthen a table meld as it lies (a swap's last card, a bridge's
    three): they are laid whatever the chain does, so a trap laid instead costs them nothing."""

    def run(self, suit: int, low: int, high: int) -> None:
        self.melds.append([(suit, p) for p in range(low, high + 1)])

    def set_of(self, rank: int, suits: list[int]) -> None:
        self.melds.append([(suit, rank) for suit in sorted(suits)])

    def trap(self, suit: int, rank: int) -> None:
        """Keep a trap for the hand, unless the chain holds that card already."""
        if (suit, rank) not in self.cards():
            self.traps.append((suit, rank))

    def cards(self) -> list[tuple[int, int]]:
        return [card for meld in self.melds for card in meld] + self.hand


SET_TERMINALS = frozenset({"cycle", "four"})
"""The kinds whose chain ends at a set (a run needs a card from it), not at a run."""


def sample_chain(
    rules: object,
    rng: random.Random,
    stock: list[int],
    length: int,
    ends: int,
    kind: str = "swap",
    margin: int = MARGIN,
) -> Figure | None:
    """A chain of about `length` table melds (sets and runs in turn) that the hand's cards make the
    player pass a card along, end to end, ending as `kind` (one of MOTIF_KINDS) says; or None when
    it does not fit between the ace and the king or the stock lacks the cards. `length` is made odd
    for a chain that ends at a set and even for one that ends at a run (a bridge lays one meld
    more). `ends` is unused (the figures' signature).

    The chain is laid upwards from rank 0, then moved to a random place that fits, and turned upside
    down half of the time.
    """
    del rules, ends
    chain = _Chain(rng)
    # the hand opens the chain with two pairs of a suit around a set's card, so the melds go set,
    # run, set ...: one that ends at a set has an odd number of them
    if kind in SET_TERMINALS and not length % 2:
        length -= 1
    elif kind not in SET_TERMINALS and length % 2:
        length += 1
    suit = rng.randrange(4)
    chain.hand += [(suit, -2), (suit, -1), (suit, 1), (suit, 2)]
    need: tuple[str, int, int] = ("run", suit, 0)
    for link in range(length):
        last = link == length - 1
        if need[0] == "run":
            _, suit, rank = need
            if last and kind == "four":
                # a set of four gives the card and keeps three: the chain needs no hand card to end
                chain.set_of(rank, list(range(4)))
                break
            if last:
                # the last set gives the card and its two others start runs with hand pairs,
                # above it or below (where there is room above, either, for variety)
                others = rng.sample([s for s in range(4) if s != suit], 2)
                chain.set_of(rank, [suit, *others])
                lowest = min(p for _, p in chain.cards())
                above = rank + 2 - lowest < TOP and rng.random() < ABOVE
                side = (1, 2) if above else (-1, -2)
                chain.hand += [(s, rank + k) for s in others for k in side]
                break
            # the suit the set lacks is the run's that gives it a card: not one whose trap (see
            # below) would be a card the chain holds already
            held = set(chain.cards())
            lacking = [s for s in range(4) if s != suit and (s, rank - 1) not in held] or [
                s for s in range(4) if s != suit
            ]
            missing = rng.choice(lacking)
            others = [s for s in range(4) if s not in (suit, missing)]
            chain.set_of(rank, [suit, *others])
            need = ("set", rank, missing)
        else:
            _, rank, suit = need
            if last:
                _end(chain, kind, suit, rank)
                break
            if link == 1 and (kind == "split" or (kind == "cycle" and rng.random() < CYCLE_SPLIT)):
                # a run of six gives its fourth card: three stay, a pair needs the next card
                chain.run(suit, rank - 3, rank + 2)
            else:
                # a run of three gives its end card and needs the card beyond its other end; the
                # card before the end it gives is a trap: it lengthens the run as it lies, and
                # once laid the run cannot give its end card
                chain.run(suit, rank, rank + 2)
                chain.trap(suit, rank - 1)
            need = ("run", suit, rank + 3)
    return _placed(rng, stock, chain, margin)


def _end(chain: _Chain, kind: str, suit: int, rank: int) -> None:
    """Close the chain where a set needs the card of `suit` at `rank` from a run, as `kind` says."""
    rng = chain.rng
    if kind == "swap":
        # the hand holds the card, which the last set also takes as it lies
        chain.hand.append((suit, rank))
        chain.free += 1
    elif kind == "middle" or (kind == "split" and rng.random() < SPLIT_END):
        # a run of seven gives its middle card
        chain.run(suit, rank - 3, rank + 3)
    elif kind in ("end", "split"):
        # a run of four or five gives its end card and stays a run
        chain.run(suit, rank, rank + rng.choice((3, 3, 4)))
        chain.trap(suit, rank - 1)
    elif kind == "bridge":
        # a run of three gives its end card once a hand card joins it to a run beyond, which gives
        # its far end card to a set the hand holds two of
        chain.run(suit, rank, rank + 2)
        chain.run(suit, rank + 4, rank + 6)
        chain.hand.append((suit, rank + 3))
        chain.trap(suit, rank - 1)
        chain.hand += [(s, rank + 6) for s in rng.sample([s for s in range(4) if s != suit], 2)]
        chain.free += 3


def _placed(rng: random.Random, stock: list[int], chain: _Chain, margin: int = MARGIN) -> Figure | None:
    """The chain with its traps in the hand, moved to a random place between the ace and the king
    (upside down half of the time) and drawn from the stock; None when it does not fit or the stock
    lacks its cards.

    The hand holds as many traps as leave its other cards, less the `free` ones, MARGIN more than
    the traps and the free cards together: all three of a long cycle's, one or two of the other
    chains'. The letters add traps where the count still falls short (`generator._make._trapped`)."""
    room = len(chain.hand) - 2 * chain.free - margin
    chain.hand += rng.sample(chain.traps, max(min(room, len(chain.traps)), 0))
    ranks = [p for _, p in chain.cards()]
    low, high = min(ranks), max(ranks)
    if high - low + 1 > TOP:
        return None
    flip = rng.random() < 0.5
    shift = rng.randrange(1, TOP - (high - low) + 1)

    def moved(card: tuple[int, int]) -> tuple[int, int]:
        suit, p = card
        return suit, (high - p if flip else p - low) + shift

    melds = [sorted(card_at(*moved(card)) for card in meld) for meld in chain.melds]
    hand = [card_at(*moved(card)) for card in chain.hand]
    covered: dict[int, set[int]] = {suit: set() for suit in range(4)}
    for suit, p in map(moved, chain.cards()):
        covered[suit].add(p)
    return _drawn(stock, melds, hand, covered, TOP)


def chain_sampler(
    kind: str, margin: int = MARGIN
) -> Callable[[object, random.Random, list[int], int, int], Figure | None]:
    """`sample_chain` of one kind (and `margin`), with a figure sampler's signature."""

    def sample(rules: object, rng: random.Random, stock: list[int], length: int, ends: int) -> Figure | None:
        return sample_chain(rules, rng, stock, length, ends, kind, margin)

    return sample
