"""Themes: what a puzzle's solution does, named in a player's words, as lichess-puzzler tags its puzzles.

Each theme is one small predicate over the graded play (`Analysis.chain.play`, the stored solution;
the depth play `Analysis.shown` when no chain length was found): the original table, the
final table and, from `plan_steps`, which original meld each final card comes from. A predicate reads
only what the solution does, never how the position was generated, so any position can be tagged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import groupby

from puzzles import JOKER, N_, Analysis, Card, Meld, MeldKind, Position, StepKind, meld_problem, plan_steps


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    """Kebab-case id, stored with each puzzle."""
    title: str
    """A few words for a label: "Take an end card"."""
    description: str
    """One or two plain sentences that say exactly what earns the theme."""
    example: str
    """A position in text form (`rules | meld / meld | hand`) whose unique maximal play shows it."""


# No theme for a joker freed into the hand (german-jokers): the joker could instead stay on the table in
# place of any hand card laid in a meld without a joker, which places as many cards and leaves another
# hand, so no puzzle's unique play frees one (and the shown play, shedding the most points, keeps it).
THEMES: dict[str, Theme] = {
    theme.name: theme
    for theme in (
        Theme(
            "extend", N_("Add to a meld"),
            N_("A card from your hand lengthens a meld of the table, which stays whole."),
            "classic | 3S 4S 5S / 7H 7D 7C | 6S 7S",
        ),
        Theme(
            "new-meld", N_("Start a new meld"),
            N_("Cards from your hand start a meld of their own, alone or with table cards that make no "
               "meld without them."),
            "classic | 3S 4S 5S | 9H 9D 9C",
        ),
        Theme(
            "end-card", N_("Take an end card"),
            N_("The first or last card of a run of four or more goes to another meld; the rest of the run "
               "stays together."),
            "classic | 4S 5S 6S 7S | 7H 7D",
        ),
        Theme(
            "set-of-four", N_("Take from a set of four"),
            N_("One card of a set of four goes to another meld; the other three stay together as a set."),
            "classic | 7S 7H 7D 7C | 5C 6C",
        ),
        Theme(
            "split-run", N_("Split a run"),
            N_("A run is cut into two runs that each keep two or more of its cards, often to free a card "
               "from the middle."),
            "classic | 3C 4C 5C 6C 7C 8C 9C | 6H 6D",
        ),
        Theme(
            "sets-to-runs", N_("Turn a set into runs"),
            N_("A set is taken apart and every one of its cards goes into a run."),
            "classic | 5H 5D 5C | 3H 4H 3D 4D 6C 7C",
        ),
        Theme(
            "runs-to-sets", N_("Turn a run into sets"),
            N_("A run is taken apart and every one of its cards goes into a set."),
            "classic | 5S 6S 7S | 5H 6H 5D 7D 6C 7C",
        ),
        Theme(
            "ladder", N_("Climb the ladder"),
            N_("Sets of consecutive ranks that hold the same three suits turn into runs: one run takes a "
               "card from each of three such sets, side by side."),
            "italian | JH JD JC / QH QD QC / KH KD KC | AC",
        ),
        Theme(
            "staircase", N_("Climb the staircase"),
            N_("Sets of consecutive ranks whose suits shift turn into runs: one run takes a card from each "
               "of three sets side by side, which do not all hold the same three suits."),
            "classic | 10S 10H 10D / JS JH JD / QH QD QC | 9S QS QD",
        ),
        Theme(
            "bridge", N_("Bridge two runs"),
            N_("One card fills the gap between two runs of the same suit, and they become one run."),
            "classic | 3S 4S 5S / 7S 8S 9S | 6S",
        ),
        Theme(
            "swap", N_("Swap into a set"),
            N_("A card from a run takes the place of a card in a set, and that card goes into a run."),
            "classic | 7H 7D 7C / 4S 5S 6S 7S | 6C 8C",
        ),
        Theme(
            "cycle", N_("Go round in a circle"),
            N_("Cards go round a circle of melds: each meld gives a card to the next and takes one from "
               "the one before, and the last gives one back to the first."),
            "classic | 4H 4D 4C / 7S 7D 7C / 4S 5S 6S / 5H 6H 7H | 8S",
        ),
        Theme(
            "pass-on", N_("Pass it on"),
            N_("A card passes from meld to meld: a meld takes a card from another, and gives one of its "
               "own to a third."),
            "classic | 7H 7D 7C / 5S 6S 7S / 4S 4H 4D 4C | 6C 8C",
        ),
        Theme(
            "free-joker", N_("Free a joker"),
            N_("The real card a table joker stands for takes its place, and the joker goes to work in "
               "another meld."),
            "jokers | 5H JK 7H | 3S 4S 6H",
        ),
        Theme(
            "hand-joker", N_("Lay a joker"),
            N_("A joker from your hand goes onto the table."),
            "jokers | 3S 4S 5S | 9H 9D JK",
        ),
        Theme(
            "long-chain", N_("Long chain"),
            N_("Every best play needs a rearrangement that breaks four or more melds at once (a chain "
               "length of 4 or more)."),
            "classic | 7H 7D 7C / 5S 6S 7S / 4S 4D 4C / AH 2H 3H 4H | 6C 8C",
        ),
    )
}  # fmt: skip


MOTIFS: tuple[str, ...] = (
    "free-joker", "cycle", "bridge", "ladder", "staircase", "runs-to-sets", "split-run",
    "set-of-four", "end-card", "sets-to-runs", "swap", "hand-joker",
)  # fmt: skip
"""The themes that name a trick, the rarest and most particular first: a ladder turned into runs is
plain to see, a card passed on through it is the trick to find. A swap comes late: every link of a
chain (`generator._motifs`) is one, so a chain is named by what else it does, most often how it
ends (an end card, a split run, a set dissolved, a bridge), and is a swap only when nothing else
shows. The others (adding to a meld, starting one, passing a card on, a long chain) say what every
puzzle, or every deep one, does, as lichess-puzzler keeps its length tags apart from its motifs."""


def motif_of(themes: Iterable[str]) -> str | None:
    """A puzzle's motif, the trick it is about: its first theme in `MOTIFS`; None when it has none
    (an extension or a new meld and nothing more)."""
    named = set(themes)
    return next((name for name in MOTIFS if name in named), None)


@dataclass(frozen=True, slots=True)
class _Solution:
    """The shown play as card movements: where each original card goes, where each final card came from."""

    position: Position
    final: tuple[Meld, ...]
    sources: tuple[tuple[int | None, ...], ...]
    """For each final meld, card by card, the original meld the card comes from (None: the hand)."""
    routes: tuple[tuple[int | None, ...], ...]
    """For each original meld, card by card, the final meld the card goes to (None: the hand)."""
    jokers_laid: int
    """Jokers the hand gives up: laid from it, less those freed back into it."""
    rearrangements: tuple[tuple[int, ...], ...]
    chain_length: int | None

    @classmethod
    def read(cls, analysis: Analysis) -> _Solution:
        # the graded play, which the stored solution shows and the tier measures, not the depth play
        position, play = analysis.position, analysis.chain.play or analysis.shown
        # a card without a step stays in the final meld numbered like its original meld, which
        # the plan builds on it; every other card moves once, straight to its final meld
        goes: list[dict[Card, int | None]] = [
            dict.fromkeys(meld.cards, i) for i, meld in enumerate(position.table)
        ]
        comes: dict[int, dict[Card, int | None]] = {}
        for step in plan_steps(position, play, turned_new=False):
            if step.kind is StepKind.BREAK:
                continue
            for card in step.cards:
                if step.source is not None:
                    goes[step.source][card] = step.target
                if step.target is not None:
                    comes.setdefault(step.target, {})[card] = step.source
        for i, route in enumerate(goes):
            for card in (card for card, target in route.items() if target == i):
                comes.setdefault(i, {})[card] = i
        # a valid meld never holds a card twice, so a card names its place in its meld
        numbers = sorted(comes)
        pool = list(play.table)
        final = [
            pool.pop(next(k for k, m in enumerate(pool) if set(m.cards) == set(comes[t]))) for t in numbers
        ]
        index = {t: k for k, t in enumerate(numbers)}
        return cls(
            position,
            tuple(final),
            tuple(
                tuple(comes[t][card] for card in meld.cards) for t, meld in zip(numbers, final, strict=True)
            ),
            tuple(
                tuple(None if (t := route[card]) is None else index[t] for card in meld.cards)
                for meld, route in zip(position.table, goes, strict=True)
            ),
            play.laid.count(JOKER) - play.freed.count(JOKER),
            analysis.chain.rearrangements,
            analysis.chain.length,
        )

    def kind(self, k: int | None) -> MeldKind | None:
        """The kind of a final meld; None for the hand."""
        return None if k is None else self.final[k].kind

    def home(self, i: int) -> int | None:
        """The final meld that holds all of the original meld's cards (it is kept), or None (broken)."""
        return self.routes[i][0] if len(set(self.routes[i])) == 1 else None

    def originals(self, kind: MeldKind) -> list[int]:
        return [i for i, meld in enumerate(self.position.table) if meld.kind is kind]


