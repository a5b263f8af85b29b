"""The forcing player of docs/RULES.md: how many decisions a maximal play takes, not how big it is.

Plain combinatorics, no solver. The player sees each card only as where its copies end: in a set
(of its rank), in a run (of its suit) or, for hand copies, left in the hand. A *value* of a card
is that split as counts `(sets, runs, kept)`. Every card starts with every value its copies allow;
the forced moves of RULES.md remove values that cannot work, and a decision fixes one card's value.
Removing values is monotone, so the forced moves reach the same end whatever their order, and a
decision line is a set of decisions: a breadth-first search over the states the forced moves reach
finds the fewest.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement
from operator import itemgetter
from typing import cast

from puzzles._cards import JOKER, SUITS, Card
from puzzles._melds import Meld, MeldKind
from puzzles._plays import matching
from puzzles._position import Position
from puzzles._rules import FreedJoker
from puzzles._solver import unsettled

DEFAULT_NODE_LIMIT = 20_000
"""Decisions tried before the search gives up and says so; a Master table needs a few thousand."""
COUNTS_KEPT = 256
"""The counts `decisions_of` keeps, the latest used."""
JOKER_NODE_LIMIT = 2_000
"""The limit on a position with a joker, wherever a count is given (`decisions_of`: the generator's
lines, `show`, `check`, and the solve answer alike). A joker stands in for so many cards that its
searches run far longer than classic ones (tens of seconds at the default limit, on a loaded
machine); three decisions are all a grade needs, and a tenth of the default proves them. Published
puzzle IDs were graded with it: changing it would change which puzzle some of them give."""
KEY_NODE_LIMIT = 20_000
"""Decisions tried by `agreeing_line`, the key ideas' own search where the grade's line does not
reach the solution (most joker puzzles, whose count stops at JOKER_NODE_LIMIT): it tries only the
solution's value of each card, so a joker Master's line takes a few thousand at most."""

Value = tuple[int, int, int]
"""How a card's copies end: (in sets, in runs, kept in the hand)."""
_Uses = tuple[tuple[int, int], ...]
"""How many copies of each other card (card, copies) some runs of three take."""
_Question = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""A card, the number of its values (`_Board._tops`), and the most copies its set partners and its
run partners can give."""
_Answer = tuple[tuple[Value, ...], list[tuple[int, int, int]]]
"""The values a meld can hold, and (card, copies in sets, copies in runs) its melds need."""
State = tuple[tuple[Value, ...], ...]
"""Each card's values still possible, in the order of `_Board.cards`."""
_Key = tuple[State | None, frozenset[int], frozenset[tuple[int, Value]], int]
"""A node of the forcing player's search: its state and declines; a dead end also by the values its
declines gave; and, in a search that caps the forks where some decisions are free choices, the
forks of its line (else 0: its forks are its decisions less its declines)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: every copy of `card` (table and hand together) ends as these counts say."""

    card: Card
    sets: int
    runs: int
    kept: int
    """Hand copies left in the hand."""
    kind: str = "fork"
    """"decline" when it refuses the card's obvious move (docs/RULES.md); "choice" when the card is
    not settled (some maximal play ends it otherwise: any of its homes wins, so it is a free
    choice, no fork); else "fork"."""

    def __str__(self) -> str:
        parts = [f"{n} in {what}" for n, what in ((self.sets, "a set"), (self.runs, "a run")) if n]
        if self.kept:
            parts.append(f"{self.kept} kept")
        if len(parts) == 1 and self.sets + self.runs + self.kept == 1:
            return f"{self.card} {parts[0].removeprefix('1 ')}"
        return f"{self.card}: {', '.join(parts)}"


@dataclass(frozen=True, slots=True)
class Forcing:
    """What the forcing player found for a position."""

    decisions: int | None
    """The fewest decisions that reach a maximal play; None when not proved (see `at_least`)."""
    at_least: int
    """A proved lower bound: every line of fewer decisions was tried and fails."""
    proven: bool
    line: tuple[Decision, ...]
    """Decisions that, with the forced moves and the rest left as it lies, make a maximal play: of
    `decisions` decisions (see `agrees` for a longer one); when the decisions are not proved, a line
    of `forks_at_least` forks, the fewest of any line, that the search for the bound found (it may
    have more decisions than the fewest), or none."""
    nodes: int
    """Decisions tried."""
    ms: float
    modelled: bool = True
    """False when the player did not count at all (no position it cannot model is left: jokers
    are modelled since issue 21); kept so that stored answers read the same."""
    forks: int | None = None
    """The fewest forks among the lines of `decisions` decisions (the rest are declines); None when
    not proved (see `forks_at_least`)."""
    forks_at_least: int = 0
    """A proved lower bound on `forks`: when `decisions` is not proved, the decisions proved less
    the cards there are to decline and the free choices there are; when the cards settled are not
    proved (`settled` False), the forks counted on the cards proved settled."""
    agrees: bool | None = None
    """Given a play to agree with (`shown`): whether every decided card of `line` ends as it does
    in that play. The line is one of as few decisions and, where one agrees, as few forks; where
    only a line with more forks agrees, it is that one (its kinds count more forks than `forks`);
    where none of as few decisions agrees, the shortest line that does (longer than `decisions`);
    where that search runs out of its budget, a line laid along the play (`_laid_along`), from which
    no decision can be left out. False only when the play given is none of the position's. None
    when no play was given."""
    settled: bool | None = None
    """Whether the solver proved which cards are settled (docs/RULES.md: every maximal play ends
    the card alike; a decision on another is a free choice, no fork): False when one of its solves
    stopped at its limit, and then the cards not proved settled count as free choices, `forks` is
    None and `forks_at_least` is the count, never above the truth. None when it was not asked (no
    decision to tell apart, or counted with `settled=False`, every decision not a decline a fork)."""
    free: tuple[Card, ...] = ()
    """The cards a decision on which is a free choice: not settled, or not proved settled."""
    laid_along: bool = False
    """Whether the line was laid along the play shown (`_laid_along`) rather than searched: it
    agrees, but says more than a searched line would."""

    @property
    def declines(self) -> int | None:
        """The declines of the line counted: `decisions` less `forks`."""
        if self.decisions is None or self.forks is None:
            return None
        return self.decisions - self.forks


