"""Local search for Expert and Master puzzles that fork (issue 38), as hard Sudoku grids are found.

A figure or a chain is a recipe: the forcing player walks its traps with one rule, "never play the
obvious card", and a recipe repeats itself. So these methods start from a mid-game table (Master
also from a recipe's position) and change it a little at a time (a hand card added, dropped or
changed, a meld added or dropped, a run lengthened, a card moved from one meld to another where it
fits), and keep a change when the exact analysis says the puzzle is no worse: still unique, and its
chain length up to the goal's, its grade (the tier that its chain length, decisions and forks earn),
its forks, how honest its obvious cards are and its chain length, in that order, did not fall. The
search stops as soon as the position meets its goal tier with an honest obvious card (see `honest`).

What it costs and what it finds (docs/GENERATOR.md): until the chain reaches the goal's, only the
chain and the obvious cards count, so the forcing player is not asked; a table keeps to a few melds
(`TABLE_MELDS`), since a wide table shares four melds with many others up to relabelling and a run
leaves it out as a near-duplicate; and a search that cannot reach its goal gives no puzzle at all.

Every step depends on proved answers alone (the solver's and the forcing player's, which counts to
a limit of decisions tried, not the clock), so an ID replays the same search on any machine; a step
the solver could not prove ends the attempt.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from generator._grading import (
    LEAST_DECISIONS,
    LEAST_FORKS,
    LOWEST_CHAIN,
    TIERS,
    graded_decisions,
    graded_forks,
    graded_tier,
    skill_below,
)
from generator._methods import free_a_joker
from generator._shapes import extensions, is_figure, obvious_laid
from puzzles import (
    JOKER,
    SUITS,
    Analysis,
    Card,
    Forcing,
    Meld,
    MeldKind,
    Position,
    SkillRun,
    analyse,
    decisions_of,
    skill_limited,
)

STEPS = {"expert": 80, "master": 60}
"""Changes tried per attempt, by goal."""
POLISH = {"expert": 30, "master": 0}
"""Changes tried at least after the chain first reaches the goal's (its forks and decisions). A
Master's search measured slower with more steps, a later give-up or a table of 10 melds at most."""
HOPELESS = {"expert": 25, "master": 15}
"""After this many changes, a search whose chain is still shorter than its goal's gives up."""
TABLE_MELDS = {"expert": (4, 7), "master": (4, 16)}
"""The fewest and most melds a searched table keeps, by goal."""
HAND_CARDS = (4, 10)
"""The fewest and most cards a searched hand keeps."""


def honest(position: Position, laid: tuple[Card, ...]) -> bool:
    """Whether declining every obvious card loses one: some obvious card belongs to the best play,
    and at least three in ten of them do."""
    obvious, placed = obvious_laid(position, laid)
    return placed >= 1 and 10 * placed >= 3 * obvious


@dataclass(frozen=True, slots=True)
class Found:
    """A position the search reached: its analysis and the forcing player's count."""

    analysis: Analysis
    forcing: Forcing | None = None
    """None while the chain is shorter than the goal's (`LOWEST_CHAIN`): the count is asked only
    once the chain is long enough for the grade to need it."""
    skill: SkillRun | None = None
    """The skill-limited player below the goal tier, asked only once the grade reaches the goal."""

    @property
    def beaten(self) -> bool:
        """Whether the skill-limited player below the goal tier reaches the maximum: the position is
        then no puzzle of that tier."""
        return self.skill is not None and self.skill.placed >= self.analysis.best.placed


def plain(position: Position) -> bool:
    """Whether the table is no figure (`generator._shapes.is_figure`): issue 21 wants most deep
    tables to be other than a block of sets or parallel runs."""
    return not is_figure(position.table, position.rules.top_position)


