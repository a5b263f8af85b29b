"""Chains of varied geometry: starts for Master searches whose skeletons differ (issue 38).

A chain of `generator._motifs` climbs: sets three ranks apart, runs of three between them, all
upwards, and a Master searched from it keeps that skeleton, so a run of 30 left nearly all of them
out as near-duplicates (one skeleton relabelled is one table). Drawn from random regions of the
rank-by-suit grid instead, laid two ways, the best play rearranges three melds at most: a long
chain does not happen by chance (docs/GENERATOR.md). So this module draws chains whose every link
is chosen at random, and whose shape is a tree rather than a line:

- a card is *needed* somewhere (the hand opens the chain: two pairs of a suit around a card, one
  pair, or two cards of a rank);
- a meld of the table *gives* it, and may need a card in turn: a set of three takes the suit it
  lacks (from a run); a run of three gives an end card and needs the card beyond its other end,
  going up or turning down the ranks where they are free (runs that turn direction); a run of four
  gives its second card, and the single card left joins a set of the other three suits one rank
  away as its fourth; a run of six gives its third or fourth card, and its pair needs the card
  beyond; a run of five gives its middle card and both its pairs need one (the chain branches);
- the chain ends where a meld gives without needing: a set of four, a run of four or five giving
  its end card, a run of seven its middle card, the hand holding the card (a swap), or a set that
  gives its card while its two others start runs with pairs from the hand (a cycle's end).

Each link has its own trap where it has one (the card that lengthens a run at the end it must
give). The sampler is a figure sampler (`generator._methods.FIGURES`): the method lays a small
mid-game table beside the chain, and the Master search (`generator._search`) polishes it.
"""

from __future__ import annotations

import random

from generator._motifs import _Chain, _placed
from generator._tables import Figure
from puzzles import Rules

BRANCH = 0.1
"""How often a run gives a card from its middle (a run of five), so that the chain branches."""
SPLIT = 0.25
"""How often a run of six gives its third or fourth card and sends its pair on."""
SINK = 0.3
"""How often a run of four gives its second card, and the single left joins a set of its rank."""
TURN = 0.5
"""How often a run that passes a card on goes down the ranks rather than up."""
FOUR = 0.35
"""How often a chain's end at a set is a set of four (else a cycle's end)."""

Need = tuple[str, int, int]
"""A card some meld must give: ("set" or "run", the kind of meld that gives it, suit, rank)."""


def _open(tree: _Chain) -> list[Need]:
    """The hand's opening, and the cards it needs from the table."""
    rng, suit = tree.rng, tree.rng.randrange(4)
    opening = rng.choice(("pairs", "pair", "rank"))
    if opening == "pairs":
        # two pairs of a suit around a card of a set: the set must give it
        tree.hand += [(suit, -2), (suit, -1), (suit, 1), (suit, 2)]
        return [("set", suit, 0)]
    if opening == "pair":
        # a pair of a suit beside a card of a set: the set must give it
        tree.hand += [(suit, 1), (suit, 2)]
        return [("set", suit, 0)]
    # two cards of a rank: a run must give the third
    suits = rng.sample(range(4), 3)
    tree.hand += [(suits[0], 0), (suits[1], 0)]
    return [("run", suits[2], 0)]


def _give_set(tree: _Chain, need: Need, last: bool) -> list[Need]:
    """A set at the needed card's rank gives it: a set of three then needs the suit it lacks."""
    rng = tree.rng
    _, suit, rank = need
    others = [s for s in range(4) if s != suit]
    if last:
        if rng.random() < FOUR:
            tree.set_of(rank, list(range(4)))
            return []
        # a cycle's end: the set gives the card, its two others start runs with hand pairs
        pair = rng.sample(others, 2)
        tree.set_of(rank, [suit, *pair])
        side = (1, 2) if rng.random() < 0.5 else (-1, -2)
        tree.hand += [(s, rank + k) for s in pair for k in side]
        return []
    held = set(tree.cards())
    lacking = [s for s in others if (s, rank - 1) not in held and (s, rank + 1) not in held] or others
    missing = rng.choice(lacking)
    tree.set_of(rank, [suit, *(s for s in others if s != missing)])
    return [("run", missing, rank)]