class _Board:
    """The cards of a position and what each needs from the others; fixed for one search."""

    def __init__(self, position: Position, maximum: int) -> None:
        table: Counter[Card] = position.table_counts()
        hand: Counter[Card] = position.hand_counts()
        self.maximum = maximum
        self.ace_high = position.rules.ace_high
        self.cards: tuple[Card, ...] = tuple(sorted(set(table) | set(hand), key=lambda c: c.index))
        where = {card: i for i, card in enumerate(self.cards)}
        self.table = tuple(table[card] for card in self.cards)
        self.hand = tuple(hand[card] for card in self.cards)
        self.joker: int | None = where.get(JOKER)
        """The index of the joker among the cards (both presets' jokers are one card), if any."""
        self._read_jokers(position, hand)
        self._read_lying(position, hand)
        windows = [self._windows(card, where) for card in self.cards]
        self._read_peers(where, windows)
        self._read_runs(windows)
        self._checked: dict[_Question, _Answer] = {}
        """`_check`'s answers: a search asks the same few questions again and again."""
        self._decided: dict[tuple[State, int, Value], State | None] = {}
        self._begun: dict[tuple[frozenset[int], tuple[tuple[int, Value], ...]], State | None] = {}
        self._solved: dict[State, bool] = {}
        """What `decide`, `begin` and `solved` found: the searches of one count (the decisions, then
        the forks, then a line that agrees) walk the same nodes again, four in ten of them with a
        joker (docs/EXPERIMENTS.md)."""
        self._tops: dict[tuple[Value, ...], tuple[int, int, int]] = {}
        """Each distinct list of values' most copies in sets and in runs, and its number: `_check`'s
        answers are keyed on the number, not the list (hashing the list was a fifth of a count)."""
        self._kept_range: dict[tuple[Value, ...], tuple[int, int]] = {}
        self._lows: dict[tuple[Value, ...], tuple[int, int]] = {}
        """Each distinct list of values' fewest copies in sets and in runs."""
        self._peer_maxes = tuple(_picker(peers) for peers in self.peers)
        self._partner_maxes = tuple(_picker(partners) for partners in self.run_partners)
        """What `_check` reads of the others for each card, as a tuple: its answers' key."""
        self._everything = self.start()
        self.free: frozenset[int] = frozenset()
        """The cards that are not settled (or not proved settled): a decision on one is a free
        choice, no fork. Empty until `forcing_player` asks the solver (`_settle`)."""

    def _read_jokers(self, position: Position, hand: Counter[Card]) -> None:
        """What the table's jokers stand for, how many may end in the hand, and the cards held."""
        options = [opts for meld in position.table for opts in meld.stand_ins()]
        self.stand_ins: tuple[frozenset[Card], ...] = tuple(options)
        """What each table joker stands for: under `german-jokers` a laid copy frees it to the hand."""
        self.freeable = 0
        if position.rules.freed_joker is FreedJoker.HAND and options:
            self.freeable = matching(options, Counter({c: n for c, n in hand.items() if not c.is_joker}))
        """Table jokers that may end in the hand: each needs its own hand card it stands for."""
        self.held = tuple(i for i, n in enumerate(self.hand) if n or (i == self.joker and self.freeable))

    def _read_lying(self, position: Position, hand: Counter[Card]) -> None:
        """Where each card lies now, and where it ends if nothing moves it."""
        lying: Counter[tuple[Card, MeldKind]] = Counter()
        for meld in position.table:
            lying.update((card, meld.kind) for card in meld.cards)
        self.lying: tuple[Value, ...] = tuple(
            (lying[card, MeldKind.SET], lying[card, MeldKind.RUN], hand[card]) for card in self.cards
        )
        """Where each card's copies are now: its value if nothing moves."""
        self.obvious = tuple(
            _obvious(card, position) if hand[card] and not card.is_joker else None for card in self.cards
        )
        """For each hand card that fits a table meld as it lies, and only sets or only runs: the
        index of that kind in a value (0 sets, 1 runs). The player lays it there at once. A joker
        fits nearly everywhere: where it goes is never obvious."""
        self.default: tuple[Value, ...] = tuple(
            lying if kind is None else _one_more(lying, kind)
            for lying, kind in zip(self.lying, self.obvious, strict=True)
        )
        """Where a card ends if nothing forces it and no decision moves it."""

    def _read_peers(self, where: dict[Card, int], windows: list[tuple[tuple[int, int], ...]]) -> None:
        """Each card's set partners, and the cards its checks read."""
        jokers = () if self.joker is None else (self.joker,)
        self.peers: tuple[tuple[int, ...], ...] = tuple(
            ()
            if card.is_joker
            else (
                *(
                    where[other]
                    for suit in SUITS
                    if suit != card.suit and (other := Card(card.rank, suit)) in where
                ),
                *jokers,
            )
            for card in self.cards
        )
        """For each card, the cards of its rank in the other suits, and the joker: a joker may stand
        for one of a set's cards (one to a set, so it counts as one more suit)."""
        everyone = frozenset(range(len(self.cards)))
        self.neighbours: tuple[frozenset[int], ...] = tuple(
            everyone
            if i == self.joker
            else frozenset({i, *self.peers[i], *jokers, *(j for window in windows[i] for j in window)})
            for i in range(len(self.cards))
        )
        """For each card, itself and the cards whose values its checks read (and that read its); the
        joker's check reads every card."""

    def _read_runs(self, windows: list[tuple[tuple[int, int], ...]]) -> None:
        """The runs of three through each card, and the melds of three a joker can make."""
        self.run_combos: tuple[tuple[tuple[_Uses, ...], ...], ...] = tuple(
            tuple(_combos(found, copies) for copies in range(t + h + 1))
            for found, t, h in zip(windows, self.table, self.hand, strict=True)
        )
        """For each card and number of its copies in runs, each choice of that many runs of three
        through it, as how many copies of each other card they take."""
        self.run_partners = tuple(tuple(sorted({j for window in found for j in window})) for found in windows)
        # the melds of three a joker can make: two cards of one rank in different suits, or two
        # cards of one suit that a run of three holds with it
        self.joker_sets = tuple(
            (i, j)
            for i, j in combinations(range(len(self.cards)), 2)
            if i != self.joker and j in self.peers[i] and j != self.joker
        )
        self.joker_runs = tuple(
            sorted({(min(i, j), max(i, j)) for i, found in enumerate(windows) for window in found
                    if self.joker in window for j in window if j != self.joker})
        )  # fmt: skip

    def _windows(self, card: Card, where: dict[Card, int]) -> tuple[tuple[int, int], ...]:
        """The other two cards of each run of three through this card; with a joker, one of them
        may be the joker, which then stands for its place whether that card is in play or not."""
        if card.suit is None:
            return ()
        places = (1, 14) if card.rank == 1 and self.ace_high else (card.rank,)
        top = 14 if self.ace_high else 13
        joker = where.get(JOKER)
        found: set[tuple[int, int]] = set()
        for place in places:
            for first in range(place - 2, place + 1):
                if first < 1 or first + 2 > top:
                    continue
                others = [p for p in range(first, first + 3) if p != place]
                ids = [where.get(Card(1 if p == 14 else p, card.suit)) for p in others]
                if ids[0] is not None and ids[1] is not None:
                    found.add((ids[0], ids[1]))
                for one in ids:
                    if one is not None and joker is not None:
                        found.add((min(one, joker), max(one, joker)))
        return tuple(sorted(found))

    @property
    def everything(self) -> State:
        """Every value each card's copies allow."""
        return self._everything

    def begin(self, declined: frozenset[int], line: Sequence[tuple[int, Value]]) -> State | None:
        """The state after the obvious moves (but the `declined` ones) and the decisions of `line`."""
        key = (declined, tuple(line))
        if key in self._begun:
            return self._begun[key]
        found = self._begun[key] = self._begin(declined, line)
        return found

    def decide(self, state: State, i: int, value: Value) -> State | None:
        """The state after giving card `i` this one value, and the forced moves that follow."""
        key = (state, i, value)
        if key in self._decided:
            return self._decided[key]
        found = self._decided[key] = self.propagate((*state[:i], (value,), *state[i + 1 :]), (i,))
        return found

    def _begin(self, declined: frozenset[int], line: Sequence[tuple[int, Value]]) -> State | None:
        state = list(self.everything)
        for i, kind in enumerate(self.obvious):
            if kind is not None and i not in declined:
                state[i] = tuple(v for v in state[i] if v[kind] > self.lying[i][kind])
        for i, value in line:
            if value not in state[i]:
                return None
            state[i] = (value,)
        return self.propagate(tuple(state))

    def choices(self, state: State | None, declined: frozenset[int]) -> list[tuple[int, Value, bool]]:
        """Each decision open in this state: a card, a value, and whether it declines the card's
        obvious move. From a contradiction (None) only declining an obvious move goes on."""
        found = []
        everything = self.everything
        for i, values in enumerate(state or everything):
            if state is None:
                values = ()
            kind = self.obvious[i]
            if kind is not None and i not in declined:
                found += [(i, v, False) for v in values if len(values) > 1 and v != self.default[i]]
                found += [(i, v, True) for v in everything[i] if v[kind] <= self.lying[i][kind]]
            elif len(values) > 1:
                found += [(i, v, False) for v in values if v != self.default[i]]
        return found

    def decisions(self, line: Sequence[tuple[int, Value]]) -> tuple[Decision, ...]:
        return tuple(Decision(self.cards[i], *value, kind=self.kind(i, value)) for i, value in line)

    def kind(self, i: int, value: Value) -> str:
        """A decision's kind: "decline", "choice" (a card not settled) or "fork"."""
        if self.declines(i, value):
            return "decline"
        return "choice" if i in self.free else "fork"

    def is_fork(self, i: int, value: Value) -> bool:
        return not self.declines(i, value) and i not in self.free

    @property
    def free_cards(self) -> tuple[Card, ...]:
        return tuple(self.cards[i] for i in sorted(self.free))

    def declines(self, i: int, value: Value) -> bool:
        """Whether giving card `i` this value refuses its obvious move: a decline, not a fork."""
        kind = self.obvious[i]
        return kind is not None and value[kind] <= self.lying[i][kind]

    @property
    def declinable(self) -> int:
        """The cards whose obvious move a line may decline: no line has more declines."""
        return sum(1 for kind in self.obvious if kind is not None)

    def values_of(self, position: Position, table: Sequence[Meld]) -> tuple[Value, ...] | None:
        """Each card's value in a play whose final table is `table`; None when that table holds
        cards the position does not (it is no play of it)."""
        where = {card: i for i, card in enumerate(self.cards)}
        sets = [0] * len(self.cards)
        runs = [0] * len(self.cards)
        for meld in table:
            counts = sets if meld.kind is MeldKind.SET else runs
            for card in meld.cards:
                if card not in where:
                    return None
                counts[where[card]] += 1
        values = []
        for i, total in enumerate(t + h for t, h in zip(self.table, self.hand, strict=True)):
            kept = total - sets[i] - runs[i]
            if kept < 0:
                return None
            values.append((sets[i], runs[i], kept))
        return tuple(values)

    def agrees(self, line: Sequence[tuple[int, Value]], target: Sequence[Value]) -> bool:
        return all(target[i] == value for i, value in line)

    def start(self) -> State:
        states = []
        for i, (total, held) in enumerate(
            zip((t + h for t, h in zip(self.table, self.hand, strict=True)), self.hand, strict=True)
        ):
            if i == self.joker:
                held += self.freeable  # table jokers a hand card may free (german-jokers)
            states.append(
                tuple(
                    (s, r, total - s - r)
                    for s in range(total + 1)
                    for r in range(total - s + 1)
                    if total - s - r <= held
                )
            )
        return tuple(states)

    # -- the forced moves

    def propagate(self, state: State, changed: Sequence[int] | None = None) -> State | None:
        """Apply the forced moves until none applies; None when some card has no value left.

        `changed` names the cards whose values were cut since `state` was last propagated (None:
        all of them); only the cards that depend on those are looked at again.
        """
        domains = list(state)
        tops = self._tops
        # each card's most copies in sets and in runs, read off its values once per distinct values
        read = [tops.get(d) or self._top(d) for d in domains]
        max_set = [top[0] for top in read]
        max_run = [top[1] for top in read]
        numbers = [top[2] for top in read]
        queue = set(range(len(domains)) if changed is None else self._around(changed))
        neighbours = self.neighbours

        def cut(j: int, keep: tuple[Value, ...]) -> None:
            domains[j] = keep
            max_set[j], max_run[j], numbers[j] = tops.get(keep) or self._top(keep)
            queue.update(neighbours[j])

        while queue:
            if not self._checks(domains, numbers, max_set, max_run, queue, cut):
                return None
            if not self._goal(domains, cut):
                return None
        return tuple(domains)

    def _top(self, values: tuple[Value, ...]) -> tuple[int, int, int]:
        top = self._tops[values] = (max(v[0] for v in values), max(v[1] for v in values), len(self._tops))
        return top

    def _checks(
        self,
        domains: list[tuple[Value, ...]],
        numbers: list[int],
        max_set: list[int],
        max_run: list[int],
        queue: set[int],
        cut: Callable[[int, tuple[Value, ...]], None],
    ) -> bool:
        """Check each card of the queue until it is empty, cutting what the checks rule out; False
        when some card has no value left."""
        peer_maxes, partner_maxes, checked = self._peer_maxes, self._partner_maxes, self._checked
        lows, joker = self._lows, self.joker
        while queue:
            i = queue.pop()
            values = domains[i]
            found: _Answer | None
            if i == joker:
                # the joker's check reads every card: not worth a key
                found = (self._check_joker(values, max_set, max_run), [])
            else:
                key = (i, numbers[i], peer_maxes[i](max_set), partner_maxes[i](max_run))
                found = checked.get(key)
                if found is None:
                    found = checked[key] = self._check(i, values, max_set, max_run)
            assert found is not None
            keep, needs = found
            if not keep:
                return False
            if len(keep) < len(values):
                cut(i, keep)
            for j, in_sets, in_runs in needs:
                others = domains[j]
                low = lows.get(others)
                if low is None:
                    low = lows[others] = (min(v[0] for v in others), min(v[1] for v in others))
                if low[0] >= in_sets and low[1] >= in_runs:
                    continue  # every value meets the need: most needs, most of the time
                keep = tuple(v for v in others if v[0] >= in_sets and v[1] >= in_runs)
                if not keep:
                    return False
                if len(keep) < len(domains[j]):
                    cut(j, keep)
        return True

    def _goal(self, domains: list[tuple[Value, ...]], cut: Callable[[int, tuple[Value, ...]], None]) -> bool:
        """The goal: exactly `maximum` hand cards reach the table. Cut each held card's values that
        cannot meet it with the others' values; False when no values can."""
        low = [0] * len(domains)
        high = [0] * len(domains)
        for i in self.held:
            kept = self._kept(domains[i])
            low[i] = self.hand[i] - kept[1]
            high[i] = self.hand[i] - kept[0]
        total_low, total_high = sum(low), sum(high)
        if not total_low <= self.maximum <= total_high:
            return False
        for i in self.held:
            least = self.maximum - (total_high - high[i])
            most = self.maximum - (total_low - low[i])
            if least <= low[i] and high[i] <= most:
                continue  # every value of the card fits the goal
            values = domains[i]
            keep = tuple(v for v in values if least <= self.hand[i] - v[2] <= most)
            if len(keep) < len(values):
                cut(i, keep)
        return True

    def _kept(self, values: tuple[Value, ...]) -> tuple[int, int]:
        """The fewest and the most hand copies these values keep."""
        found = self._kept_range.get(values)
        if found is None:
            kept = [v[2] for v in values]
            found = self._kept_range[values] = (min(kept), max(kept))
        return found

    def _around(self, cards: Sequence[int]) -> set[int]:
        return {j for i in cards for j in self.neighbours[i]}

    def _check(
        self, i: int, values: tuple[Value, ...], max_set: Sequence[int], max_run: Sequence[int]
    ) -> tuple[tuple[Value, ...], list[tuple[int, int, int]]]:
        """The values of card `i` that some meld can hold, and what its melds need of the others
        (card, copies in sets, copies in runs)."""
        if i == self.joker:
            return self._check_joker(values, max_set, max_run), []
        # nowhere: a card goes only where a meld can hold it
        keep = tuple(v for v in values if self._set_ok(i, v[0], max_set) and self._run_ok(i, v[1], max_run))
        if not keep:
            return keep, []
        # partners: what its sets or runs must take from the others
        least_set = min(v[0] for v in keep)
        needs = [(j, n, 0) for j, n in self._set_needs(i, least_set, max_set)] if least_set else []
        least_run = min(v[1] for v in keep)
        if least_run:
            needs += [(j, 0, n) for j, n in self._run_needs(i, least_run, max_run)]
        return keep, needs

    def _check_joker(
        self, values: tuple[Value, ...], max_set: Sequence[int], max_run: Sequence[int]
    ) -> tuple[Value, ...]:
        """The joker's values that a meld of three can hold: it goes to sets only when two cards
        of one rank in different suits may, to runs only when two cards that a run of three holds
        with it may. It has no partners rule of its own (it fits too many melds)."""
        in_sets = any(max_set[a] and max_set[b] for a, b in self.joker_sets)
        in_runs = any(max_run[a] and max_run[b] for a, b in self.joker_runs)
        return tuple(v for v in values if (in_sets or not v[0]) and (in_runs or not v[1]))

    def _set_ok(self, i: int, copies: int, max_set: Sequence[int]) -> bool:
        """Whether `copies` sets of this card's rank can each find two other suits."""
        return sum(min(max_set[j], copies) for j in self.peers[i]) >= 2 * copies

    def _set_needs(self, i: int, copies: int, max_set: Sequence[int]) -> list[tuple[int, int]]:
        """Copies of a peer that must go to sets for `copies` sets of this card."""
        supply = [min(max_set[j], copies) for j in self.peers[i]]
        total = sum(supply)
        found = []
        for j, own in zip(self.peers[i], supply, strict=True):
            need = 2 * copies - (total - own)
            if need > 0:
                found.append((j, need))
        return found

    def _run_fits(self, i: int, copies: int, max_run: Sequence[int]) -> list[dict[int, int]]:
        """Each choice of `copies` runs of three through this card that the others can fill."""
        return [dict(uses) for uses in self.run_combos[i][copies] if all(n <= max_run[j] for j, n in uses)]

    def _run_ok(self, i: int, copies: int, max_run: Sequence[int]) -> bool:
        if copies == 0:
            return True
        return any(all(n <= max_run[j] for j, n in uses) for uses in self.run_combos[i][copies])

    def _run_needs(self, i: int, copies: int, max_run: Sequence[int]) -> list[tuple[int, int]]:
        fits = self._run_fits(i, copies, max_run)
        if not fits:
            return []  # the card's own check removes the value on the next pass
        cards = set(fits[0]).intersection(*fits[1:])
        return [(j, min(uses[j] for uses in fits)) for j in cards]

    # -- the end of the turn

    def finish(self, state: State) -> tuple[Value, ...] | None:
        """Every card settled, the undecided ones left where they lie; None if one cannot be."""
        values = []
        for i, d in enumerate(state):
            if len(d) == 1:
                values.append(d[0])
            elif self.default[i] in d:
                values.append(self.default[i])
            else:
                return None
        return tuple(values)

    def solved(self, state: State) -> bool:
        found = self._solved.get(state)
        if found is None:
            values = self.finish(state)
            found = self._solved[state] = values is not None and self.is_maximal_play(values)
        return found

    def is_maximal_play(self, values: Sequence[Value]) -> bool:
        """Whether these values lay out as valid melds and place exactly the maximum."""
        placed = sum(h - v[2] for h, v in zip(self.hand, values, strict=True))
        if placed != self.maximum:
            return False
        jokers: Value = (0, 0, 0) if self.joker is None else values[self.joker]
        freed = jokers[2] - (0 if self.joker is None else self.hand[self.joker])
        if freed > 0:
            # each joker back in the hand was freed by its own laid copy of a card it stands for
            laid = Counter({c: h - v[2] for c, h, v in zip(self.cards, self.hand, values, strict=True)})
            del laid[JOKER]
            if matching(list(self.stand_ins), laid) < freed:
                return False
        by_rank: dict[int, list[int]] = {}
        by_suit: dict[int, dict[int, int]] = {}
        for card, value in zip(self.cards, values, strict=True):
            if card.suit is None:
                continue
            if value[0]:
                by_rank.setdefault(card.rank, []).append(value[0])
            if value[1]:
                by_suit.setdefault(card.suit.index, {})[card.rank] = value[1]
        # each rank (suit) takes some of the jokers bound for sets (runs), one to a meld
        set_jokers = [
            {j for j in range(jokers[0] + 1) if _sets_with(_four(counts), j)} for counts in by_rank.values()
        ]
        if not _shares(set_jokers, jokers[0]):
            return False
        run_jokers = [
            {j for j in range(jokers[1] + 1) if _runs_split(counts, self.ace_high, j)}
            for counts in by_suit.values()
        ]
        return _shares(run_jokers, jokers[1])