def _score(found: Found, goal: str) -> tuple[int, ...]:
    analysis, forcing = found.analysis, found.forcing
    chain = analysis.chain.length or 0
    honest_cards = int(honest(analysis.position, analysis.best.play.laid))
    if forcing is None:
        # the climb to the goal's chain: only the chain and the obvious cards count
        return (min(chain, LOWEST_CHAIN[goal]), -1, 0, honest_cards, 0, min(chain, 9))
    tier = graded_tier(chain, forcing)
    reached = TIERS.index(tier) if tier is not None else -1
    if found.beaten or reached > TIERS.index(goal):
        # a position the player below the goal solves, or one above the goal (an Expert's search
        # that found a Master), is no puzzle of the goal's tier
        reached = min(reached, TIERS.index(goal) - 1)
    forks = graded_forks(forcing) or 0
    decisions = graded_decisions(forcing) or 0
    return (
        # a long chain is the rarest part of a master: once there, no change may lose it
        min(chain, LOWEST_CHAIN[goal]),
        reached,
        min(forks, LEAST_FORKS[goal] + 1),
        honest_cards,
        min(decisions, LEAST_DECISIONS[goal] + 2),
        min(chain, 9),
    )


def met(found: Found, goal: str) -> bool:
    """Whether the position is a puzzle of the goal tier whose obvious cards are honest."""
    return (
        found.forcing is not None
        and found.skill is not None
        and not found.beaten
        and graded_tier(found.analysis.chain.length or 0, found.forcing) == goal
        and honest(found.analysis.position, found.analysis.best.play.laid)
    )


def graded(
    analysis: Analysis, goal: str, deadline: float, settled: bool = True, any_chain: bool = False
) -> Found | None:
    """The position as the search compares it: the forcing player's count once the chain reaches
    the goal's (at any chain with `any_chain`, as a climb that must keep its forks reads it), and the
    skill-limited player below the goal once the grade reaches the goal; None when the solver could
    not prove the player's run in time. `settled` False: the count of forks before issue 38 item 1
    (`generator._methods.FORKS_BEFORE_SETTLED`)."""
    if not any_chain and (analysis.chain.length or 0) < LOWEST_CHAIN[goal]:
        return Found(analysis)
    forcing = decisions_of(analysis.position, analysis.best.placed, settled=settled)
    if graded_tier(analysis.chain.length or 0, forcing) != goal:
        return Found(analysis, forcing)
    skill = skill_below(goal)
    assert skill is not None, "the goals are Expert and Master"
    run = skill_limited(analysis.position, skill, _left(deadline), goal=analysis.best.placed)
    if not run.proven:
        return None
    return Found(analysis, forcing, run)


Change = Callable[[Position, random.Random], Position | None]
"""A change of the search: a new position, or None where it does not apply (or ValueError)."""


@dataclass(frozen=True, slots=True)
class Style:
    """How one searching method searches: its budgets, and whether it prunes what it found. A budget
    left None takes its goal's (`STEPS`, `POLISH`, `HOPELESS`, `TABLE_MELDS`), so that a new method
    gets budgets of its own without changing how an older letter replays its IDs."""

    steps: int | None = None
    polish: int | None = None
    hopeless: int | None = None
    table_melds: tuple[int, int] | None = None
    prune: int = 0
    """Once the goal is met, how many melds that the best play leaves as they lie the search tries
    to drop, one at a time, keeping each drop after which the goal is still met: a meld nobody
    touches adds nothing to the puzzle but melds another table may share up to relabelling."""
    grow: int = 0
    """Once the goal is met, how many times the search tries to lengthen a meld (a run by a card at
    one end, a set of three to four), keeping each after which the goal is still met: two small
    tables of sets and runs of three share four melds after some relabelling far more often than
    tables that hold longer melds, so a run would leave them out as near-duplicates."""
    unfigure: bool = False
    """Whether pruning tries first the melds whose drop leaves a table that is no figure (`plain`):
    a figure that the best play leaves whole is taken off the table where the puzzle allows."""
    prune_later: bool = False
    """Whether the pruning waits for the caller (`generator._make`, which may first add a trap:
    `pruned`) rather than ending the search."""
    changes: tuple[Change, ...] | None = None
    """The changes a step draws from; None: `CHANGES` (and `JOKER_CHANGES` under jokers)."""
    growths: tuple[Change, ...] | None = None
    """The changes that grow a found position (`grow`); None: `GROWTHS`."""
    grow_later: bool = False
    """Whether the growing waits for the caller (`generator._make`, which may first add a trap:
    `grown`) rather than ending the search."""

    def budgets(self, goal: str) -> tuple[int, int, int, tuple[int, int]]:
        """Steps, polish, hopeless and table melds for this goal."""
        return (
            STEPS[goal] if self.steps is None else self.steps,
            POLISH[goal] if self.polish is None else self.polish,
            HOPELESS[goal] if self.hopeless is None else self.hopeless,
            TABLE_MELDS[goal] if self.table_melds is None else self.table_melds,
        )


