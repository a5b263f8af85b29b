"""Masters climbed from Experts (issue 38 item 4): the Expert search first, then a climb to Master.

A Master search from a mid-game table or a chain mostly never reaches a chain of 6 (five in six on
main, before this letter), and when it does it seldom keeps two forks, which are what a strong
player must find. An Expert search (5e's chains of varied geometry, 3e's twists) reaches a chain of
4 or 5 with a fork in about one search in three, cheaply. So a ladder's attempt runs that search
first and climbs on from where it stops (`ladder`):

- a *link* lengthens the chain at its hand end: a hand card the best play lays into a meld of the
  rearrangement moves into a new table meld (a set or a run of three, whose other cards the hand's
  new card holds together once it leaves; or a set of four or a run of four that can spare it), or
  onto a table meld it lengthens as it lies, so that one more meld must break to pass it on;
- the search's own changes (`generator._search`) bring the rest: hand cards, melds, moved cards.

Unlike the Master search, the climb counts the forcing player's forks at every step, and no change
may lose one (`_score`: forks first, then the tier reached, then the chain), so the fork the Expert
search found survives the links. Every step reads proved answers alone, so an ID replays.

What limits it is the second fork, not the chain: links reach a chain of 6 in most climbs, but no
change measured adds a fork to a climbed chain more than about once in a hundred tries
(docs/GENERATOR.md).
"""

from __future__ import annotations

import random
import time
from collections import Counter

from generator._grading import (
    LEAST_DECISIONS,
    LEAST_FORKS,
    LOWEST_CHAIN,
    TIERS,
    graded_decisions,
    graded_forks,
    graded_tier,
    tier_of,
)
from generator._search import (
    Found,
    Style,
    _a_puzzle,
    _change,
    _left_over,
    graded,
    honest,
    met,
    plain,
    search,
)
from generator._shapes import extensions
from puzzles import (
    SUITS,
    Analysis,
    Card,
    Meld,
    MeldKind,
    Position,
    analyse,
    weak_forks,
)

CLIMB = 60
"""Changes the climb tries after the Expert search."""
POLISH = 60
"""Changes the climb tries at least once the chain first reaches the goal's: the second fork is
rarer than the links that lengthen the chain."""
LINKS = 0.5
"""The share of the climb's changes that are links (the rest are the search's own changes)."""
MELDS = (4, 12)
"""The fewest and most melds a climbed table keeps."""
CHANGED_MELDS = (4, 9)
"""The same for the search's own changes: past it only links add melds (a meld added at random
filled the table before the links could lengthen the chain)."""
HAND_FLOOR = 4
"""The fewest cards a climbed hand keeps (a link that takes no card in return shrinks it)."""
START_GOAL = "expert"
"""The goal of the search the ladder starts with."""
FORK_CAP = 2
"""The forks the climb's score counts up to (`_score`): a Master's."""
LONG_START = 5
"""The shortest chain of a start that 1m searches from (`long_ladder`)."""
LONG_SEARCH = Style(steps=50)
"""1m's Expert search: from a chain of 5 the search counts forks at its first step, and of the
searches that stopped with two forks most had them by the 50th change."""


def ladder(
    seed: str, start: Analysis, goal: str, deadline: float, style: Style | None = None, settled: bool = True
) -> Found | None:
    """The best position a ladder reaches from `start`: the Expert search (as 5e and 1e search,
    without growing melds), then the climb to `goal` from where it stopped, when it stopped with
    a chain of 4 or more and the goal's forks already (climbs from one fork made no Master: the
    second fork is what a climb seldom finds). None when the solver could not prove a step in time; `style`
    is the caller's (the pruning after the climb is its), `settled` as `generator._search.graded`."""
    del style
    return _climbed(seed, start, goal, deadline, Style(), settled)


def _climbed(
    seed: str, start: Analysis, goal: str, deadline: float, expert: Style, settled: bool
) -> Found | None:
    """The Expert search from `start` as `expert` says, then the climb when it stopped with the
    goal's forks."""
    found = search(seed, start, START_GOAL, deadline, expert, settled)
    if found is None or found.forcing is None or (graded_forks(found.forcing) or 0) < LEAST_FORKS[goal]:
        return found
    return climb(seed, found, goal, deadline, settled)


def long_ladder(
    seed: str, start: Analysis, goal: str, deadline: float, style: Style | None = None, settled: bool = True
) -> Found | None:
    """1m: `ladder` from a start whose chain is LONG_START or more, else the start as it is (no
    puzzle of `goal`). Nearly every Expert search of 2m that stopped with two forks started from a
    chain of 5 (docs/GENERATOR.md), and a start's chain is known before the search costs anything.
    The Expert search is cut to LONG_SEARCH's budget."""
    del style
    if (start.chain.length or 0) < LONG_START:
        return Found(start)
    return _climbed(seed, start, goal, deadline, LONG_SEARCH, settled)