def _picker(indices: Sequence[int]) -> Callable[[Sequence[int]], tuple[int, ...]]:
    """A function that reads these places of a list as a tuple (`itemgetter`, which gives a bare
    item for one place and needs at least one)."""
    if not indices:
        return lambda _: ()
    if len(indices) == 1:
        only = indices[0]
        return lambda items: (items[only],)
    return cast(Callable[[Sequence[int]], tuple[int, ...]], itemgetter(*indices))


def _shares(options: Sequence[set[int]], total: int) -> bool:
    """Whether one choice from each set of numbers adds up to `total` (every set must give one)."""
    sums = {0}
    for choices in options:
        sums = {a + b for a in sums for b in choices if a + b <= total}
    return total in sums


def _four(counts: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted([*counts, 0, 0, 0, 0][:4], reverse=True))


def _obvious(card: Card, position: Position) -> int | None:
    """0 when the card fits only sets of the table as it lies, 1 only runs, else None."""
    kinds = set()
    for meld in position.table:
        if meld.kind is MeldKind.SET:
            if meld.start == card.rank and len(meld.cards) < 4 and card not in meld.cards:
                kinds.add(0)
        elif meld.suit == card.suit:
            places = (1, 14) if card.rank == 1 and position.rules.ace_high else (card.rank,)
            if any(p in (meld.start - 1, meld.end + 1) for p in places):
                kinds.add(1)
    return kinds.pop() if len(kinds) == 1 else None