def _give_run(tree: _Chain, need: Need, last: bool) -> list[Need]:
    """A run of the needed card's suit gives it: at an end (passing on the card beyond its other
    end, up or down), from the middle (branching), or from a long run that needs nothing back."""
    rng = tree.rng
    _, suit, rank = need
    down = _turns(tree, suit, rank)
    step = -1 if down else 1
    if last:
        ending = rng.choice(("end", "end", "middle", "swap"))
        if ending == "swap":
            tree.hand.append((suit, rank))
            tree.free += 1
        elif ending == "middle":
            tree.run(suit, rank - 3, rank + 3)
        else:
            length = rng.choice((4, 4, 5))
            low, high = sorted((rank, rank + step * (length - 1)))
            tree.run(suit, low, high)
            tree.trap(suit, rank - step)
        return []
    draw = rng.random()
    if draw < BRANCH:
        # a run of five gives its middle card: both pairs need the card beyond
        tree.run(suit, rank - 2, rank + 2)
        return [("set", suit, rank - 3), ("set", suit, rank + 3)]
    if draw < BRANCH + SINK:
        # a run of four gives its second card: the single card left joins a set of its rank as
        # its fourth, and the pair needs the card beyond
        low, high = sorted((rank - step, rank + 2 * step))
        tree.run(suit, low, high)
        tree.set_of(rank - step, [s for s in range(4) if s != suit])
        return [("set", suit, rank + 3 * step)]
    if draw < BRANCH + SINK + SPLIT:
        # a run of six gives its third or fourth card: three stay, the pair needs the card beyond
        low, high = (rank - 2, rank + 3) if down else (rank - 3, rank + 2)
        tree.run(suit, low, high)
        return [("set", suit, rank + 3 * step)]
    # a run of three gives its end card and needs the card beyond its other end; the card before
    # the end it gives lengthens it as it lies: the trap
    low, high = sorted((rank, rank + 2 * step))
    tree.run(suit, low, high)
    tree.trap(suit, rank - step)
    return [("set", suit, rank + 3 * step)]


def _free(tree: _Chain, suit: int, rank: int) -> list[bool]:
    """The ways (down or not) a run of `suit` can go from the card at `rank` that it gives: its
    cards and the one beyond keep a rank away from every card of its suit in the chain, and the
    next set's rank holds no set yet. A chain that comes back beside its own cards offers a second
    source of the cards it needs there, and the best play takes the shortcut."""
    held = set(tree.cards())
    sets = {meld[0][1] for meld in tree.melds if len({card[1] for card in meld}) == 1 and len(meld) > 1}
    free = []
    for down in (False, True):
        step = -1 if down else 1
        near = {(suit, rank + step * k) for k in range(1, 5)}
        if not held & near and rank + 3 * step not in sets:
            free.append(down)
    return free


def _turns(tree: _Chain, suit: int, rank: int) -> bool:
    """Whether a run of `suit` that gives the card at `rank` goes down the ranks: TURN of the time
    where both ways are free (`_free`), else the free way."""
    free = _free(tree, suit, rank)
    if len(free) == 1:
        return free[0]
    return tree.rng.random() < TURN


def sample_tree(rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int) -> Figure | None:
    """A chain of about `length` melds drawn link by link (see the module), moved to a random place
    between the ace and the king and drawn from the stock, or None when it does not fit. `ends` is
    unused (a figure sampler's argument)."""
    del rules, ends
    tree = _Chain(rng)
    needs = _open(tree)
    while needs:
        need = needs.pop(rng.randrange(len(needs)))
        # a link that passes a card on while the melds laid and the needs still open leave room
        last = len(tree.melds) + len(needs) + 1 >= length
        give = _give_set if need[0] == "set" else _give_run
        needs += give(tree, need, last)
    return _placed(rng, stock, tree)