def search(
    seed: str, start: Analysis, goal: str, deadline: float, style: Style | None = None, settled: bool = True
) -> Found | None:
    """The best position the search reaches from `start` towards a puzzle of the `goal` tier (see
    the module's docstring), searching as `style` says (by default as the goal's budgets say); None
    when the solver could not prove a step in time. `settled`: as `graded` counts forks."""
    style = style or Style()
    steps, polish, hopeless, melds = style.budgets(goal)
    rng = random.Random(f"{seed}/search")
    if len(start.position.table) > melds[1]:
        # a wide table shares more melds with others (near-duplicates): melds go at random
        position = start.position
        table = list(position.table)
        while len(table) > melds[1]:
            del table[rng.randrange(len(table))]
        narrow = analyse(
            Position(position.rules, tuple(table), position.hand), time_limit=_left(deadline), puzzle=True
        )
        if not narrow.proven:
            return None
        start = narrow
    if _a_puzzle(start):
        found = graded(start, goal, deadline, settled)
        if found is None:
            return None
        current, score = found, _score(found, goal)
    else:
        # no puzzle yet (a wide table cut down): any puzzle a change makes is better
        current, score = Found(start), (-1,)
    limit, polishing = steps, False
    step = 0
    while step < limit and not met(current, goal):
        if score[0] >= LOWEST_CHAIN[goal] and not polishing:
            # the chain is long enough: the decisions and forks get steps of their own
            limit, polishing = max(limit, step + polish), True
        elif score[0] < LOWEST_CHAIN[goal] and step >= hopeless:
            break  # the chain is still too short: another start is likelier to get there
        step += 1
        changed = _change(current.analysis.position, rng, goal, melds, style.changes)
        if changed is None:
            continue
        # a chain short of the score's first figure is not wanted (`least_chain`)
        analysis = analyse(changed, time_limit=_left(deadline), puzzle=True, least_chain=score[0])
        if not analysis.proven:
            return None
        if not _a_puzzle(analysis):
            continue
        if min(analysis.chain.length or 0, LOWEST_CHAIN[goal]) < score[0]:
            continue  # the score's first figure fell: no need to count the decisions
        found = graded(analysis, goal, deadline, settled)
        if found is None:
            return None
        if (new := _score(found, goal)) >= score:
            current, score = found, new
    if style.prune and not style.prune_later and met(current, goal):
        return _pruned(current, goal, deadline, rng, style.prune, melds[0], style.unfigure, settled)
    if style.grow and not style.grow_later and met(current, goal):
        return _grown(current, goal, deadline, rng, style.grow, settled, style.growths)
    return current


def grown(
    seed: str, found: Found, goal: str, deadline: float, style: Style, settled: bool = True
) -> Found | None:
    """The found position grown as `style` says (`Style.grow`), for a search whose growing waits for
    its caller (`Style.grow_later`); None when the solver could not prove a check in time."""
    if not style.grow or not met(found, goal):
        return found
    return _grown(found, goal, deadline, random.Random(f"{seed}/grow"), style.grow, settled, style.growths)


def pruned(
    seed: str, found: Found, goal: str, deadline: float, style: Style, settled: bool = True
) -> Found | None:
    """The found position pruned as `style` says (`Style.prune`), for a search whose pruning waits
    for its caller (`Style.prune_later`); None when the solver could not prove a check in time.
    `settled`: as `graded` counts forks."""
    if not style.prune or not met(found, goal):
        return found
    rng = random.Random(f"{seed}/prune")
    least = style.budgets(goal)[3][0]
    return _pruned(found, goal, deadline, rng, style.prune, least, style.unfigure, settled)