def _one_more(value: Value, kind: int) -> Value:
    """The value with one hand copy moved from the hand to a meld of this kind."""
    sets, runs, kept = value
    return (sets + 1, runs, kept - 1) if kind == 0 else (sets, runs + 1, kept - 1)


def _combos(windows: Sequence[tuple[int, int]], copies: int) -> tuple[_Uses, ...]:
    found = []
    for chosen in combinations_with_replacement(windows, copies):
        uses = Counter(j for window in chosen for j in window)
        found.append(tuple(sorted(uses.items())))
    return tuple(found)


def _sets_split(counts: Sequence[int]) -> bool:
    """Whether cards of one rank, `counts` copies per suit, split into sets of 3 or 4 suits."""
    total = sum(counts)
    # m sets dealt round-robin take every suit at most once each when no suit has more than m
    return any(max(counts) <= m for m in range(-(-total // 4), total // 3 + 1))


# reached by no request: the forcing player runs in the generator's grading and the CLI only
@cache
def _sets_with(counts: tuple[int, ...], jokers: int) -> bool:
    """Whether cards of one rank (copies per suit, largest first) and this many jokers split into
    sets, one joker a set at most: the set that holds one copy of the first suit left is tried
    every way."""
    if not any(counts):
        return jokers == 0
    if jokers == 0:
        return _sets_split(counts)
    others = range(1, 4)
    for size in (1, 2, 3):
        for chosen in combinations(others, size):
            if not all(counts[i] for i in chosen):
                continue
            for joker in (0, 1):
                if not 3 <= 1 + size + joker <= 4:
                    continue
                left = list(counts)
                for i in (0, *chosen):
                    left[i] -= 1
                if _sets_with(_four(left), jokers - joker):
                    return True
    return False


def _runs_split(counts: dict[int, int], ace_high: bool, jokers: int = 0) -> bool:
    """Whether cards of one suit (`counts` copies per rank) and this many jokers split into runs of
    3 or more, one joker a run at most."""
    aces = counts.get(1, 0)
    for high in range(aces + 1) if ace_high else (0,):
        line = [0] * 15
        for rank, n in counts.items():
            line[rank] = n
        line[1], line[14] = aces - high, high
        if _line_with(tuple(line), jokers, 14 if ace_high else 13):
            return True
    return False


# reached by no request: the forcing player runs in the generator's grading and the CLI only
@cache
def _line_with(line: tuple[int, ...], jokers: int, top: int) -> bool:
    """`_line_splits` with jokers: the run that holds the lowest card left starts there, or just
    below it with a joker, and is tried at every length with the joker (if any) at every place."""
    if jokers == 0:
        return _line_splits(line)
    low = next((p for p, n in enumerate(line) if n), None)
    if low is None:
        return False  # a joker alone makes no run
    for start in (low, low - 1):
        if start < 1:
            continue
        for end in range(start + 2, top + 1):
            if start == 1 and end == 14:
                continue
            span = range(start, end + 1)
            missing = [p for p in span if not line[p]]
            if len(missing) > 1:
                break
            holes: list[int | None] = [*missing] if missing else [None, *span]
            for hole in holes:
                left = list(line)
                for p in span:
                    if p != hole:
                        left[p] -= 1
                if _line_with(tuple(left), jokers - (hole is not None), top):
                    return True
    return False


def _line_splits(line: Sequence[int]) -> bool:
    # Greedy: a copy first extends a run of 1 or 2 (which must go on), then a run of 3+, else
    # starts a run; extending a run of 3+ is never worse than closing it and starting another.
    short1 = short2 = long = 0
    for n in [*line, 0]:
        if n < short1 + short2:
            return False
        n -= short1 + short2
        extended = min(n, long)
        short1, short2, long = n - extended, short1, short2 + extended
    return True


def forcing_player(
    position: Position,
    maximum: int,
    node_limit: int = DEFAULT_NODE_LIMIT,
    shown: Sequence[Meld] | None = None,
    settled: bool = True,
) -> Forcing:
    """The fewest decisions with which the forcing player of RULES.md places `maximum` cards, and
    the fewest forks among lines of that many decisions.

    A fork decides a settled card (every maximal play ends it alike, `puzzles._solver.unsettled`);
    a decision on another card is a free choice, which counts as a decision and not as a fork. With
    `settled` False every decision that is not a decline counts as a fork, as before issue 38: the
    count that older generator methods search with, so that their IDs replay.

    `maximum` is the position's maximum (the solver's value); the player never sees a play. The
    search is breadth first, so when it stops at `node_limit` decisions tried, `at_least` is still
    proved. The forks are counted afterwards, with a budget of `node_limit` decisions tried of their
    own, so that counting them never changes the count of decisions. With `shown` (the final table of
    the play an answer or a puzzle shows), the line returned is, where one exists, a line of as few
    decisions and forks whose every decided card ends as it does in that play.
    """
    started = time.perf_counter()
    board = _Board(position, maximum)
    root = board.begin(frozenset(), ())
    if root is not None and board.solved(root):
        return Forcing(
            0, 0, True, (), 0, _ms(started), forks=0, forks_at_least=0, agrees=None if shown is None else True
        )
    found = _search(board, root, node_limit)
    nodes = found.nodes
    proved_settled: bool | None = None
    if found.line is None:
        # no line within the limit (decisions unproved), or none at all
        if found.exhausted:
            return Forcing(None, found.level, True, (), nodes, _ms(started), forks=None, forks_at_least=0)
        if settled:
            proved_settled = _settle(board, position, None)
        least_forks, some, tried = _least_forks(board, root, found.level, node_limit)
        nodes += tried
        agrees: bool | None = None
        laid = False
        if some is not None and shown is not None:
            # a line of as few forks, or any line, that reaches the play shown
            some, agrees, tried, laid = _agreeing(
                board, position, root, some, shown, node_limit, ((least_forks, None), (None, None))
            )
            nodes += tried
        return Forcing(
            None,
            found.level,
            False,
            board.decisions(some or ()),
            nodes,
            _ms(started),
            forks=None,
            forks_at_least=least_forks,
            agrees=agrees,
            settled=proved_settled,
            free=board.free_cards,
            laid_along=laid,
        )
    decisions = found.level
    line = found.line
    if settled and _forks_in(board, line):
        proved_settled = _settle(board, position, found.end)
    forks = _forks_in(board, line)
    proved_forks: int | None = forks
    least_forks = forks
    budget = node_limit
    # every line of `decisions` decisions with fewer forks, fewest first
    for cap in range(forks):
        fewer = _search(board, root, budget, most_forks=cap, most_levels=decisions)
        nodes += fewer.nodes
        budget -= fewer.nodes
        if fewer.line is not None:
            line, proved_forks, least_forks = fewer.line, cap, cap
            break
        if not fewer.exhausted:
            proved_forks, least_forks = None, cap
            break
    else:
        least_forks = forks
    agrees = None
    laid = False
    if shown is not None:
        # a line that agrees with the play shown: as few forks if one does, else any of as few
        # decisions (its forks then exceed `forks`, the grade, which reads every line), else the
        # fewest decisions that agree (more than `decisions`: the play shown is not where the
        # shortest lines lead, and its line says what it takes to get there)
        attempts = ((least_forks, decisions), (None, decisions), (None, None))
        line, agrees, tried, laid = _agreeing(board, position, root, line, shown, budget, attempts)
        nodes += tried
    return Forcing(
        decisions,
        decisions,
        True,
        board.decisions(line),
        nodes,
        _ms(started),
        forks=proved_forks if proved_settled is not False else None,
        forks_at_least=least_forks,
        agrees=agrees,
        settled=proved_settled,
        free=board.free_cards,
        laid_along=laid,
    )


def _settle(board: _Board, position: Position, end: State | None) -> bool:
    """Find the cards that are not settled among those a decision may give another value (more
    than one value once every obvious move is declined: every state's values are among these),
    and keep them in `board.free`; whether the solver proved it. `end`: a maximal play's state,
    whose values the cards are asked about (else the solver finds a maximal play first)."""
    widest = board.propagate(board.everything)
    if widest is None:
        return True
    values = None if end is None else board.finish(end)
    candidates = {
        board.cards[i]: None if values is None else (values[i][0], values[i][1])
        for i, domain in enumerate(widest)
        if len(domain) > 1
    }
    found, proved = unsettled(position, board.maximum, candidates)
    where = {card: i for i, card in enumerate(board.cards)}
    board.free = frozenset(where[card] for card in found)
    return proved


@dataclass(frozen=True, slots=True)
class _Found:
    """What one breadth-first search found."""

    line: tuple[tuple[int, Value], ...] | None
    """The first line found that reaches a maximal play; None when none did."""
    level: int
    """The line's decisions; without a line, the fewest decisions a line can still have."""
    nodes: int
    exhausted: bool
    """Without a line: whether every line the search allows was tried (else the limit stopped it)."""
    end: State | None = None
    """With a line: the state it ends in, a maximal play's."""


def _agreeing(
    board: _Board,
    position: Position,
    root: State | None,
    line: tuple[tuple[int, Value], ...],
    shown: Sequence[Meld],
    budget: int,
    attempts: Sequence[tuple[int | None, int | None]],
) -> tuple[tuple[tuple[int, Value], ...], bool, int, bool]:
    """The line, or the first line found that agrees with the play shown, trying each (most forks,
    most decisions) of `attempts` in turn, else where the budget runs out first a line laid along
    that play (`_laid_along`): the line, whether it agrees, the decisions tried, and whether it was
    laid along the play."""
    target = board.values_of(position, shown)
    if target is None:
        return line, False, 0, False
    tried = 0
    for most, levels in attempts:
        if board.agrees(line, target):
            return line, True, tried, False
        if tried >= budget:
            break
        agreeing = _search(board, root, budget - tried, most_forks=most, most_levels=levels, target=target)
        tried += agreeing.nodes
        if agreeing.line is not None:
            line = agreeing.line
    if board.agrees(line, target):
        return line, True, tried, False
    laid = _laid_along(board, target)
    return (line, False, tried, False) if laid is None else (laid, True, tried, True)


def _laid_along(board: _Board, target: tuple[Value, ...]) -> tuple[tuple[int, Value], ...] | None:
    """A line to the play whose values are `target`, found without a search (on joker positions the
    search for the fewest such decisions most often runs out of its budget first): the obvious
    moves that play refuses declined, then each card the forced moves leave open and the play ends
    otherwise than it lies given its value there, in card order; then each decision the others
    reach a maximal play without left out. None where the forced moves rule that play out."""
    declined = frozenset(i for i, value in enumerate(target) if board.declines(i, value))
    line = tuple((i, target[i]) for i in sorted(declined))
    state = board.begin(declined, line)
    while state is not None and not board.solved(state):
        open_ = [i for i, values in enumerate(state) if len(values) > 1]
        i = next((i for i in open_ if target[i] != board.default[i]), open_[0] if open_ else None)
        if i is None or target[i] not in state[i]:
            return None
        line = (*line, (i, target[i]))
        state = board.decide(state, i, target[i])
    if state is None:
        return None
    for decision in line:
        shorter = tuple(other for other in line if other != decision)
        reached = board.begin(frozenset(i for i, value in shorter if board.declines(i, value)), shorter)
        if reached is not None and board.solved(reached):
            line = shorter
    return line


def _least_forks(
    board: _Board, root: State | None, at_least: int, node_limit: int
) -> tuple[int, tuple[tuple[int, Value], ...] | None, int]:
    """A lower bound on the forks of every line, when the decisions were not proved: and so on the
    forks of the lines of fewest decisions. Each decline declines its own card, so a line has at
    most `declinable` declines, and as many free choices as there are cards not settled at most,
    and at least `at_least` decisions were proved: at least `at_least` less those forks. Then each
    smaller count of forks is tried on lines of any length (they are finite: a card is declined
    once and forked once at most), fewest first, while the searches prove that none has as few;
    with the decisions tried (budget `node_limit`). Also the line the last search found, if any: it
    has the fewest forks of any line, and maybe not the fewest decisions."""
    least = max(0, at_least - board.declinable - len(board.free))
    tried = 0
    while tried < node_limit:
        fewer = _search(board, root, node_limit - tried, most_forks=least)
        tried += fewer.nodes
        if fewer.line is not None:
            return least, fewer.line, tried
        if not fewer.exhausted:
            break
        least += 1
    return least, None, tried


def _forks_in(board: _Board, line: Sequence[tuple[int, Value]]) -> int:
    return sum(1 for i, value in line if board.is_fork(i, value))


def _search(
    board: _Board,
    root: State | None,
    node_limit: int,
    most_forks: int | None = None,
    most_levels: int | None = None,
    target: tuple[Value, ...] | None = None,
) -> _Found:
    """Breadth first over sets of decisions, fewest first, until one reaches a maximal play.

    `most_forks` leaves out lines with more forks, `most_levels` lines with more decisions, and
    `target` every decision that gives a card another value than the target's.
    """
    nodes = 0
    # where some decisions are free choices, a line's forks are no longer its decisions less its
    # declines: a search that caps them keeps them in its nodes
    counting = most_forks is not None and bool(board.free)
    # A set of decisions is tried in one order only: declines of obvious moves first, then the
    # other decisions, each group by card. The root, and a line of declines only, may leave a card
    # no value (obvious moves that clash): only declining more goes on from there. Other
    # decisions only strike values out, so a later one never revives a dead end.
    start: _Key = (root, frozenset(), frozenset(), 0)
    frontier: dict[_Key, tuple[tuple[int, Value], ...]] = {start: ()}
    last: dict[_Key, tuple[int, int]] = {start: (-1, -1)}
    seen: set[_Key] = set(frontier)
    level = 0
    while frontier and (most_levels is None or level < most_levels):
        following: dict[_Key, tuple[tuple[int, Value], ...]] = {}
        for order, (state, declined, _, forks), line, (i, value, declines) in _untried(board, frontier, last):
            fork = not declines and i not in board.free
            so_far = forks if counting else level - len(declined)
            if fork and most_forks is not None and so_far >= most_forks:
                continue
            if target is not None and value != target[i]:
                continue
            if nodes >= node_limit:
                return _Found(None, level + 1, nodes, False)
            nodes += 1
            longer = (*line, (i, value))
            forks_now = so_far + fork if counting else 0
            key = _decided(board, state, declined, i, value, declines, longer, forks_now)
            if key is None:
                continue
            if key in seen and not (key in following and order < last[key]):
                continue
            if key[0] is not None and board.solved(key[0]):
                # every line of `level` decisions has been tried and fails
                return _Found(longer, level + 1, nodes, True, key[0])
            # reached twice at one level: keep the line that leaves more decisions open
            seen.add(key)
            following[key] = longer
            last[key] = order
        frontier = following
        level += 1
    # no line at all: `maximum` is more than any play places (or than the lines allowed place)
    return _Found(None, level, nodes, True)


def _untried(
    board: _Board, frontier: dict[_Key, tuple[tuple[int, Value], ...]], last: dict[_Key, tuple[int, int]]
) -> Iterator[tuple[tuple[int, int], _Key, tuple[tuple[int, Value], ...], tuple[int, Value, bool]]]:
    """Each decision open at each node of the frontier, with its place in the one order tried, that
    comes after the node's own last decision: (order, node, line, choice)."""
    for node, line in frontier.items():
        after = last[node]
        for choice in board.choices(node[0], node[1]):
            order = (0 if choice[2] else 1, choice[0])
            if order > after:
                yield order, node, line, choice


def _decided(
    board: _Board,
    state: State | None,
    declined: frozenset[int],
    i: int,
    value: Value,
    declines: bool,
    longer: tuple[tuple[int, Value], ...],
    forks: int,
) -> _Key | None:
    """The node one decision leads to, or None when it strikes out every value of some card."""
    if declines:
        # the obvious move was made at the start: go back there without it
        declined_now = declined | {i}
        decided = board.begin(declined_now, longer)
    else:
        assert state is not None
        declined_now = declined
        decided = board.decide(state, i, value)
        if decided is None:
            return None
    return (decided, declined_now, frozenset(longer) if decided is None else frozenset(), forks)


def decisions_of(
    position: Position, maximum: int, shown: Sequence[Meld] | None = None, settled: bool = True
) -> Forcing:
    """The forcing player's count as every part of the project reports it: with JOKER_NODE_LIMIT
    where the position holds a joker, else DEFAULT_NODE_LIMIT. A limit of decisions tried, not the
    clock, so the same position counts the same on any machine, in the generator and in an answer.
    `shown`: the final table of the play shown with the line, which the line then agrees with where
    a line of as few decisions and forks does (`forcing_player`). `settled` False: every decision
    that is not a decline counts as a fork, as older generator methods search (`forcing_player`)."""
    limit = DEFAULT_NODE_LIMIT
    if JOKER in position.hand or any(meld.jokers for meld in position.table):
        limit = JOKER_NODE_LIMIT
    return _counted(position, maximum, limit, None if shown is None else tuple(shown), settled)


@lru_cache(maxsize=COUNTS_KEPT)
def _counted(
    position: Position, maximum: int, limit: int, shown: tuple[Meld, ...] | None, settled: bool
) -> Forcing:
    """`decisions_of`, kept: a count depends on its arguments alone (a limit of decisions tried, and
    the solver's a limit of work, not the clock), and the generator counts a position its search
    counted already."""
    return forcing_player(position, maximum, node_limit=limit, shown=shown, settled=settled)


def agreeing_line(
    position: Position, maximum: int, shown: Sequence[Meld], node_limit: int = KEY_NODE_LIMIT
) -> tuple[Decision, ...] | None:
    """The fewest decisions whose every decided card ends as it does in the play shown (`shown`, a
    final table of a maximal play), with which the forcing player places `maximum` cards: the
    search of `forcing_player`'s last `agrees` attempt, on its own. Each decision gives a card its
    value in that play, so a search tries only one value a card, and a joker's decisions say where
    it goes as the play has it. None when no such line is found within `node_limit` decisions
    tried (a limit on work, not the clock: the same position finds the same line on any machine)."""
    board = _Board(position, maximum)
    target = board.values_of(position, shown)
    if target is None:
        return None
    root = board.begin(frozenset(), ())
    if root is not None and board.solved(root):
        return ()
    found = _search(board, root, node_limit, target=target)
    return None if found.line is None else board.decisions(found.line)


def open_values(position: Position, maximum: int) -> dict[Card, tuple[Value, ...]]:
    """Each card that the obvious moves and the forced moves leave more than one value, with those
    values: the cards a fork can decide. Empty where the obvious moves clash."""
    board = _Board(position, maximum)
    root = board.begin(frozenset(), ())
    if root is None:
        return {}
    return {board.cards[i]: values for i, values in enumerate(root) if len(values) > 1}


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 2)