_PREDICATES: dict[str, Callable[[_Solution], bool]] = {}


def _theme(name: str) -> Callable[[Callable[[_Solution], bool]], Callable[[_Solution], bool]]:
    def register(predicate: Callable[[_Solution], bool]) -> Callable[[_Solution], bool]:
        _PREDICATES[name] = predicate
        return predicate

    return register


def themes_of(analysis: Analysis) -> tuple[str, ...]:
    """The names of the themes the graded play exhibits, in the order of `THEMES`."""
    solution = _Solution.read(analysis)
    return tuple(name for name in THEMES if _PREDICATES[name](solution))


@_theme("extend")
def _extend(s: _Solution) -> bool:
    """A final meld holds a whole original meld and a hand card."""
    homes = [s.home(i) for i in range(len(s.routes))]
    return any(None in s.sources[k] for k in homes if k is not None)


@_theme("new-meld")
def _new_meld(s: _Solution) -> bool:
    """A final meld holds a hand card and no whole original meld, and its table cards alone would not
    be a valid meld."""
    rules = s.position.rules
    homes = {s.home(i) for i in range(len(s.routes))}
    return any(
        None in sources
        and k not in homes
        and meld_problem(
            [card for card, source in zip(meld.cards, sources, strict=True) if source is not None], rules
        )
        for k, (meld, sources) in enumerate(zip(s.final, s.sources, strict=True))
    )


