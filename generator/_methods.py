"""Generation methods: each turns one seeded `random.Random` into a candidate position.

A method only draws from its own random state and never asks the solver, so an attempt's position
depends on its ID alone; the solver then accepts or rejects it (see `generator._make`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace

from generator._geometry import sample_tree
from generator._links import sample_links
from generator._motifs import MARGIN, MOTIF_KINDS, chain_sampler
from generator._rivals import sample_rivals
from generator._shapes import is_figure
from generator._tables import (
    JOKER_INDEX,
    Figure,
    card_at,
    counts_of,
    fits_somewhere,
    ladder_length,
    rank_of,
    sample_final_table,
    sample_junction,
    sample_ladder,
    sample_staircase,
    sample_wall,
    split_into_melds,
    suit_of,
    supply,
    to_meld,
)
from puzzles import JOKER, Card, Meld, MeldKind, Position, Rules


@dataclass(frozen=True, slots=True)
class Candidate:
    """A position built by a method, and which hand cards it meant as decoys."""

    position: Position
    decoys: tuple[Card, ...]


Method = Callable[[Rules, random.Random], Candidate | None]


FIGURES: dict[str, Callable[[Rules, random.Random, list[int], int, int], Figure | None]] = {
    "ladder": sample_ladder,
    "staircase": sample_staircase,
    "wall": sample_wall,
    "junction": sample_junction,
    # chains that pass a card along sets and runs in turn (`generator._motifs`)
    **{f"chain-{kind}": chain_sampler(kind) for kind in MOTIF_KINDS},
    # a meld that gives one card, wanted by rivals or blocked by a hand card (`generator._rivals`)
    "rivals": sample_rivals,
}


@dataclass(frozen=True, slots=True)
class Profile:
    """The knobs of the backwards method."""

    melds: tuple[int, int]
    """How many melds the final table has (inclusive range)."""
    placed: tuple[int, ...]
    """Weights for taking 0, 1, 2 ... cards out of the final table into the hand."""
    decoys: tuple[int, ...]
    """Weights for adding 0, 1, 2 ... decoys."""
    blocks: float = 0.0
    """How often the final table grows a block of parallel runs (see `sample_final_table`)."""
    set_blocks: float = 0.0
    """How often such a block is laid as sets in the final table, so the start table has it as runs."""
    figure: str = "ladder"
    """The figure the table shows when `size` is set: "ladder" (see `sample_ladder`), "staircase"
    (`sample_staircase`) or "wall" (`sample_wall`); the hand holds the cards that make the player lay
    it another way."""
    size: tuple[int, int] | None = None
    """How many melds the figure has (inclusive range); None for no figure."""
    ends: tuple[int, int] = (1, 0)
    """Weights for one or two extra hand cards for the figure (a ladder's ends)."""
    dead_decoys: float = 0.7
    """How often a decoy is a card that no meld of the cards in play could hold at all; the others
    may fit somewhere (live decoys tempt), and the solver decides whether they spoil the puzzle."""
    hand_joker: float = 0.0
    """Under rules with jokers, how often a joker of the final table goes to the hand."""
    ladders: bool = True
    """Whether the start table may show a ladder of sets (see `ladder_length`) that the profile's
    figure did not put there: random splits of parallel runs lay them as sets all too often."""
    decoys_away: bool = False
    """Whether the decoys leave out the figure's `near` cards: a second copy of a card the figure
    gives would let the hand do without it (`generator._rivals`)."""
    jokers_stay: bool = False
    """Whether the final table's jokers all stay on the table, none taken into the hand: a hand
    joker fills the gap a chain passes on."""
    clustered: bool = False
    """Whether the cards taken into the hand lie near each other (same rank, or same suit two ranks
    apart at most), so that one rearrangement places several: a live decoy that blocks it then costs
    more than it gives."""


def backwards(profile: Profile) -> Method:
    """Work backwards from a final table: take cards out into the hand, lay the rest of the table
    another way, and add decoys that look playable."""

    def method(rules: Rules, rng: random.Random) -> Candidate | None:
        stock = supply(rules)
        kept: list[list[int]] = []
        forced: list[int] = []
        lures: list[int] = []
        near: list[int] = []
        if profile.size is not None:
            ends = rng.choices((1, 2), profile.ends)[0]
            figure = FIGURES[profile.figure](rules, rng, stock, rng.randint(*profile.size), ends)
            if figure is None:
                return None
            kept, forced, lures, near = figure.melds, figure.extras, figure.lures, figure.near
            for index in figure.near:
                stock[index] = 0
        final = sample_final_table(
            rules, rng, rng.randint(*profile.melds), profile.blocks, stock, profile.set_blocks
        )
        placed = rng.choices(range(len(profile.placed)), profile.placed)[0]
        cards = [
            index for meld in final for index in meld if not (profile.jokers_stay and index == JOKER_INDEX)
        ]
        joker = JOKER_INDEX in cards and profile.hand_joker > 0 and rng.random() < profile.hand_joker
        for _ in range(3):
            taken = (
                _cluster(rng, cards, placed)
                if profile.clustered
                else rng.sample(cards, min(placed, len(cards)))
            )
            if joker and JOKER_INDEX not in taken:
                taken[0] = JOKER_INDEX
            counts = counts_of(final)
            for index in taken:
                counts[index] -= 1
            start = split_into_melds(counts, rules, rng, avoid=final)
            if (
                start is not None
                and 4 <= len(start) + len(kept) <= 20
                and forced + taken
                and (profile.ladders or not _shows_ladder(start, rules))
            ):
                break
        else:
            return None
        table = layout([to_meld(meld, rules) for meld in kept + start])
        wanted = rng.choices(range(len(profile.decoys)), profile.decoys)[0]
        in_play = counts_of([*final, *kept, forced, lures])
        away = near if profile.decoys_away else ()
        decoys = (
            *(Card.from_index(index) for index in lures),
            *pick_decoys(rules, rng, table, in_play, wanted, profile.dead_decoys, away),
        )
        hand = [Card.from_index(index) for index in forced + taken] + list(decoys)
        return Candidate(Position(rules, tuple(table), tuple(hand)), decoys)

    return method


def _shows_ladder(melds: list[list[int]], rules: Rules) -> bool:
    return ladder_length([to_meld(meld, rules) for meld in melds], rules.top_position) >= 3


def _cluster(rng: random.Random, cards: list[int], count: int) -> list[int]:
    """`count` of the cards (distinct places in `cards`), each near one taken before it when it can be."""
    places = list(range(len(cards)))
    rng.shuffle(places)
    taken = places[: min(count, 1)]
    for place in places[1:]:
        if len(taken) >= count:
            break
        if any(_near(cards[place], cards[other]) for other in taken):
            taken.append(place)
    for place in places:
        if len(taken) >= count:
            break
        if place not in taken:
            taken.append(place)
    return [cards[place] for place in taken[:count]]


def _near(a: int, b: int) -> bool:
    if JOKER_INDEX in (a, b):
        return True
    return rank_of(a) == rank_of(b) or (suit_of(a) == suit_of(b) and abs(rank_of(a) - rank_of(b)) <= 2)


def layout(melds: Sequence[Meld]) -> list[Meld]:
    """Melds as a player tidies the table: sets by rank, then runs by suit and first card."""
    return sorted(
        melds, key=lambda meld: (meld.kind is MeldKind.RUN, meld.suit.index if meld.suit else 0, meld.start)
    )


def pick_decoys(
    rules: Rules,
    rng: random.Random,
    table: Sequence[Meld],
    in_play: Sequence[int],
    wanted: int,
    dead_share: float,
    away: Collection[int] = (),
) -> tuple[Card, ...]:
    """Cards that look playable next to this table: one gap past a run's end, or a rank that a set
    already shows in that suit; none of the cards `away`."""
    near: list[int] = []
    for meld in table:
        real = [card.index for card in meld.cards if not card.is_joker]
        if meld.kind is MeldKind.RUN:
            suit = suit_of(real[0])
            for position in (meld.start - 2, meld.end + 2):
                if 1 <= position <= rules.top_position:
                    near.append(card_at(suit, position))
        else:
            near.extend(real)
    counts = list(in_play)
    left = supply(rules)
    for index, count in enumerate(in_play):
        left[index] -= count
    rng.shuffle(near)
    decoys: list[Card] = []
    for _ in range(wanted):
        available = [index for index in dict.fromkeys(near) if left[index] > 0 and index not in away]
        dead = [index for index in available if not fits_somewhere(index, counts, rules)]
        choices = dead if dead and rng.random() < dead_share else available
        if not choices:
            break
        index = choices[0]
        left[index] -= 1
        counts[index] += 1
        decoys.append(Card.from_index(index))
    return tuple(decoys)


METHODS: dict[str, Method] = {
    # random mid-game tables: mostly easy and medium puzzles
    "b": backwards(Profile(melds=(4, 12), placed=(0, 4, 3, 2, 1), decoys=(1, 2, 3, 3, 2), blocks=0.2)),
    # wide tables with blocks of parallel runs: every tier, the deeper ones rarely
    "w": backwards(Profile(melds=(10, 18), placed=(0, 2, 3, 3), decoys=(1, 2, 3, 3, 2), blocks=0.4)),
    # a short ladder with a card at one end: mostly hard
    "h": backwards(Profile(melds=(3, 8), placed=(3, 1), decoys=(1, 2, 3, 3, 2), blocks=0.1, size=(3, 5))),
    # a ladder of 4-5 ranks with cards at both ends: mostly expert
    "x": backwards(
        Profile(melds=(3, 8), placed=(3, 1), decoys=(1, 2, 3, 3, 2), blocks=0.1, size=(4, 5), ends=(0, 1))
    ),
    # a ladder of 6-8 ranks with cards at both ends: mostly master
    "m": backwards(
        Profile(melds=(3, 8), placed=(3, 2), decoys=(1, 2, 3, 3, 2), blocks=0.1, size=(6, 8), ends=(0, 1))
    ),
}
"""Generation methods by ID letter. A published letter must keep generating the same positions."""

OLD_METHODS = frozenset(METHODS)
"""The letters of the first puzzles: their attempts replay as they were (no live decoys added)."""

# From here on, decoys are mostly live and joker presets put jokers in the hand (issue 10): new
# letters, so that the puzzles of the letters above replay unchanged.
LIVE_DECOYS = 0.8
"""Of the new letters' decoys, the share that may fit somewhere."""
HAND_JOKER = 0.6
LIVE = Profile(
    melds=(4, 12),
    placed=(0, 1, 3, 3, 2),
    decoys=(0, 2, 3, 3, 2),
    blocks=0.2,
    dead_decoys=1 - LIVE_DECOYS,
    hand_joker=HAND_JOKER,
)
"""Random mid-game tables with decoys that may be live and jokers for the hand."""
METHODS |= {
    # random mid-game tables
    "d": backwards(LIVE),
    # wide tables with blocks of parallel runs, more cards taken out: longer chains
    "v": backwards(replace(LIVE, melds=(8, 16), placed=(0, 0, 2, 3, 3, 2), decoys=(0, 2, 3, 3), blocks=0.4)),
    # blocks everywhere: runs that must become sets and sets that must become runs
    "k": backwards(replace(LIVE, melds=(6, 12), placed=(0, 0, 2, 3, 3, 2), decoys=(0, 2, 3, 3), blocks=0.8)),
    # a ladder, now and then
    "l": backwards(
        replace(
            LIVE, melds=(3, 8), placed=(0, 3, 2), decoys=(0, 2, 3, 3), blocks=0.1, size=(3, 6), ends=(1, 1)
        )
    ),
}

# Tables that do not show a ladder by chance, hands that one rearrangement mostly places (so a decoy
# that blocks it is live), blocks laid as sets that the start table lays as runs, and figures (issue 10).
LATER = replace(LIVE, ladders=False)
"""What the letters from here on share: random mid-game tables."""
FIGURE = replace(LATER, melds=(3, 8), placed=(0, 2, 1), decoys=(0, 2, 3, 3), blocks=0.1, ends=(1, 1))
"""A figure beside a small mid-game table."""
METHODS |= {
    # random mid-game tables
    "r": backwards(replace(LATER, clustered=True)),
    # blocks of sets that the start table lays as runs, and blocks of runs that it lays otherwise
    "s": backwards(
        replace(
            LATER,
            melds=(6, 12),
            placed=(0, 0, 2, 3, 3, 2),
            decoys=(0, 2, 3, 3),
            blocks=0.8,
            set_blocks=0.7,
            clustered=True,
        )
    ),
    # a ladder with a card at each end: the set that could take a decoy holds up both
    "t": backwards(replace(FIGURE, size=(3, 5), ends=(0, 1))),
    # a long ladder with a card at each end: master, when the rest of the table ties it together
    "u": backwards(replace(FIGURE, size=(6, 8), ends=(0, 1))),
    # a staircase of sets whose suits shift, which the hand turns into runs: hard and expert
    "a": backwards(replace(FIGURE, figure="staircase", size=(3, 5))),
    # a long staircase: master
    "c": backwards(replace(FIGURE, figure="staircase", size=(6, 8))),
    # a wall of runs of three, which the hand turns into sets: hard and expert
    "e": backwards(replace(FIGURE, figure="wall", size=(3, 5))),
    # a long wall: master
    "f": backwards(replace(FIGURE, figure="wall", size=(6, 8))),
}

BEFORE_TWINS = frozenset(METHODS)
"""The letters before issue 21, whose hands may hold two identical dead decoys: they replay as they were."""
# The random tables again, now without identical dead decoys and with a live decoy tried at every
# tier (generator._make): new letters, so the puzzles of the letters above replay unchanged.
METHODS |= {
    # random mid-game tables, as "r"
    "n": METHODS["r"],
    # blocks of sets laid as runs and of runs laid otherwise, as "s"
    "o": METHODS["s"],
}


def family(
    bases: Sequence[str | Method], joker: float = 0.0, plain: float = 0.0, free: float = 0.0
) -> Method:
    """A method that draws one of these methods (or letters' methods) from the attempt's random state,
    and runs it.

    A table that is a figure (`generator._shapes.is_figure`: issue 21 wants at most a third of Expert
    and Master tables to be one) is given up `plain` of the time, before any solver runs. Under rules
    with jokers, a position that holds none gets one in the hand `joker` of the time: figures are laid
    without jokers, and a joker puzzle should hold one. Then, `free` of the time, a hand joker changes
    places with a table card (`free_a_joker`), so that the best play frees it.
    """

    def method(rules: Rules, rng: random.Random) -> Candidate | None:
        base = rng.choice(bases)
        candidate = (METHODS[base] if isinstance(base, str) else base)(rules, rng)
        if candidate is None:
            return None
        if rng.random() < plain and is_figure(candidate.position.table, rules.top_position):
            return None
        if not rules.jokers:
            return candidate
        position = candidate.position
        if rng.random() < joker and JOKER not in position.hand and not any(m.jokers for m in position.table):
            position = Position(rules, position.table, (*position.hand, JOKER))
        if free and rng.random() < free:
            position = free_a_joker(position, rng) or position
        return replace(candidate, position=position)

    return method


def free_a_joker(position: Position, rng: random.Random) -> Position | None:
    """The position with a hand joker and a table card changed places: the joker stands in a meld
    for the card, which goes to the hand. None when the hand holds no joker or no meld can take one.

    Where the hand's joker was meant for a meld of the best play (a joker taken from the final
    table, or one the other cards need), that play now *frees a joker*: the card goes back in its
    place and the joker goes on to the meld that needs it (under `german-jokers` the player takes
    it back into the hand and lays it again, which the engine counts as the same play).
    """
    if JOKER not in position.hand:
        return None
    rules = position.rules
    places = [
        (i, j) for i, meld in enumerate(position.table) if not meld.jokers for j in range(len(meld.cards))
    ]
    if not places:
        return None
    i, j = rng.choice(places)
    meld = position.table[i]
    taken = meld.cards[j]
    table = list(position.table)
    table[i] = Meld.of((*meld.cards[:j], JOKER, *meld.cards[j + 1 :]), rules)
    hand = list(position.hand)
    hand.remove(JOKER)
    return Position(rules, tuple(table), (*hand, taken))


JUNCTION = backwards(replace(FIGURE, figure="junction", size=(3, 5)))
"""A wall whose set of one rank needs the end card of a run beside it (`sample_junction`)."""
LONG_JUNCTION = backwards(replace(FIGURE, figure="junction", size=(6, 8)))
FAMILY_JOKER = 0.9
PLAIN = 0.7
"""How often the Expert and Master letters give up a table that is a figure."""
"""Under rules with jokers, how often a family letter's position without a joker gets one in the hand."""
# Tiers read decisions as well as chain length (issue 21): a sweep the forcing player follows card by
# card is not Expert or Master however long. These letters add traps while the count is short
# (generator._make._trapped): live decoys that are the obvious move. Each letter is a family, so
# that few letters serve every table.
METHODS |= {
    # a long ladder, staircase or wall, or a long wall that needs a run's end card: master
    "g": family(("u", "c", "f", *(LONG_JUNCTION,) * 5), joker=FAMILY_JOKER, plain=PLAIN),
    # a ladder, staircase or wall of 3-5 ranks, or such a wall that needs a run's end card: expert
    "i": family(("t", "a", "e", *(JUNCTION,) * 5), joker=FAMILY_JOKER, plain=PLAIN),
    # random mid-game tables and blocks, as "n" and "o"
    "p": family(("n", "o"), joker=FAMILY_JOKER),
    # as "i", but without traps: hard, with no identical dead decoys (the letters a, e and t keep theirs)
    "q": family(("t", "a", "e", JUNCTION), joker=FAMILY_JOKER),
}
FREE_JOKER = 0.5
"""Under rules with jokers, how often the letter j's hand joker changes places with a table card."""
METHODS |= {
    # g, i or p, and under rules with jokers half the hand jokers then stand in a table meld for a
    # card that goes to the hand: the best play frees the joker (issue 21). One letter for all
    # three, as method letters are few.
    "j": family(("g", "i", "p"), free=FREE_JOKER),
}
TRAPPING = frozenset("gipj")
"""The letters whose attempts add traps until the decisions reach what the chain length allows."""
UNCOUNTED_JOKERS = frozenset("gip")
"""Letters published while the forcing player did not count jokers: they add no traps to a position
with a joker (they could not then), so that their IDs replay the same positions."""

# Chains that pass a card along sets and runs in turn (`generator._motifs`, issue 21): the best play
# breaks both kinds and the table shows no block. Their hands hold their own traps; the letters
# trap as g and i do when the count still falls short. Under rules with jokers they are i and g.
CHAIN = replace(FIGURE, melds=(2, 6), decoys=(3, 2, 1))
"""A chain beside a small mid-game table, with fewer decoys: the chain's traps are decoys too."""


def _chain(kind: str, size: tuple[int, int], margin: int | None = None, profile: Profile = CHAIN) -> Method:
    figure = f"chain-{kind}" if margin is None else f"chain-{kind}-{margin}"
    if figure not in FIGURES:
        FIGURES[figure] = chain_sampler(kind, margin if margin is not None else MARGIN)
    return backwards(replace(profile, figure=figure, size=size))


CHAINS = {
    "swap": _chain("swap", (6, 8)),
    "cycle": _chain("cycle", (5, 5)),
    "long-cycle": _chain("cycle", (7, 7)),
    "split": _chain("split", (6, 6)),
    "end": _chain("end", (6, 6)),
    "bridge": _chain("bridge", (4, 4)),
}
"""The chain methods by trick; a long cycle (seven melds, a dissolving set at its end and a trap at
each run) is the one that reaches Master."""


def _without_jokers(chains: Method, letter: str) -> Method:
    """The chains, or under rules with jokers this letter's method: a joker in the hand fills the
    hole a chain passes on, so that a chain there makes no puzzle worth the name."""

    def method(rules: Rules, rng: random.Random) -> Candidate | None:
        return (METHODS[letter] if rules.jokers else chains)(rules, rng)

    return method


METHODS |= {
    # a chain of any trick: expert (under joker rules, as i)
    "y": _without_jokers(
        family(tuple(CHAINS[kind] for kind in ("swap", "cycle", "split", "end", "bridge"))), "i"
    ),
    # a long cycle: master (under joker rules, as g)
    "z": _without_jokers(family((CHAINS["long-cycle"],)), "g"),
}
TRAPPING |= frozenset("yz")

# Easy and Medium puzzles that tempt (issue 21): on a random table a single decoy finds room somewhere
# and costs nothing, so these methods build the cost in (`generator._rivals`, RULES.md). The letters
# ran out: from here on a method is a digit and a letter.
RIVALS = replace(
    LATER, melds=(3, 7), placed=(2, 2, 1), decoys=(3, 1), figure="rivals", hand_joker=0.0, decoys_away=True
)
"""A rival or a blocker beside a small mid-game table; the other decoys keep off the figure's cards,
and no joker goes to the hand (it would stand in for the card the meld gives)."""
METHODS |= {
    # a set of four or a run of four that gives one card, with rivals or a blocker: easy
    "0a": backwards(replace(RIVALS, size=(1, 1))),
    # a set of three that takes its fourth suit from a run's end to give one: medium
    "0b": backwards(replace(RIVALS, size=(2, 2))),
}
RIVALLING = frozenset(("0a", "0b"))
"""The methods whose figures bring their own live decoys: no other is added (`generator._make`)."""

# Chains named by how they end, now that a chain's motif is its ending and no longer "cycle" (issue
# 21): at Master a long cycle alone made one motif of nearly every chain, so these bring a swap at
# Master size and a set of four giving the chain's last card, at both tiers. Methods of two
# characters (the letters ran out); y and z keep theirs.
CHAINS |= {
    "master-swap": _chain("swap", (7, 8)),
    "four": _chain("four", (5, 5)),
    "long-four": _chain("four", (7, 7)),
}
METHODS |= {
    # a swap of seven or eight melds: master, and expert when the traps make two decisions
    "2a": _without_jokers(family((CHAINS["master-swap"],)), "g"),
    # a chain of seven ending at a set of four that gives its card: master (and expert)
    "2b": _without_jokers(family((CHAINS["long-four"],)), "g"),
    # a chain of five ending at a set of four, or a swap of six to eight: expert
    "2c": _without_jokers(family((CHAINS["four"], CHAINS["swap"])), "i"),
}
TRAPPING |= frozenset({"2a", "2b", "2c"})

RECIPES: dict[str | None, tuple[str, ...]] = {
    None: ("n", "o", "q", "n", "o", "q", "n", "o", "q", "n", "o", "g", "n", "o", "i", "p", "0a", "0b"),
    "easy": ("n", "n", "n", "n", "n", "n", "0a"),
    "medium": (*("n", "o") * 7, "0b"),
    "hard": (*("q", "n", "o", "q", "n", "o", "q", "n", "q", "o") * 2, "q", "n", "o", "o"),
    "expert": ("y", "i", "2c", "y", "p", "y", "i", "2c"),
    "master": ("z", "2a", "2b", "z", "2a", "g", "2a", "2b"),
}
"""The methods that take turns to find puzzles of each tier (None: any tier), attempt by attempt.
A figure (ladder, staircase, wall) finds deep puzzles many times faster than a random table, so each
gets few turns, and random tables bring the other motifs (see bench/generate.py). Expert and Master
need decisions as well as a long chain: their letters add traps (`TRAPPING`). Chains (y, z) find
them fastest and break sets and runs alike (issue 21), so they take most of those tiers' turns.
Rivals and blockers (0a, 0b) find Easy and Medium puzzles many times as fast as random tables,
nearly all with a live decoy, where random tables have one in about a tenth (at Medium fewer). One
turn in seven (Easy) or fifteen (Medium; now 25, see below) makes about two in five of Easy's
puzzles and a third of Medium's, so that a third or more of each tier tempt; more turns would tip
Medium over the bench's ceiling on motifs, as every 0b puzzle's motif is a swap."""


# Cycles with a joker (issue 21): under rules with jokers, one of the four hand cards that close a
# cycle is a joker, so the best play lays it there and the puzzle holds and moves one. A joker in
# any other hand card of a chain is a shortcut: a chain is a line of gaps, each a card one meld
# needs from the next, and a joker fills any of them (one of the opening pairs around a set's card
# stands for that card itself). Filled at the close, it still needs the whole chain: cut short
# anywhere, the last set never gives its card, and the closing pairs have no run. New names (digit
# and letter): the published letters keep their puzzles.
CYCLE_CLOSE = slice(4, 8)
"""Where a cycle's hand holds its closing pairs (`generator._motifs.sample_chain`): after the two
pairs that open it, before any traps."""
JOKER_CYCLE_TRAPS = 2
"""The most traps a cycle closed by a joker keeps in the hand (a long cycle holds three)."""


def closed_by_joker(
    sampler: Callable[[Rules, random.Random, list[int], int, int], Figure | None],
) -> Callable[[Rules, random.Random, list[int], int, int], Figure | None]:
    """A cycle sampler whose figure, where the stock holds a joker, has one of the hand cards that
    close the cycle replaced by the joker, which stands for that card in the best play."""

    def sample(rules: Rules, rng: random.Random, stock: list[int], length: int, ends: int) -> Figure | None:
        figure = sampler(rules, rng, stock, length, ends)
        if figure is None or not stock[JOKER_INDEX]:
            return figure
        # the joker could fill the gap the opening pairs leave instead, which loses the three
        # real cards that close the cycle and frees every trap: fewer traps than three keep the
        # cycle the better play (`_trapped` adds more only where the solver proves they lose)
        extras = figure.extras[: CYCLE_CLOSE.stop + JOKER_CYCLE_TRAPS]
        for index in figure.extras[len(extras) :]:
            stock[index] += 1
        place = rng.randrange(CYCLE_CLOSE.start, CYCLE_CLOSE.stop)
        stock[extras[place]] += 1
        stock[JOKER_INDEX] -= 1
        extras[place] = JOKER_INDEX
        return Figure(figure.melds, extras, figure.near)

    return sample


FIGURES["joker-cycle"] = closed_by_joker(chain_sampler("cycle"))
JOKER_CHAIN = replace(CHAIN, figure="joker-cycle", hand_joker=0.0)
"""A cycle closed by a joker beside a small mid-game table, whose own jokers, if any, stay on it."""
METHODS |= {
    # a cycle of five melds closed by a hand joker: expert under the joker presets
    "4a": family((backwards(replace(JOKER_CHAIN, size=(5, 5))),)),
    # a long cycle (seven melds) closed by a hand joker, without decoys of its own (a decoy the
    # shortened chain leaves free to lay ties it with the cycle): master under the joker presets
    "5a": family((backwards(replace(JOKER_CHAIN, size=(7, 7), decoys=(1,))),)),
}
TRAPPING |= frozenset({"4a", "5a"})

JOKER_RECIPES: dict[str | None, tuple[str, ...]] = {
    "expert": ("4a", "i", "j", "4a", "p", "j"),
    "master": ("5a", "g", "5a", "j"),
}
"""Under rules with jokers, these tiers' recipes give turns to the letter that frees jokers and to
the cycles closed by a joker (4a, 5a: many times faster than the others, and their best play
always lays the joker). Other chains make no puzzle there (y and z would be i and g)."""

# Expert and Master found, not only built (issue 38): a recipe's position, a figure or a mid-game
# table is the start of a local search (`generator._search`) that keeps a change while the exact
# analysis says the puzzle forks no less and its obvious cards are no less honest. The recipes
# alone plant traps that one rule declines; the search changes their tables and hands until the
# forcing player needs forks and an obvious card belongs to the best play.
SEARCHES: dict[str, str] = {}
"""The searching methods and the tier each one searches for."""
SEARCH_MASTER_BASES: tuple[str | Method, ...] = (
    _without_jokers(family((CHAINS["long-cycle"],)), "g"),
    _without_jokers(family((CHAINS["master-swap"],)), "g"),
    _without_jokers(family((CHAINS["long-four"],)), "g"),
    "u",
    "c",
    "f",
    LONG_JUNCTION,
    "v",
    "k",
    "s",
)
SEARCH_EXPERT_BASES: tuple[str | Method, ...] = ("n", "o", "k")
"""Mid-game tables only: a chain or a figure searched to Expert kept its skeleton, and one skeleton
relabelled is one table (the run left out nearly all of them as near-duplicates)."""
METHODS |= {
    # a master recipe, a long figure or a wide mid-game table, searched for a master that forks
    "6m": family(SEARCH_MASTER_BASES, joker=FAMILY_JOKER),
    # a mid-game table, searched for an expert that forks
    "6e": family(SEARCH_EXPERT_BASES, joker=FAMILY_JOKER),
}
SEARCHES |= {"6m": "master", "6e": "expert"}
METHODS |= {
    # a mid-game table, searched for a master with budgets of its own, its untouched melds pruned
    # (`generator._search.STYLES`)
    "6p": family(SEARCH_EXPERT_BASES, joker=FAMILY_JOKER),
}
SEARCHES |= {"6p": "master"}

RECIPES |= {"expert": ("6e",), "master": ("6p",)}

# Hard and Medium that mix sets and runs (issue 38): Hard was a figure swept through (most tables a
# figure, most best plays breaking only sets or only runs) and Medium mostly an end card, with few
# live decoys. These families lay a short twist beside a small mid-game table, each drawn at random
# so that one letter brings several templates: a card that must leave a run for a set, and the set's
# card that must go on to a run.


def _short_chains(chain: Profile) -> dict[str, Method]:
    """Chains of two to five melds, each beside a small mid-game table (`chain`'s)."""
    return {
        # set, run, set of four: the set of four gives the card the run needs
        "short-four": _chain("four", (3, 3), profile=chain),
        # set, run, set that gives its card and turns into runs
        "short-cycle": _chain("cycle", (3, 3), profile=chain),
        # set, run, set, then a run joined to another by a hand card, so both give an end card
        "short-bridge": _chain("bridge", (4, 4), profile=chain),
        # set, run, set, run of four or five that gives its end card
        "short-end": _chain("end", (4, 4), profile=chain),
        # set, run of six cut in two, set, run of seven (or of four or five) that gives a card
        "short-split": _chain("split", (4, 4), profile=chain),
        # set, run, set, run, set of four
        "short-long-four": _chain("four", (5, 5), profile=chain),
        # a set and a run of seven that gives its middle card: Medium
        "short-middle": _chain("middle", (2, 2), profile=chain),
    }


SHORT_CHAINS = _short_chains(CHAIN)
"""Chains of two to five melds: at Hard and Medium sizes few are one table relabelled, since a
random mid-game table lies beside each."""


def _short_junction(figure: Profile) -> Method:
    """Two runs of three that turn into sets, one of which takes its card from a set of four,
    beside `figure`'s mid-game table."""
    return backwards(replace(figure, figure="junction", size=(2, 2)))


def _hard_bases(chains: dict[str, Method], figure: Profile) -> tuple[Method, ...]:
    """The twists of Hard, drawn for decisions. A split run and a cycle of three ask for a fork most
    often, so they get the most draws; a junction seldom reaches Hard, so it gets two; the others
    ask for declines only. A swap of three melds is left out (it breaks what a cycle of three
    breaks, one template, and never forks), and so is a chain of four ending at a middle card (it
    never forks). The junction lies beside `figure`'s mid-game table."""
    junction = _short_junction(figure)
    return (
        chains["short-four"],
        *(chains["short-cycle"],) * 3,
        chains["short-bridge"],
        chains["short-end"],
        *(chains["short-split"],) * 4,
        chains["short-long-four"],
        *(junction,) * 2,
    )


def _medium_bases(chains: dict[str, Method], figure: Profile) -> tuple[Method, ...]:
    """The twists of Medium: a split run, runs into sets, sets into runs, a set of four giving a
    card; none takes an end card. Figures beside `figure`'s mid-game table."""
    return (
        chains["short-middle"],
        # two runs of three that turn into sets with the hand's cards
        backwards(replace(figure, figure="wall", size=(2, 2))),
        # two sets whose suits differ that turn into runs
        backwards(replace(figure, figure="staircase", size=(2, 2))),
        # a run of three that turns into sets, one of which takes its card from a set of four (it
        # reaches Medium in one attempt in ten: two draws)
        *(backwards(replace(figure, figure="junction", size=(1, 1))),) * 2,
    )


def _expert_twists(chains: dict[str, Method], figure: Profile) -> tuple[Method, ...]:
    """Hard's twists searched to Expert, each once (the near-duplicates of a run come from one
    twist drawn often); the junction beside `figure`'s mid-game table."""
    return (
        chains["short-split"],
        chains["short-end"],
        chains["short-bridge"],
        chains["short-long-four"],
        chains["short-cycle"],
        chains["short-four"],
        _short_junction(figure),
    )


HARD_BASES = _hard_bases(SHORT_CHAINS, FIGURE)
MEDIUM_BASES = _medium_bases(SHORT_CHAINS, FIGURE)
METHODS |= {
    # a short chain or a junction beside a mid-game table, never a figure: hard (under joker
    # rules, where a hand joker fills a chain's gap, as q)
    "8h": _without_jokers(family(HARD_BASES, plain=1.0), "q"),
    # a set and a run of seven, two runs or two sets laid the other way, a run into sets with a set
    # of four: medium (as n under joker rules)
    "8m": _without_jokers(family(MEDIUM_BASES), "n"),
}
RECIPES |= {
    "medium": (*("n", "o", "8m") * 8, "0b"),
    "hard": ("8h", "q", "8h", "n", "8h", "o", "8h", "q", "8h", "o"),
}
"""Issue 38: at most half of Hard's tables a figure and two in five of its best plays breaking a set
and a run; at most half of Medium's puzzles taking an end card and two in five with a live decoy.
The twists (8h, 8m) make most of both tiers' puzzles; figures (q), random tables (n, o) and rivals
(0b, every one an end card) keep the tricks they bring."""

# Hard and Medium twists under rules with jokers (issue 38 item 5): there 8h and 8m were q and n,
# since a chain's table that held a joker gave it to the hand 60% of the time, and a hand joker
# fills the gap a chain passes on. Hard was then mostly figures breaking only sets or only runs, Medium
# short of live decoys (german-jokers) or mostly an end card (jokers). With no joker in the hand
# the twists stand; the table's own jokers stay where they lie, and the solver judges what freeing
# one gives. New letters, so that 8h and 8m replay their puzzles.
HANDLESS_CHAINS = _short_chains(replace(CHAIN, jokers_stay=True))
HANDLESS_FIGURE = replace(FIGURE, jokers_stay=True)
METHODS |= {
    # Hard's twists, no joker in the hand: hard under rules with jokers
    "1h": family(_hard_bases(HANDLESS_CHAINS, HANDLESS_FIGURE), plain=1.0),
    # Medium's twists, no joker in the hand: medium under rules with jokers
    "1d": family(_medium_bases(HANDLESS_CHAINS, HANDLESS_FIGURE)),
}
JOKER_RECIPES |= {
    "medium": (*("n", "o", "1d") * 8, "0b"),
    "hard": ("1h", "q", "1h", "n", "1h", "o", "1h", "q", "1h", "o"),
}
"""Medium's and Hard's recipes with 1d and 1h in 8m's and 8h's turns. On seed 359, runs of 30
(`bench/generate.py`): Hard's figures 73% -> 30% (german-jokers) and 73% -> 27% (jokers), a set and
a run broken 30% -> 80% and 33% -> 80%; Medium's live decoys 33% -> 50% (german-jokers) and its end
card 60% -> 43% (jokers). Both tiers found their puzzles in fewer attempts."""

# The German joker rule asked for (issue 38): a searched position whose best play lays the hand's
# joker has it changed for a table card, so that the best play must free it with that card
# (`generator._freeing`): under `german-jokers` the player takes it back into the hand and lays it
# again. New letters, so that 6e and 6m replay their puzzles.
METHODS |= {"7e": METHODS["6e"], "7m": METHODS["6m"]}
SEARCHES |= {"7e": "expert", "7m": "master"}
FREEING = frozenset({"7e", "7m"})
"""The searching letters whose found position then has its hand joker changed for a table card."""
JOKER_RECIPES |= {"expert": ("6e", "7e"), "master": ("6m", "7m", "6m", "7m", "5a")}

# Expert tables that are not figures (issue 38 after issue 21): searched from mid-game tables (6e),
# 93% of Experts were a figure and 60% held a live decoy. Searched from the short chains of Hard
# (8h's twists: chains of three to five melds beside a small mid-game table, never a figure at the
# start), the search reaches Expert in about one attempt in seven, 15% of them figures and every one
# with a live decoy; but a twist's melds are few shapes relabelled, and a run leaves out more of
# them as near-duplicates the longer it goes. So Expert's recipe takes turns between the two.
EXPERT_TWISTS = _expert_twists(SHORT_CHAINS, FIGURE)
METHODS |= {
    # a short chain beside a small mid-game table, never a figure, searched for an expert that
    # forks (under joker rules, where a hand joker fills a chain's gap, as 6e)
    "3e": _without_jokers(family(EXPERT_TWISTS, plain=1.0), "6e"),
}
SEARCHES |= {"3e": "expert"}
RECIPES |= {"expert": ("6e", "3e")}

# Masters from chains of varied geometry (issue 38): the 6m searches started from chains and figures
# and kept their skeletons, so nearly every Master of a run was a near-duplicate. A chain drawn link
# by link (runs that turn down the ranks, runs of six and five that split or branch, varied ends and
# openings: `generator._geometry`) gives each attempt a skeleton of its own; the search polishes it.
FIGURES["tree"] = sample_tree
TREE = backwards(
    replace(FIGURE, figure="tree", size=(6, 9), melds=(1, 4), placed=(1,), decoys=(2, 3, 1), hand_joker=0.0)
)
"""A chain of six to nine melds of varied geometry, beside a small mid-game table."""
METHODS |= {
    # a chain of varied geometry, searched for a master that forks
    "9m": family((TREE,), joker=FAMILY_JOKER, plain=1.0),
}
SEARCHES |= {"9m": "master"}
METHODS |= {
    # a mid-game table searched as 6p does for a master, a trap added where it lacks a decline,
    # then pruned, a figure's melds first (`generator._search.STYLES`)
    "4m": family(SEARCH_EXPERT_BASES, joker=FAMILY_JOKER),
}
SEARCHES |= {"4m": "master"}
FINISHED_SEARCHES = frozenset({"9m", "4m"})
"""The searching letters whose search is finished in `generator._make`: one that ends with the
goal's chain and forks but a decision short may add a trap for the decline it lacks (a Master's two
forks are what a strong player must find; its third decision may be a decline), and the melds the
best play keeps whole are dropped where the position still meets its goal (a smaller table shares
fewer melds with others: `generator._search.Style.prune_later`)."""
FORKS_BEFORE_SETTLED = frozenset({"6m", "6e", "6p", "7e", "7m", "3e", "9m"})
"""The searching letters published while every decision that is not a decline counted as a fork
(before issue 38 item 1 counted only forks on settled cards, docs/RULES.md): their searches, and
the steps after them that read the count (traps, trims, decoys, a joker freed), keep that count,
so that their IDs replay the same positions; their puzzles are graded with the forks counted now
(`generator._make._searched`), and may come out a tier lower. Named one by one: a letter added
later searches with the forks counted now."""
# Master's recipe takes turns between two kinds of start, a mid-game table (4m) and a chain of
# varied geometry (9m), which share fewer melds with each other than the puzzles of one kind do;
# both add the decline a search leaves a decision short of, and prune after it (docs/GENERATOR.md).
RECIPES |= {"master": ("4m", "9m")}

# Experts from chains of varied geometry (issue 38): 3e's twists are few shapes (a chain climbs, sets
# three ranks apart with runs of three between), so a run left out most of its Experts as
# near-duplicates. A chain of five or six melds drawn link by link (`generator._geometry`: runs that
# turn down the ranks, runs of six that split, runs of four whose single card joins a set, varied
# openings and ends) beside a small mid-game table varies the skeleton attempt by attempt, and is
# searched to Expert as 3e's twists are, then has its melds lengthened (see 1e below). A chain of
# three or four melds seldom reached Expert's chain of four.
EXPERT_TREES: tuple[Method, ...] = (
    backwards(replace(CHAIN, figure="tree", size=(5, 5))),
    backwards(replace(CHAIN, figure="tree", size=(5, 5))),
    backwards(replace(CHAIN, figure="tree", size=(6, 6))),
)
"""A chain of five melds twice as often as one of six, which reached Expert less often."""
METHODS |= {
    # a chain of varied geometry beside a small mid-game table, never a figure, searched for an
    # expert that forks (under joker rules, where a hand joker fills a chain's gap, as 6e)
    "5e": _without_jokers(family(EXPERT_TREES, plain=1.0), "6e"),
}
SEARCHES |= {"5e": "expert"}

# Experts with longer melds (issue 38): two small tables of sets and runs of three share four melds
# after some relabelling far more often than tables that hold longer melds, so a run left out most of
# 3e's and 5e's Experts as near-duplicates of earlier ones (and few of 6e's, whose mid-game tables
# hold runs of four to eight). 1e searches as 3e does, then lengthens melds where the position stays
# an Expert (`generator._search.Style.grow`), as 5e does; 3e keeps its IDs. Expert's recipe gives 6e a
# turn in five: its Experts seldom repeat one another, but nearly all are figures (a turn in four
# made 37-40% of Expert tables figures, a turn in five 30-33%, at about the same rate).
METHODS |= {
    # 3e's twists searched to Expert, their melds then lengthened where it stays one
    "1e": METHODS["3e"],
}
SEARCHES |= {"1e": "expert"}
RECIPES |= {"expert": ("6e", "1e", "5e", "1e", "5e")}

# Experts whose tables share fewer melds (issue 38 item 4): two Experts of a run share four melds
# after relabelling mostly through the sets and runs of three their best plays break, and a search
# adds melds of three. 8e (1e's twists) and 9e (5e's chains) search with longer melds and obvious
# cards among their changes (`generator._search.LONG_CHANGES`), add the decline a search ends a
# decision short of, as 4m and 9m do (`FINISHED_SEARCHES`), and then lengthen runs
# (`generator._search.Style.grow_later`); 1e and 5e keep their IDs.
METHODS |= {"8e": METHODS["1e"], "9e": METHODS["5e"]}
SEARCHES |= {"8e": "expert", "9e": "expert"}
FINISHED_SEARCHES = FINISHED_SEARCHES | {"8e", "9e"}
RECIPES |= {"expert": ("6e", "8e", "9e", "8e", "9e")}

# Masters climbed from Experts (issue 38 item 4): a Master search reaches a chain of 6 in about one
# attempt in six and then seldom keeps two forks; an Expert search reaches a chain of 4-5 with a fork
# cheaply. 2m runs the Expert search of 5e's chains and 3e's twists (half each), then climbs on to
# Master from where it stops, links at the chain's hand end keeping its forks (`generator._ladder`),
# adds the decline it may lack and prunes as 4m and 9m do (docs/GENERATOR.md).
METHODS |= {
    "2m": _without_jokers(family((*EXPERT_TREES * 7, *EXPERT_TWISTS * 3), plain=1.0), "6e"),
}
SEARCHES |= {"2m": "master"}
LADDERS = frozenset({"2m"})
"""The searching letters whose attempt is the Expert search then the climb (`generator._ladder`)."""
FINISHED_SEARCHES = FINISHED_SEARCHES | LADDERS
# 2m made as many Masters a CPU minute as 4m with 9m or more (0.8 and 0.5 on seeds 11 and 23, against
# 0.5 on seed 11), with fewer figures and more live decoys (docs/GENERATOR.md), but its starts come
# from a few Expert skeletons, so a run left out more than half of them as near-duplicates, and on
# seed 29 it alone made fewer than 4 in 15 CPU minutes where 2m taking turns with 4m and 9m made 4
# in 4.4. So 2m takes every other turn, 4m and 9m the rest.
RECIPES |= {"master": ("2m", "4m", "2m", "9m")}

# Experts from chains whose links vary (issue 38 item 3): a run of 30 left out about half of 8e's and
# 9e's Experts, as near-duplicates (a set, a run of three and the next set three ranks on are one
# shape up to relabelling) or for a motif over its share (most of 9e's split a run). 2e draws each
# link's meld and cut at random (`generator._links`) and searches as 9e does.
FIGURES["links"] = sample_links
EXPERT_LINKS: tuple[Method, ...] = (
    backwards(replace(CHAIN, figure="links", size=(5, 5))),
    backwards(replace(CHAIN, figure="links", size=(5, 5))),
    backwards(replace(CHAIN, figure="links", size=(6, 6))),
)
"""A chain of five melds twice as often as one of six, as 5e's."""
METHODS |= {
    # a chain of varied links beside a small mid-game table, never a figure, searched for an expert
    # that forks (under joker rules, where a hand joker fills a chain's gap, as 6e)
    "2e": _without_jokers(family(EXPERT_LINKS, plain=1.0), "6e"),
}
SEARCHES |= {"2e": "expert"}
FINISHED_SEARCHES = FINISHED_SEARCHES | {"2e"}
# 2e's Experts share fewer melds with earlier ones than 8e's and 9e's, and split a run less often, so
# a run of 30 keeps more of them: 2e takes three turns in five, 6e (mid-game tables, whose Experts
# seldom repeat but are often figures) and 8e (Hard's twists, other motifs) one each
# (docs/GENERATOR.md).
RECIPES |= {"expert": ("6e", "2e", "8e", "2e", "2e")}

# Masters climbed from long starts (issue 38 item 4): nearly every Expert search of 2m that stopped
# with the two forks its climb needs started from a chain of 5, and most of 2m's CPU went to searches
# from shorter starts. 1m draws its starts as 2m does and searches only from a chain of 5 or more
# (`generator._ladder.long_ladder`); 2m keeps its IDs.
METHODS |= {"1m": METHODS["2m"]}
SEARCHES |= {"1m": "master"}
LADDERS = LADDERS | {"1m"}
FINISHED_SEARCHES = FINISHED_SEARCHES | LADDERS
# 1m made more Masters a CPU minute than 2m on seeds 11 and 29 (bench/ladder_phases.py), from the
# same starts, so it takes 2m's turns (docs/GENERATOR.md).
RECIPES |= {"master": ("1m", "4m", "1m", "9m")}

# Masters with a fork planted (issue 38 item 4): climbs and searches reach a chain of 6, but from one
# fork a change seldom adds the second. 5m runs 2m's Expert search from the same starts, and where
# it ends with one real fork plants a fork gadget beside it that the analysis says forks once more,
# then climbs as 2m does (`generator._gadgets`); 2m keeps its IDs.
METHODS |= {"5m": METHODS["2m"]}
SEARCHES |= {"5m": "master"}
GADGETS = frozenset({"5m"})
"""The searching letters whose attempt is the Expert search, a fork planted, then the climb."""
FINISHED_SEARCHES = FINISHED_SEARCHES | GADGETS
# Taking 2m's turns beside 4m and 9m, 5m made every Master of the runs measured and 4m and 9m none,
# at half the CPU time; taking three turns in four it made Masters several times as fast as the mix
# with 2m or with 1m (docs/GENERATOR.md). 9m's chains of varied geometry keep the fourth turn, for skeletons
# other than the Expert search's.
RECIPES |= {"master": ("5m", "5m", "5m", "9m")}

# Master's recipe without 9m (issue 38 item 4): in runs of 10 Masters (`bench/recipes.py`), 9m's
# turns made 1 Master in 500 attempts of seeds 11 and 23 (a near-duplicate) for a quarter of the
# run's CPU, and 5m taking every turn made Masters faster on both seeds (docs/EXPERIMENTS.md).
RECIPES |= {"master": ("5m",)}

# 5m whose climb makes no figure (issue 21's ceiling of a third, which runs now keep): every figure
# among 5m's Masters with two real forks on seed 11 was made by the climb's links, none by the
# Expert search or the gadget. On seeds 11, 23 and 47, 5p made as many such Masters as 5m (65 and
# 68), a figure of 5 where 5m made 20, and in runs of 10 that keep figures to a third as many
# Masters a CPU minute as 5m did without the ceiling; 5m with it made a quarter fewer
# (docs/EXPERIMENTS.md). 5m keeps its IDs.
METHODS |= {"5p": METHODS["2m"]}
SEARCHES |= {"5p": "master"}
GADGETS = GADGETS | {"5p"}
FINISHED_SEARCHES = FINISHED_SEARCHES | GADGETS
RECIPES |= {"master": ("5p",)}

# 5p whose climb wants real forks and a fourth decision (issue 38 items 1 and 4): a run keeps only
# Masters whose forks are real, and a third counting more than 3 decisions (`generator._runs`),
# where 5p's climb stops at the first Master it meets. On seeds 11, 23, 47 and 71 (2900 attempts
# each) 5q made as many Masters with two real forks as 5p (81 and 79) and more of them counting
# more than 3 decisions (23 and 15), for less CPU, and runs of 10 kept 26 Masters to 5p's 21
# (docs/EXPERIMENTS.md). 5p keeps its IDs.
METHODS |= {"5q": METHODS["2m"]}
SEARCHES |= {"5q": "master"}
GADGETS = GADGETS | {"5q"}
FINISHED_SEARCHES = FINISHED_SEARCHES | GADGETS
RECIPES |= {"master": ("5q",)}

# 5q from 2e's starts (issue 38 items 3 and 4): the Expert search of 5m, 5p and 5q starts from 2m's
# chains (5e's, of one family of links) and 3e's twists, so their Masters held those Experts' two
# links' skeleton, and a fifth of the pairs of 5q's Masters were near-duplicates. 2e draws each
# link's meld and cut at random (`generator._links`). On seeds 11, 23, 47 and 71, for a tenth more
# CPU, 5t made 99 Masters with two real forks to 5q's 81, 36 of them counting more than 3 decisions
# to 23, 16% of their pairs near-duplicates to 20%, and runs of 10 kept 1.4 Masters a CPU minute to
# 1.0 (docs/EXPERIMENTS.md). 5q keeps its IDs.
METHODS |= {"5t": METHODS["2e"]}
SEARCHES |= {"5t": "master"}
GADGETS = GADGETS | {"5t"}
FINISHED_SEARCHES = FINISHED_SEARCHES | GADGETS
RECIPES |= {"master": ("5t",)}

# Experts from Hard's twists under rules with jokers (issue 38 item 4): there 8e and 2e are 6e,
# since a twist's table gave its joker to the hand, and the recipe's mid-game tables (6e, 7e) made
# 1.7 Experts a CPU minute under german-jokers (seed 359). 3k lays 8e's twists with every joker of
# the table left on it (1h's profiles), puts a joker in the hand and changes it for a table card as
# j does, so that the table holds one standing for a card the hand holds (a joker the hand kept
# would fill the twist's gap), and searches that position to Expert as 8e does. New letter: 8e
# keeps its IDs.
METHODS |= {
    # Hard's twists with a joker standing in a table meld, searched for an expert that forks:
    # expert under rules with jokers
    "3k": family(_expert_twists(HANDLESS_CHAINS, HANDLESS_FIGURE), joker=FAMILY_JOKER, free=1.0, plain=1.0),
}
SEARCHES |= {"3k": "expert"}
FINISHED_SEARCHES = FINISHED_SEARCHES | {"3k"}
JOKER_RECIPES |= {"expert": ("3k", "3k", "7e")}
"""Under rules with jokers 3k takes two turns in three and 7e (a joker the best play frees, from a
mid-game table) the third. Runs of 10 (seed 359, `bench/generate.py`) made 12.3 Experts a CPU
minute under german-jokers where (6e, 7e) made 1.7, and 14.7 under jokers where it made 9.8; every
table holds a joker. Without the joker changed for a table card (the twists alone) they made more,
but under german-jokers 60% held a joker, against issue 21's 80% (docs/EXPERIMENTS.md)."""