CLIMBS = {"2m": ladder, "1m": long_ladder}
"""The ladders by letter (`generator._methods.LADDERS`)."""


def climb(
    seed: str,
    found: Found,
    goal: str,
    deadline: float,
    settled: bool = True,
    plain: bool = False,
    real: bool = False,
) -> Found | None:
    """The climb from a found position towards a puzzle of `goal` (see the module's docstring): up
    to CLIMB changes, each kept when its score does not fall; None when a step was not proved.
    `plain`: a change that makes a table that is no figure a figure (`generator._shapes.is_figure`)
    is passed over before any analysis: the climb's links are where planted Masters become figures.
    `real`: the goal met with a weak fork (`puzzles.weak_forks`, as a run judges it) climbs on, and
    met with just the decisions the goal needs, it climbs on for one more (`STRETCH` changes more
    for each), keeping each change that stays as high (`_score`)."""
    rng = random.Random(f"{seed}/ladder")
    current = graded(found.analysis, goal, deadline, settled, any_chain=True)
    if current is None:
        return None
    score = _score(current, goal, real)
    limit, polishing, step = CLIMB, False, 0
    stretched: set[str] = set()
    while step < limit:
        if met(current, goal):
            wanted = _wanted(current, goal, score) if real else None
            if wanted is None:
                break
            if wanted not in stretched:
                stretched.add(wanted)
                limit = max(limit, step + STRETCH)
        if not polishing and (current.analysis.chain.length or 0) >= LOWEST_CHAIN[goal]:
            limit, polishing = max(limit, step + POLISH), True
        step += 1
        position = current.analysis.position
        try:
            if rng.random() < LINKS:
                changed = _link(current.analysis, rng)
            else:
                changed = _change(position, rng, goal, CHANGED_MELDS)
        except ValueError:  # a meld the change made is not valid
            continue
        if changed is None or len(changed.hand) < HAND_FLOOR or len(changed.table) > MELDS[1]:
            continue
        if plain and _made_figure(position, changed):
            continue
        # a chain too short to keep up with the score is not wanted (`least_chain`, `_floor`)
        floor = _floor(score)
        analysis = analyse(changed, time_limit=_left(deadline), puzzle=True, least_chain=floor)
        if not analysis.proven:
            return None
        if not _a_puzzle(analysis) or (analysis.chain.length or 0) < floor:
            continue
        found_now = graded(analysis, goal, deadline, settled, any_chain=True)
        if found_now is None:
            return None
        if (new := _score(found_now, goal, real)) >= score:
            current, score = found_now, new
    return current


STRETCH = 60
"""Changes a `real` climb tries more once it meets its goal with a weak fork, and again once it
meets it with just the decisions the goal needs (issue 38 item 1 wants a third of Masters to count
more, and a run keeps only those whose forks are real)."""


def _wanted(found: Found, goal: str, score: tuple[int, ...]) -> str | None:
    """What a `real` climb that met its goal still wants: "real" forks, one decision "more", or
    nothing (None)."""
    if score[REAL] < LEAST_FORKS[goal]:
        return "real"
    if (graded_decisions(found.forcing) or 0) <= LEAST_DECISIONS[goal]:
        return "more"
    return None


REAL = 4
"""Where a `real` climb's score holds the real forks (`_score`)."""


def _made_figure(before: Position, after: Position) -> bool:
    return plain(before) and not plain(after)


def _score(found: Found, goal: str, real: bool = False) -> tuple[int, ...]:
    """Forks first (a link that loses the Expert's fork is no step up), then the tier the grade
    reaches (a position the player below the goal solves counts a tier lower), the chain up to the
    goal's, honest obvious cards, the decisions, the chain. `real`: after honest obvious cards, the
    real forks (up to FORK_CAP) of a position that meets the goal, 0 of one that does not (judging
    them costs a solve for each card of one home)."""
    analysis, forcing = found.analysis, found.forcing
    if real:
        unjudged = _score(found, goal)
        forks = min(_real_forks(found), FORK_CAP) if met(found, goal) else 0
        return (*unjudged[:REAL], forks, *unjudged[REAL:])
    chain = analysis.chain.length or 0
    tier = graded_tier(chain, forcing)
    reached = TIERS.index(tier) if tier is not None else -1
    if found.beaten:
        reached = min(reached, TIERS.index(goal) - 1)
    return (
        min(graded_forks(forcing) or 0, FORK_CAP),
        reached,
        min(chain, LOWEST_CHAIN["master"]),
        int(honest(analysis.position, analysis.best.play.laid)),
        min(graded_decisions(forcing) or 0, 5),
        min(chain, 9),
    )