@_theme("end-card")
def _end_card(s: _Solution) -> bool:
    """A run of 4+ sends its first or last card to one final meld and all its other cards to another."""
    for i in s.originals(MeldKind.RUN):
        route = s.routes[i]
        if len(route) < 4:
            continue
        for end, rest in ((route[0], route[1:]), (route[-1], route[:-1])):
            if end is not None and len(set(rest)) == 1 and rest[0] not in (None, end):
                return True
    return False


@_theme("set-of-four")
def _set_of_four(s: _Solution) -> bool:
    """A set of 4 sends one card to one final meld and the other three to another."""
    return any(
        None not in s.routes[i] and sorted(Counter(s.routes[i]).values()) == [1, 3]
        for i in s.originals(MeldKind.SET)
        if len(s.routes[i]) == 4
    )


@_theme("split-run")
def _split_run(s: _Solution) -> bool:
    """Two or more final runs each hold two or more cards of one original run."""
    for i in s.originals(MeldKind.RUN):
        pieces = Counter(k for k in s.routes[i] if s.kind(k) is MeldKind.RUN)
        if sum(count >= 2 for count in pieces.values()) >= 2:
            return True
    return False


@_theme("sets-to-runs")
def _sets_to_runs(s: _Solution) -> bool:
    """Every card of an original set that stays on the table ends in a run."""
    return any(_all_into(s, i, MeldKind.RUN) for i in s.originals(MeldKind.SET))


@_theme("runs-to-sets")
def _runs_to_sets(s: _Solution) -> bool:
    """Every card of an original run that stays on the table ends in a set."""
    return any(_all_into(s, i, MeldKind.SET) for i in s.originals(MeldKind.RUN))


def _all_into(s: _Solution, i: int, kind: MeldKind) -> bool:
    # a joker freed to the hand has left the meld; the cards that stay decide
    on_table = [k for k in s.routes[i] if k is not None]
    return bool(on_table) and all(s.kind(k) is kind for k in on_table)


@_theme("ladder")
def _ladder(s: _Solution) -> bool:
    """A final run holds, side by side, three cards from three different original sets that all hold
    the same three suits (or more)."""
    return any(_shared_suits(s, trio) >= 3 for trio in _set_trios(s))


@_theme("staircase")
def _staircase(s: _Solution) -> bool:
    """A final run holds, side by side, three cards from three different original sets that do not all
    hold the same three suits."""
    return any(_shared_suits(s, trio) < 3 for trio in _set_trios(s))


def _set_trios(s: _Solution) -> list[tuple[int, int, int]]:
    """Three different original sets whose cards lie side by side in a final run."""
    sets = set(s.originals(MeldKind.SET))
    trios: list[tuple[int, int, int]] = []
    for meld, sources in zip(s.final, s.sources, strict=True):
        if meld.kind is MeldKind.RUN:
            for a, b, c in zip(sources, sources[1:], sources[2:], strict=False):
                if (
                    a is not None
                    and b is not None
                    and c is not None
                    and len({a, b, c}) == 3
                    and sets.issuperset((a, b, c))
                ):
                    trios.append((a, b, c))
    return trios


