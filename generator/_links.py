"""Chains whose links vary: starts for 2e's Expert searches (issue 38 item 3).

A chain of `generator._geometry` passes its card on through as many links as its length allows,
and most are one shape: a set of three gives a card and takes the suit it lacks from a run of three,
whose pair takes the card beyond from the next set three ranks on. Up to relabelling a set, a run of
three and the next set are one shape, and three sets three ranks apart are another, so two Experts
searched from such chains share four melds whenever they hold two such links or three such sets; a
run of 30 left out about half of what it found. This module keeps that shape short and draws the
rest at random:

- at most `LINKS` links pass the card on; a run that passes it is a run of three giving its end card
  (its pair needs the card beyond) or a run of four giving its second card (its single card starts
  a run with a pair from the hand, its pair needs the card beyond);
- a set of three gives its card and takes the suit it lacks from a run, as in every chain;
- the chain ends at a run of four to six giving its end card; a run of five or six giving its second
  card, whose single card joins a set of its rank; a run of three giving its end card with the card
  beyond its pair in the hand; a bridge (a hand card joins the pair to a run beyond, which gives its
  far end card to a set the hand holds two of); the hand holding the card (a swap); a set of four;
  a set whose other two cards start runs with hand pairs; or a set whose other two cards go onto
  the ends of two runs of three to five as they lie;
- the hand opens it with two pairs of a suit around a set's card, one pair beside it, two cards of
  a suit around it, or two cards of a rank a run must complete.

No link gives a card from the middle of a long run: 8e's and 9e's Experts split a run more often than
not, and a run of 30 leaves out those over their motif's share (`generator._runs`).

The chains are the figure sampler "links" (`generator._methods.FIGURES`); 2e lays a small mid-game
table beside one and searches it to Expert as 9e does (`generator._search.STYLES`). The sampler is
frozen as 5e's is (docs/GENERATOR.md): a change of what it draws is a new sampler for a new letter.
"""

from __future__ import annotations

import random

from generator._motifs import TOP, _Chain, _placed
from generator._tables import Figure
from puzzles import Rules

Need = tuple[str, int, int]
"""A card some meld must give: ("set" or "run", the kind of meld that gives it, suit, rank)."""

RUN_LINKS: tuple[tuple[str, int], ...] = (("end", 1), ("held", 1))
"""How a run that passes a card on is cut, with its weight: the card at its end (a run of three), or
its second card (a run of four whose single card joins a hand pair)."""
RUN_ENDS: tuple[tuple[str, int], ...] = (("end", 3), ("sink", 2), ("beyond", 1), ("bridge", 1), ("swap", 1))
"""How a chain ends at a run, with its weight."""
SET_ENDS: tuple[tuple[str, int], ...] = (("four", 2), ("pairs", 1), ("spill", 2))
"""How a chain ends at a set, with its weight: a set of four; a set whose other two cards start
runs with hand pairs; or one whose other two cards go onto the ends of two runs as they lie."""
TURN = 0.5
"""How often a run goes down the ranks where both ways are free."""
LINKS = 3
"""The most links that pass a card on before the chain ends: a set of three, a run of three and the
next set three ranks on are one shape up to relabelling, so a chain of more such links shares four
melds with many others; its end draws melds of varied lengths instead."""


def _drawn_kind(rng: random.Random, weights: tuple[tuple[str, int], ...]) -> str:
    return rng.choices([name for name, _ in weights], [weight for _, weight in weights])[0]


def _open(tree: _Chain) -> list[Need]:
    """The hand's opening, and the cards it needs from the table."""
    rng, suit = tree.rng, tree.rng.randrange(4)
    opening = rng.choice(("pairs", "pair", "rank", "gap"))
    if opening == "pairs":
        tree.hand += [(suit, -2), (suit, -1), (suit, 1), (suit, 2)]
        return [("set", suit, 0)]
    if opening == "pair":
        tree.hand += [(suit, 1), (suit, 2)]
        return [("set", suit, 0)]
    if opening == "gap":
        # two cards of a suit with a gap between: a set gives the card that fills it
        tree.hand += [(suit, -1), (suit, 1)]
        return [("set", suit, 0)]
    suits = rng.sample(range(4), 3)
    tree.hand += [(suits[0], 0), (suits[1], 0)]
    return [("run", suits[2], 0)]


def _sets(tree: _Chain) -> set[int]:
    return {meld[0][1] for meld in tree.melds if len({card[1] for card in meld}) == 1 and len(meld) > 1}


def _free(tree: _Chain, suit: int, rank: int, reach: int) -> list[int]:
    """The steps (1 up, -1 down) a run of `suit` may take from the card at `rank` that it gives:
    its cards `reach` ranks on keep a rank away from every card of its suit in the chain, and the
    next set's rank holds no set yet (a chain beside its own cards offers a shortcut)."""
    held = set(tree.cards())
    sets = _sets(tree)
    free = []
    for step in (1, -1):
        near = {(suit, rank + step * k) for k in range(1, reach + 2)}
        behind = {(suit, rank - step * k) for k in range(1, 3)}
        if not held & (near | behind) and rank + 3 * step not in sets:
            free.append(step)
    return free