def _real_forks(found: Found) -> int:
    """The real forks of a position whose forks the forcing player counted, as a run judges them
    (`generator._make.judged`)."""
    analysis = found.analysis
    assert found.forcing is not None
    position, best = analysis.position, analysis.best
    return weak_forks(position, best.placed, best.play.laid, found.forcing).forks_at_least


def _floor(score: tuple[int, ...]) -> int:
    """The shortest chain whose position could score as high as `score` (`_score`), so that the
    climb asks no forcing count of a change it would refuse anyway: once the forks are at their cap,
    a chain reaches at most the tier of its length, and at that tier no more than its length."""
    forks, reached, chain = score[:3]
    if forks < FORK_CAP:
        return 0  # a change may add a fork, whatever its chain
    return next(
        length
        for length in range(1, LOWEST_CHAIN["master"] + 1)
        if (highest := TIERS.index(tier_of(length) or TIERS[0])) > reached
        or (highest == reached and min(length, LOWEST_CHAIN["master"]) >= chain)
    )


def _link(analysis: Analysis, rng: random.Random) -> Position | None:
    """A link at the chain's hand end: a hand card that the best play lays into a meld holding a
    broken meld's card goes into the table (into a new meld, or onto a meld the best play keeps),
    so that the meld that holds it must break to pass it on."""
    position = analysis.position
    cards = _linked(analysis)
    if not cards:
        return None
    card = rng.choice(cards)
    hand = list(position.hand)
    hand.remove(card)
    kind = rng.choice(LINK_KINDS)
    if kind == "onto":
        return _onto(analysis, card, tuple(hand), rng)
    left = _left_over(position)
    rules = position.rules
    if kind in ("set", "set of four"):
        others = [
            Card(card.rank, suit) for suit in SUITS if suit != card.suit and left[Card(card.rank, suit)] > 0
        ]
        if len(others) < 3:
            return None
        rng.shuffle(others)
        if kind == "set":
            # the fourth suit in the hand holds the other two together once the card leaves
            cards_of: tuple[Card, ...] = (card, others[0], others[1])
            hand.append(others[2])
        else:
            cards_of = (card, *others)
        return Position(rules, (*position.table, Meld.of(cards_of, rules)), tuple(hand))
    length = 3 if kind == "run" else 4
    up = rng.random() < 0.5
    ranks = range(card.rank, card.rank + length) if up else range(card.rank - length + 1, card.rank + 1)
    if min(ranks) < 1 or max(ranks) > rules.top_position or max(ranks) > 13:
        return None
    run = [Card(rank, card.suit) for rank in ranks]
    if any(left[other] < 1 for other in run if other != card):
        return None
    if kind == "run":
        # the card beyond in the hand holds the other two together once the card leaves
        rank = card.rank + length if up else card.rank - length
        if not 1 <= rank <= 13 or left[Card(rank, card.suit)] < 1:
            return None
        hand.append(Card(rank, card.suit))
    return Position(rules, (*position.table, Meld.of(run, rules)), tuple(hand))


LINK_KINDS = ("set", "set of four", "run", "run of four", "onto")


def _linked(analysis: Analysis) -> list[Card]:
    """The hand cards that the play of fewest breaks lays into a final meld holding a card of its
    largest rearrangement's melds: a link elsewhere would lengthen a shorter rearrangement."""
    position, play = analysis.position, analysis.depth.play
    groups = analysis.chain.rearrangements
    if play is None or not groups:
        return []
    largest: Counter[Card] = Counter()
    for i in max(groups, key=len):
        largest.update(position.table[i].cards)
    laid = set(play.laid)
    cards = {
        card
        for meld in play.table
        if any(largest[other] for other in meld.cards)
        for card in meld.cards
        if card in laid and card.suit is not None
    }
    return sorted(cards, key=Card.sort_key)


def _onto(analysis: Analysis, card: Card, hand: tuple[Card, ...], rng: random.Random) -> Position | None:
    """The card onto a table meld the best play keeps, which it lengthens as it lies."""
    position = analysis.position
    top = position.rules.top_position
    broken = set(analysis.depth.broken)
    homes = [
        i
        for i, meld in enumerate(position.table)
        if i not in broken and not meld.jokers and card in extensions(meld, top)
    ]
    if not homes:
        return None
    i = rng.choice(homes)
    meld = position.table[i]
    before = meld.kind is MeldKind.RUN and card.rank == meld.start - 1
    grown = (card, *meld.cards) if before else (*meld.cards, card)
    table = list(position.table)
    table[i] = Meld.of(grown, position.rules)
    return Position(position.rules, tuple(table), hand)


def _left(deadline: float) -> float:
    return max(deadline - time.perf_counter(), 0.001)