def _shared_suits(s: _Solution, trio: tuple[int, int, int]) -> int:
    suits = [{card.suit for card in s.position.table[i].cards if card.suit is not None} for i in trio]
    return len(suits[0] & suits[1] & suits[2])


@_theme("bridge")
def _bridge(s: _Solution) -> bool:
    """A final run holds two or more cards of one original run side by side, then one card from
    elsewhere, then two or more of another original run: the runs may give up their far end cards,
    as at a chain's end."""
    runs = set(s.originals(MeldKind.RUN))
    for meld, sources in zip(s.final, s.sources, strict=True):
        if meld.kind is not MeldKind.RUN:
            continue
        blocks = [(source, len(list(group))) for source, group in groupby(sources)]
        for (left, n), (_, gap), (right, m) in zip(blocks, blocks[1:], blocks[2:], strict=False):
            if gap == 1 and n >= 2 and m >= 2 and left in runs and right in runs and left != right:
                return True
    return False


@_theme("swap")
def _swap(s: _Solution) -> bool:
    """A final set holds 2+ cards of an original set and a card of an original run, and another card of
    that original set ends in a run."""
    runs = set(s.originals(MeldKind.RUN))
    for meld, sources in zip(s.final, s.sources, strict=True):
        if meld.kind is not MeldKind.SET or not runs.intersection(sources):
            continue
        for i, count in Counter(sources).items():
            if i in s.originals(MeldKind.SET) and count >= 2 and MeldKind.RUN in map(s.kind, s.routes[i]):
                return True
    return False


@_theme("pass-on")
def _pass_on(s: _Solution) -> bool:
    """An original meld takes a card from a second and gives one of its own to a third: a final meld
    built on it (see `_base`) holds a card of the second, and one of its cards ends in a final meld
    built on the third."""
    bases = [_base(sources) for sources in s.sources]
    takes = _takes(s, bases)
    for middle, givers in takes.items():
        gets = {bases[k] for k in s.routes[middle] if k is not None} - {None, middle}
        if givers and gets and len(givers | gets) >= 2:
            return True
    return False


@_theme("cycle")
def _cycle(s: _Solution) -> bool:
    """The original melds give each other cards round a circle: each gives a card to a final meld
    built on the next (see `_base`), and the last to one built on the first. A line of melds that
    passes a card on, from the hand's new meld to a meld that keeps the rest, is no circle."""
    bases = [_base(sources) for sources in s.sources]
    gives: dict[int, set[int]] = {}
    for taker, givers in _takes(s, bases).items():
        for giver in givers:
            gives.setdefault(giver, set()).add(taker)
    # a circle is a path that comes back to where it started: search from each meld
    for start in gives:
        seen: set[int] = set()
        frontier = set(gives[start])
        while frontier:
            if start in frontier:
                return True
            seen |= frontier
            frontier = {nxt for meld in frontier for nxt in gives.get(meld, ())} - seen
    return False


def _takes(s: _Solution, bases: list[int | None]) -> dict[int, set[int]]:
    """For each original meld that a final meld is built on, the other original melds that give that
    final meld a card."""
    takes: dict[int, set[int]] = {}
    for base, sources in zip(bases, s.sources, strict=True):
        if base is not None:
            takes.setdefault(base, set()).update(i for i in sources if i not in (None, base))
    return takes


def _base(sources: tuple[int | None, ...]) -> int | None:
    """The original meld a final meld is built on: the one that gives it the most cards, two or more."""
    counts = Counter(i for i in sources if i is not None).most_common(2)
    if not counts or counts[0][1] < 2 or (len(counts) == 2 and counts[1][1] == counts[0][1]):
        return None
    return counts[0][0]


@_theme("free-joker")
def _free_joker(s: _Solution) -> bool:
    """A table joker ends in a final meld that holds none of its original meld's real cards, and a card
    it stood for ends in a final meld that does."""
    for i, meld in enumerate(s.position.table):
        if JOKER not in meld.cards:
            continue
        route = dict(zip(meld.cards, s.routes[i], strict=True))
        homes = {k for card, k in route.items() if not card.is_joker and k is not None}
        stood_for = meld.stand_ins()[0]
        if (
            route[JOKER] is not None
            and route[JOKER] not in homes
            and any(stood_for.intersection(s.final[k].cards) for k in homes)
        ):
            return True
    return False


@_theme("hand-joker")
def _hand_joker(s: _Solution) -> bool:
    """The play places more jokers from the hand than it frees back into it."""
    return s.jokers_laid > 0


@_theme("long-chain")
def _long_chain(s: _Solution) -> bool:
    """The position's chain length is 4 or more."""
    return s.chain_length is not None and s.chain_length >= 4