def _step(tree: _Chain, suit: int, rank: int, reach: int) -> int:
    free = _free(tree, suit, rank, reach)
    if len(free) == 1:
        return free[0]
    return -1 if tree.rng.random() < TURN else 1


def _sink(tree: _Chain, suit: int, rank: int) -> None:
    """A set of three at `rank` without `suit`, which the single card of that suit joins."""
    tree.set_of(rank, [s for s in range(4) if s != suit])


def _give_run(tree: _Chain, need: Need, last: bool) -> list[Need]:
    """A run of the needed card's suit gives it, cut as a draw from RUN_LINKS (RUN_ENDS when `last`)."""
    rng = tree.rng
    _, suit, r = need
    step = _step(tree, suit, r, 3)

    def run(behind: int, ahead: int) -> None:
        # `behind` cards on the far side of the given card, `ahead` on the side the step goes
        low, high = sorted((r - step * behind, r + step * ahead))
        tree.run(suit, low, high)

    if last:
        kind = _drawn_kind(rng, RUN_ENDS)
        if kind == "swap":
            tree.hand.append((suit, r))
            tree.free += 1
        elif kind == "beyond":
            # a run of three gives its end card, and the hand holds the card beyond its other end
            run(0, 2)
            tree.hand.append((suit, r + 3 * step))
            tree.free += 1
        elif kind == "bridge":
            # a run of three gives its end card once a hand card joins its pair to a run beyond,
            # whose far end card goes to a set the hand holds two of
            run(0, 2)
            tree.hand.append((suit, r + 3 * step))
            far = r + 6 * step
            tree.run(suit, *sorted((r + 4 * step, far)))
            tree.hand += [(s, far) for s in rng.sample([s for s in range(4) if s != suit], 2)]
            tree.trap(suit, r - step)
            tree.free += 3
        elif kind == "sink":
            # its second card goes, its single joins a set, three or four stay
            run(1, rng.choice((3, 4)))
            _sink(tree, suit, r - step)
        else:
            run(0, rng.choice((3, 4, 5)))
            tree.trap(suit, r - step)
        return []
    if _drawn_kind(rng, RUN_LINKS) == "held":
        # a run of four gives its second card: its single card starts a run with a hand pair
        run(1, 2)
        tree.hand += [(suit, r - 2 * step), (suit, r - 3 * step)]
    else:
        run(0, 2)
        tree.trap(suit, r - step)
    return [("set", suit, r + 3 * step)]


def _give_set(tree: _Chain, need: Need, last: bool) -> list[Need]:
    """A set at the needed card's rank gives it: a set of three takes the suit it lacks from a run,
    or the chain ends there as a draw from SET_ENDS says."""
    rng = tree.rng
    _, suit, rank = need
    others = [s for s in range(4) if s != suit]
    if last:
        kind = _drawn_kind(rng, SET_ENDS)
        if kind == "four":
            tree.set_of(rank, list(range(4)))
            return []
        pair = rng.sample(others, 2)
        tree.set_of(rank, [suit, *pair])
        if kind == "pairs":
            side = (1, 2) if rng.random() < 0.5 else (-1, -2)
            tree.hand += [(s, rank + k) for s in pair for k in side]
        else:
            # the two others go onto runs of their suits, one above the set, one below
            up, down = pair if rng.random() < 0.5 else pair[::-1]
            tree.run(up, rank + 1, rank + rng.choice((3, 4, 5)))
            tree.run(down, rank - rng.choice((3, 4, 5)), rank - 1)
        return []
    held = set(tree.cards())
    lacking = [s for s in others if (s, rank - 1) not in held and (s, rank + 1) not in held] or others
    missing = rng.choice(lacking)
    tree.set_of(rank, [suit, *(s for s in others if s != missing)])
    return [("run", missing, rank)]


def sample_links(rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int) -> Figure | None:
    """A chain of about `length` melds whose links are drawn as the module says, moved to a random
    place between the ace and the king and drawn from the stock, or None when it does not fit (a
    figure sampler: `ends` is unused)."""
    del rules, ends
    tree = _Chain(rng)
    needs = _open(tree)
    links = 0
    while needs:
        need = needs.pop(rng.randrange(len(needs)))
        last = links >= LINKS or len(tree.melds) + len(needs) + 1 >= length
        links += not last
        give = _give_set if need[0] == "set" else _give_run
        needs += give(tree, need, last)
        if len(tree.melds) > length + 3:
            return None
    ranks = [p for _, p in tree.cards()]
    if max(ranks) - min(ranks) + 1 > TOP:
        return None
    return _placed(rng, stock, tree)