def _pruned(
    found: Found,
    goal: str,
    deadline: float,
    rng: random.Random,
    tries: int,
    least: int,
    unfigure: bool = False,
    settled: bool = True,
) -> Found | None:
    """The found position with melds that its best play leaves as they lie dropped, each tried once
    in a random order (`tries` at most) and kept dropped when the goal is still met (`Style.prune`).
    With `unfigure`, on a table that is a figure the melds whose drop leaves none go first (a drop
    never makes a figure)."""
    position = found.analysis.position
    intact = sorted(set(Counter(position.table) & Counter(found.analysis.best.play.table)), key=str)
    rng.shuffle(intact)
    if unfigure and not plain(position):
        intact.sort(key=lambda meld: plain(_without_meld(position, meld)), reverse=True)
    for meld in intact[:tries]:
        position = found.analysis.position
        if len(position.table) <= least:
            break
        kept = _kept_if_met(found, _without_meld(position, meld), goal, deadline, settled)
        if kept is None:
            return None
        found = kept
    return found


def _without_meld(position: Position, meld: Meld) -> Position:
    table = list(position.table)
    table.remove(meld)
    return Position(position.rules, tuple(table), position.hand)


def _grown(
    found: Found,
    goal: str,
    deadline: float,
    rng: random.Random,
    tries: int,
    settled: bool = True,
    growths: tuple[Change, ...] | None = None,
) -> Found | None:
    """The found position with melds lengthened, `tries` times at most, each lengthening kept when
    the goal is still met (`Style.grow`)."""
    for _ in range(tries):
        position = found.analysis.position
        change: Change = rng.choice(GROWTHS if growths is None else growths)
        try:
            changed = change(position, rng)
        except ValueError:
            continue
        if changed is None:
            continue
        kept = _kept_if_met(found, changed, goal, deadline, settled)
        if kept is None:
            return None
        found = kept
    return found


def _kept_if_met(found: Found, changed: Position, goal: str, deadline: float, settled: bool) -> Found | None:
    """After one change once the goal is met (a meld pruned, a meld grown): the changed position,
    graded, where it is a puzzle that still meets the goal, else `found` as it was; None when a
    solve could not prove its answer in time (the attempt gives up, as the search does)."""
    # a chain short of the goal's meets no goal (`least_chain`)
    analysis = analyse(changed, time_limit=_left(deadline), puzzle=True, least_chain=LOWEST_CHAIN[goal])
    if not analysis.proven:
        return None
    if not _a_puzzle(analysis):
        return found
    graded_change = graded(analysis, goal, deadline, settled)
    if graded_change is None:
        return None
    return graded_change if met(graded_change, goal) else found


def _a_puzzle(analysis: Analysis) -> bool:
    """Whether the analysed position is a puzzle of some tier: a unique maximal play of a card or
    more, that breaks a meld."""
    return analysis.best.placed >= 1 and analysis.uniqueness.unique is True and bool(analysis.chain.length)


def _change(
    position: Position,
    rng: random.Random,
    goal: str,
    melds: tuple[int, int] | None = None,
    drawn: tuple[Change, ...] | None = None,
) -> Position | None:
    """A random change of the position that keeps the table within `melds` (the fewest and most;
    by default the goal's `TABLE_MELDS`): changes are drawn until one applies (DRAWS at most, else
    None), so that every step of the search asks the solver about a new position."""
    melds = TABLE_MELDS[goal] if melds is None else melds
    changes = CHANGES if drawn is None else drawn
    changes = changes + JOKER_CHANGES if position.rules.jokers else changes
    for _ in range(DRAWS):
        change: Change = rng.choice(changes)
        if change in ADDING and len(position.table) >= melds[1]:
            continue
        if change is _drop_meld and len(position.table) <= melds[0]:
            continue
        try:
            changed = change(position, rng)
        except ValueError:  # a meld or position the change made is not valid
            continue
        if changed is not None:
            return changed
    return None


DRAWS = 20
"""How many changes a step draws at most before one applies."""


def _left_over(position: Position) -> Counter[Card]:
    rules = position.rules
    used = position.table_counts() + position.hand_counts()
    every = Counter(
        {Card(rank, suit): rules.copies(Card(rank, suit)) for suit in SUITS for rank in range(1, 14)}
    )
    return every - used


def _near_cards(position: Position) -> list[Card]:
    """Cards a hand might hold beside this table: those that lengthen a meld as it lies, and those
    of a table card's rank or of its suit two ranks away at most."""
    top = position.rules.top_position
    near = {card for meld in position.table for card in extensions(meld, top)}
    for meld in position.table:
        for card in meld.cards:
            if card.suit is None:
                continue
            near |= {Card(card.rank, suit) for suit in SUITS}
            near |= {Card(rank, card.suit) for rank in range(card.rank - 2, card.rank + 3) if 1 <= rank <= 13}
    left = _left_over(position)
    return sorted((card for card in near if left[card] > 0), key=Card.sort_key)


def _add_hand_card(position: Position, rng: random.Random) -> Position | None:
    if len(position.hand) >= HAND_CARDS[1]:
        return None
    near = _near_cards(position)
    if not near:
        return None
    return Position(position.rules, position.table, (*position.hand, rng.choice(near)))


def _add_obvious_card(position: Position, rng: random.Random) -> Position | None:
    """A hand card that lengthens a table meld as it lies: where the best play cannot place it,
    declining it is a decision (a search a decision short of its goal usually lacks a decline)."""
    if len(position.hand) >= HAND_CARDS[1]:
        return None
    left = _left_over(position)
    top = position.rules.top_position
    ends = sorted(
        {card for meld in position.table for card in extensions(meld, top) if left[card] > 0},
        key=Card.sort_key,
    )
    if not ends:
        return None
    return Position(position.rules, position.table, (*position.hand, rng.choice(ends)))


def _drop_hand_card(position: Position, rng: random.Random) -> Position | None:
    if len(position.hand) <= HAND_CARDS[0]:
        return None
    hand = list(position.hand)
    del hand[rng.randrange(len(hand))]
    return Position(position.rules, position.table, tuple(hand))


def _change_hand_card(position: Position, rng: random.Random) -> Position | None:
    near = _near_cards(position)
    if not near or not position.hand:
        return None
    hand = list(position.hand)
    place = rng.randrange(len(hand))
    others = [card for card in near if card != hand[place]]
    if not others:
        return None
    hand[place] = rng.choice(others)
    return Position(position.rules, position.table, tuple(hand))


def _add_meld(position: Position, rng: random.Random) -> Position | None:
    """A set of three or a run of three beside a card of the table, from the cards left over."""
    return _added_meld(position, rng, None)


def _add_long_meld(position: Position, rng: random.Random) -> Position | None:
    """A set of three or a run of four to six beside a card of the table, from the cards left over:
    a table of melds of three shares four of them with many others up to relabelling."""
    return _added_meld(position, rng, (4, 5, 6))


def _add_run_meld(position: Position, rng: random.Random) -> Position | None:
    """A run of four to six beside a card of the table, from the cards left over, never a set of
    three: every set of three is one meld up to relabelling, the one two tables share most."""
    left = _left_over(position)
    anchor = rng.choice([card for meld in position.table for card in meld.cards if card.suit is not None])
    length = rng.choice((4, 5, 6))
    options = []
    for start in range(max(anchor.rank - length, 1), min(anchor.rank + 2, 15 - length)):
        run = tuple(Card(rank, anchor.suit) for rank in range(start, start + length))
        if all(left[card] > 0 for card in run):
            options.append(run)
    if not options:
        return None
    meld = Meld.of(rng.choice(options), position.rules)
    return Position(position.rules, (*position.table, meld), position.hand)


def _added_meld(position: Position, rng: random.Random, lengths: tuple[int, ...] | None) -> Position | None:
    """A set of three or a run of one of `lengths` (three when None, drawing nothing for it, as
    `_add_meld` always drew) beside a card of the table, from the cards left over."""
    left = _left_over(position)
    cards = [card for meld in position.table for card in meld.cards if card.suit is not None]
    anchor = rng.choice(cards)
    options: list[tuple[Card, ...]] = []
    suits = [suit for suit in SUITS if left[Card(anchor.rank, suit)] > 0]
    if len(suits) >= 3:
        options.append(tuple(Card(anchor.rank, suit) for suit in rng.sample(suits, 3)))
    length = 3 if lengths is None else rng.choice(lengths)
    for start in range(anchor.rank - length, anchor.rank + 2):
        run = tuple(Card(rank, anchor.suit) for rank in range(start, start + length) if 1 <= rank <= 13)
        if len(run) == length and all(left[card] > 0 for card in run):
            options.append(run)
    if not options:
        return None
    meld = Meld.of(rng.choice(options), position.rules)
    return Position(position.rules, (*position.table, meld), position.hand)


def _drop_meld(position: Position, rng: random.Random) -> Position | None:
    if len(position.table) <= 1:
        return None
    table = list(position.table)
    del table[rng.randrange(len(table))]
    return Position(position.rules, tuple(table), position.hand)


def _lengthen_run(position: Position, rng: random.Random) -> Position | None:
    """A run of the table one card longer at one end, from the cards left over."""
    runs = [i for i, meld in enumerate(position.table) if meld.kind is MeldKind.RUN and not meld.jokers]
    if not runs:
        return None
    i = rng.choice(runs)
    meld = position.table[i]
    left = _left_over(position)
    ends = [card for card in extensions(meld, position.rules.top_position) if left[card] > 0]
    if not ends:
        return None
    end = rng.choice(ends)
    cards = (end, *meld.cards) if end.rank == meld.start - 1 else (*meld.cards, end)
    table = list(position.table)
    table[i] = Meld.of(cards, position.rules)
    return Position(position.rules, tuple(table), position.hand)


def _fill_set(position: Position, rng: random.Random) -> Position | None:
    """A set of three of the table made a set of four, from the cards left over."""
    left = _left_over(position)
    sets = [
        (i, card)
        for i, meld in enumerate(position.table)
        if meld.kind is MeldKind.SET and len(meld.cards) == 3 and not meld.jokers
        for card in (Card(meld.start, suit) for suit in SUITS)
        if card not in meld.cards and left[card] > 0
    ]
    if not sets:
        return None
    i, card = rng.choice(sets)
    table = list(position.table)
    table[i] = Meld.of((*table[i].cards, card), position.rules)
    return Position(position.rules, tuple(table), position.hand)


def _move_card(position: Position, rng: random.Random) -> Position | None:
    """A card that a meld can spare (a run's end card, a set of four's card) moved to another meld
    it lengthens as it lies."""
    top = position.rules.top_position
    table = list(position.table)
    spare = []
    for i, meld in enumerate(table):
        if len(meld.cards) < 4 or meld.jokers:
            continue
        if meld.kind is MeldKind.SET:
            spare += [(i, j) for j in range(len(meld.cards))]
        else:
            spare += [(i, 0), (i, len(meld.cards) - 1)]
    rng.shuffle(spare)
    for i, j in spare:
        card = table[i].cards[j]
        homes = [k for k, meld in enumerate(table) if k != i and card in extensions(meld, top)]
        if not homes:
            continue
        k = rng.choice(homes)
        rest = tuple(c for n, c in enumerate(table[i].cards) if n != j)
        target = table[k]
        if target.kind is MeldKind.RUN and card.rank == target.start - 1:
            grown = (card, *target.cards)
        else:
            grown = (*target.cards, card)
        table[i] = Meld.of(rest, position.rules)
        table[k] = Meld.of(grown, position.rules)
        return Position(position.rules, tuple(table), position.hand)
    return None


CHANGES: tuple[Callable[[Position, random.Random], Position | None], ...] = (
    _add_hand_card,
    _drop_hand_card,
    _change_hand_card,
    _change_hand_card,
    _add_meld,
    _add_meld,
    _drop_meld,
    _lengthen_run,
    _move_card,
)
"""The changes a step draws from, a hand card changed and a meld added twice as often as the others."""
GROWTHS: tuple[Callable[[Position, random.Random], Position | None], ...] = (_lengthen_run, _fill_set)
"""The changes that lengthen a meld (`Style.grow`)."""
LONG_CHANGES: tuple[Change, ...] = (
    _add_hand_card,
    _add_obvious_card,
    _drop_hand_card,
    _change_hand_card,
    _change_hand_card,
    _add_long_meld,
    _add_long_meld,
    _drop_meld,
    _lengthen_run,
    _lengthen_run,
    _move_card,
)
"""CHANGES with longer melds and obvious cards: a meld added is a set of three or a run of four to
six, a run is lengthened twice as often, and a hand card may be added among the cards that lengthen
a table meld as it lies."""
RUN_GROWTHS: tuple[Change, ...] = (_lengthen_run, _lengthen_run, _fill_set)
"""GROWTHS with runs lengthened twice as often as sets filled: a set of four is the same meld in
every table up to relabelling."""
RUN_CHANGES: tuple[Change, ...] = tuple(
    _add_run_meld if change is _add_long_meld else change for change in LONG_CHANGES
)
"""LONG_CHANGES with a run of four to six as the meld added, never a set of three (2e)."""
ADDING = frozenset({_add_meld, _add_long_meld, _add_run_meld})
"""The changes that add a meld to the table."""


def _joker_to_hand(position: Position, rng: random.Random) -> Position | None:
    """A joker into the hand, where the rules have one left."""
    del rng
    held = position.hand_counts()[JOKER] + position.table_counts()[JOKER]
    if held >= position.rules.jokers or len(position.hand) >= HAND_CARDS[1]:
        return None
    return Position(position.rules, position.table, (*position.hand, JOKER))


def _free_joker(position: Position, rng: random.Random) -> Position | None:
    """The hand's joker and a table card change places (`free_a_joker`): a best play that needs
    the joker must free it with its real card."""
    return free_a_joker(position, rng)


JOKER_CHANGES: tuple[Callable[[Position, random.Random], Position | None], ...] = (
    _joker_to_hand,
    _free_joker,
)
"""The changes added under rules with jokers."""


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)


STYLES: dict[str, Style] = {
    "6p": Style(steps=100, polish=40, hopeless=40, table_melds=(6, 12), prune=8),
    "4m": Style(
        steps=100, polish=40, hopeless=40, table_melds=(6, 12), prune=8, unfigure=True, prune_later=True
    ),
    "9m": Style(prune=8, unfigure=True, prune_later=True),
    "2m": Style(prune=8, unfigure=True, prune_later=True),
    "1m": Style(prune=8, unfigure=True, prune_later=True),
    "5m": Style(prune=8, unfigure=True, prune_later=True),
    "5p": Style(prune=8, unfigure=True, prune_later=True),
    "5q": Style(prune=8, unfigure=True, prune_later=True),
    "5t": Style(prune=8, unfigure=True, prune_later=True),
    "5e": Style(grow=6),
    "1e": Style(grow=6),
    "8e": Style(grow=8, grow_later=True, changes=LONG_CHANGES, growths=RUN_GROWTHS),
    "9e": Style(grow=8, grow_later=True, changes=LONG_CHANGES, growths=RUN_GROWTHS),
    "2e": Style(grow=8, grow_later=True, changes=RUN_CHANGES, growths=GROWTHS),
    "3k": Style(grow=8, grow_later=True, changes=LONG_CHANGES, growths=RUN_GROWTHS),
}
"""The searching letters that search otherwise than by their goal's budgets (6e and 6m keep theirs,
so that their IDs replay), or that go on once their goal is met (6p prunes, 4m and 9m prune after
their trap, 1e and 5e grow melds, 8e, 9e and 3k search with longer melds and grow runs after their
trap)."""
