"""A brute-force forcing player, written from "The forcing player" in docs/RULES.md.

It shares no code with `puzzles._forcing`: support is found by listing the sets and runs of three
themselves, the forced moves run in a plain loop over every rule until nothing changes, the search
tries every sequence of decisions (no states merged, order not assumed not to matter) and rebuilds
the board from scratch for each, and whether values lay out as melds is asked of the solver
oracle's `can_split` (the jokers bound for sets or runs tried in every share among the ranks and
suits). Hopeless beyond small positions, and plainly the definition below them.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement, product

from puzzles import JOKER, SUITS, Card, Meld, MeldKind, Position
from tests.puzzles import oracle
from tests.puzzles.oracle import can_free, can_split, cards_of, is_meld

Value = tuple[int, int, int]
SETS, RUNS, KEPT = 0, 1, 2


class Board:
    def __init__(self, position: Position, maximum: int) -> None:
        self.position = position
        self.maximum = maximum
        self.table = position.table_counts()
        self.hand = position.hand_counts()
        self.cards = sorted(set(self.table) | set(self.hand), key=Card.sort_key)
        self.lying: dict[Card, Value] = {}
        self._of_three: dict[tuple[Card, int], list[frozenset[Card]]] = {}
        for card in self.cards:
            in_sets = sum(m.cards.count(card) for m in position.table if m.kind is MeldKind.SET)
            in_runs = sum(m.cards.count(card) for m in position.table if m.kind is MeldKind.RUN)
            self.lying[card] = (in_sets, in_runs, self.hand[card])
        self.obvious = {
            card: kind for card in self.hand if not card.is_joker and (kind := self._fits(card)) is not None
        }
        real_hand = [card for card in position.hand if not card.is_joker]
        table_jokers = self.table[JOKER]
        self.freeable = max(f for f in range(table_jokers + 1) if can_free(position, real_hand, f))

    def _fits(self, card: Card) -> int | None:
        """The kind of meld (SETS or RUNS) a hand card fits as the table lies, if only one kind:
        a set takes it, or a run takes it at one end with every card (a joker too) in its place."""
        kinds = set()
        for meld in self.position.table:
            cards = list(meld.cards)
            if meld.kind is MeldKind.SET:
                if meld_ok([*cards, card], self.position):
                    kinds.add(SETS)
                continue
            for longer, keeps in (([*cards, card], slice(None, -1)), ([card, *cards], slice(1, None))):
                if meld_ok(longer, self.position):
                    laid = Meld.of(longer, self.position.rules).cards
                    if list(laid[keeps]) == cards and laid.count(card) == 1 + cards.count(card):
                        kinds.add(RUNS)
        return kinds.pop() if len(kinds) == 1 else None

    def default(self, card: Card) -> Value:
        value = list(self.lying[card])
        if card in self.obvious:
            value[self.obvious[card]] += 1
            value[KEPT] -= 1
        return (value[0], value[1], value[2])

    def all_values(self, card: Card) -> list[Value]:
        total = self.table[card] + self.hand[card]
        # under german-jokers a table joker may end in the hand, freed by a hand card it stands for
        most_kept = self.hand[card] + (self.freeable if card.is_joker else 0)
        return [
            (s, r, total - s - r)
            for s in range(total + 1)
            for r in range(total + 1 - s)
            if total - s - r <= most_kept
        ]

    # -- support, by listing melds of three

    def sets_of_three(self, card: Card) -> list[frozenset[Card]]:
        """The other two cards of each set of three of this card's rank; a joker may be one."""
        others = [Card(card.rank, suit) for suit in SUITS if suit != card.suit]
        if JOKER in self.cards:
            others.append(JOKER)
        return [frozenset(pair) for pair in combinations(others, 2)]

    def runs_of_three(self, card: Card) -> list[frozenset[Card]]:
        """The other two cards of each run of three through this card the rules allow."""
        found = []
        for other in self.cards:
            for third in self.cards:
                trio = [card, other, third]
                distinct = len(set(trio)) == 3 and other.sort_key() < third.sort_key()
                one_suit = all(c.suit in (card.suit, None) for c in trio)
                if distinct and one_suit and meld_ok(trio, self.position):
                    found.append(frozenset({other, third}))
        return found

    def melds_of_three(self, card: Card, kind: int) -> list[frozenset[Card]]:
        """`sets_of_three` or `runs_of_three`, listed once per board: they depend on the board's
        cards alone, and the forced moves ask for them thousands of times."""
        key = (card, kind)
        if key not in self._of_three:
            self._of_three[key] = self.sets_of_three(card) if kind == SETS else self.runs_of_three(card)
        return self._of_three[key]

    def choices(self, card: Card, copies: int, kind: int, most: dict[Card, Value]) -> list[Counter[Card]]:
        """Each way to give `copies` melds of this kind to the card, as the others' copies it takes."""
        melds = self.melds_of_three(card, kind)
        found = []
        for chosen in combinations_with_replacement(melds, copies):
            takes = Counter(other for meld in chosen for other in meld)
            if all(takes[other] <= most.get(other, (0, 0, 0))[kind] for other in takes):
                found.append(takes)
        return found

    def joker_fits(self, kind: int, most: dict[Card, Value]) -> bool:
        """Whether two cards that may go to melds of this kind make a meld of three with a joker."""
        for a, b in combinations([c for c in self.cards if not c.is_joker], 2):
            same = a.rank == b.rank if kind == SETS else a.suit == b.suit
            if same and most[a][kind] and most[b][kind] and meld_ok([a, b, JOKER], self.position):
                return True
        return False

    # -- the forced moves, every rule in turn until nothing changes

    def force(self, domains: dict[Card, list[Value]]) -> dict[Card, list[Value]] | None:
        while True:
            before = {card: list(values) for card, values in domains.items()}
            most = {card: (max(v[0] for v in vs), max(v[1] for v in vs), 0) for card, vs in domains.items()}
            # nowhere
            for card in self.cards:
                domains[card] = [
                    v
                    for v in domains[card]
                    if all(
                        v[kind] == 0
                        or (
                            self.joker_fits(kind, most)
                            if card.is_joker
                            else self.choices(card, v[kind], kind, most)
                        )
                        for kind in (SETS, RUNS)
                    )
                ]
                if not domains[card]:
                    return None
            # partners
            most = {card: (max(v[0] for v in vs), max(v[1] for v in vs), 0) for card, vs in domains.items()}
            for card in self.cards:
                if card.is_joker:
                    continue  # the joker has no partners rule of its own
                for kind in (SETS, RUNS):
                    least = min(v[kind] for v in domains[card])
                    if not least:
                        continue
                    ways = self.choices(card, least, kind, most)
                    for other in self.cards:
                        if other == card or not ways:
                            continue
                        need = min(way[other] for way in ways)
                        domains[other] = [v for v in domains[other] if v[kind] >= need]
                        if not domains[other]:
                            return None
            # goal
            for card in self.cards:
                rest_low = sum(self.hand[o] - max(v[2] for v in domains[o]) for o in self.cards if o != card)
                rest_high = sum(self.hand[o] - min(v[2] for v in domains[o]) for o in self.cards if o != card)
                domains[card] = [
                    v
                    for v in domains[card]
                    if rest_low <= self.maximum - (self.hand[card] - v[2]) <= rest_high
                ]
                if not domains[card]:
                    return None
            if domains == before:
                return domains

    def board_after(self, declined: set[Card], decided: dict[Card, Value]) -> dict[Card, list[Value]] | None:
        domains = {card: self.all_values(card) for card in self.cards}
        for card, kind in self.obvious.items():
            if card not in declined:
                domains[card] = [v for v in domains[card] if v[kind] > self.lying[card][kind]]
        for card, value in decided.items():
            if value not in domains[card]:
                return None
            domains[card] = [value]
        return self.force(domains)

    def done(self, domains: dict[Card, list[Value]]) -> bool:
        values = {}
        for card, vs in domains.items():
            if len(vs) == 1:
                values[card] = vs[0]
            elif self.default(card) in vs:
                values[card] = self.default(card)
            else:
                return False
        if sum(self.hand[c] - v[2] for c, v in values.items()) != self.maximum:
            return False
        jokers = values.get(JOKER, (0, 0, 0))
        freed = jokers[KEPT] - self.hand[JOKER]
        laid = [c for c, v in values.items() if not c.is_joker for _ in range(self.hand[c] - v[KEPT])]
        if freed > 0 and not can_free(self.position, laid, freed):
            return False
        rules = self.position.rules
        set_groups = [
            [c for c, v in values.items() for _ in range(v[0]) if c.rank == r] for r in range(1, 14)
        ]
        run_groups = [[c for c, v in values.items() for _ in range(v[1]) if c.suit == s] for s in SUITS]
        for groups, kind in ((set_groups, SETS), (run_groups, RUNS)):
            groups = [group for group in groups if group]
            # every way to share the jokers of this kind among the groups
            shares = [
                share
                for share in product(range(jokers[kind] + 1), repeat=len(groups))
                if sum(share) == jokers[kind]
            ]
            if not any(
                all(
                    can_split(cards_of([*group, *[JOKER] * n]), rules)
                    for group, n in zip(groups, share, strict=True)
                )
                for share in shares
            ):
                return False
        return True

    def moves(self, card: Card) -> list[Value]:
        """The values a decision may give this card: any but its default."""
        return [v for v in self.all_values(card) if v != self.default(card)]


def meld_ok(cards: list[Card], position: Position) -> bool:
    return is_meld(cards_of(cards), position.rules)


def fewest_decisions(position: Position, maximum: int, most: int) -> int | None:
    """The fewest decisions that reach a maximal play, or None if `most` decisions do not.

    Every set of decisions of each size is tried: a set of cards, and a value for each.
    """
    board = Board(position, maximum)
    for count in range(most + 1):
        for cards in combinations(board.cards, count):
            for values in product(*(board.moves(card) for card in cards)):
                decided = dict(zip(cards, values, strict=True))
                declined = {
                    card
                    for card, value in decided.items()
                    if card in board.obvious
                    and value[board.obvious[card]] <= board.lying[card][board.obvious[card]]
                }
                domains = board.board_after(declined, decided)
                if domains is not None and board.done(domains):
                    return count
    return None


def is_decline(board: Board, card: Card, value: Value) -> bool:
    """Whether a decision refuses the card's obvious move (RULES.md's *decline*): the card fits a
    table meld as it lies and the value sends no more copies to that kind of meld than lie there."""
    kind = board.obvious.get(card)
    return kind is not None and value[kind] <= board.lying[card][kind]


def settled_cards(position: Position) -> set[Card]:
    """The cards that every maximal play ends alike (RULES.md's *settled*): as many copies in sets
    and as many in runs in every final table of every best outcome, each laid out every way."""
    ends: dict[Card, set[tuple[int, int]]] = {}
    cards = {*position.table_counts(), *position.hand_counts()}
    for outcome in oracle.best_outcomes(position):
        for table in oracle.final_tables(outcome.final, position.rules):
            for card in cards:
                sets = sum(meld.count(card) for meld in table if _is_set(meld))
                runs = sum(meld.count(card) for meld in table if not _is_set(meld))
                ends.setdefault(card, set()).add((sets, runs))
    return {card for card in cards if len(ends.get(card, {(0, 0)})) == 1}


def _is_set(meld: tuple[Card, ...]) -> bool:
    """A valid meld is a set when its real cards share a rank (a meld holds two real cards at least)."""
    return len({card.rank for card in meld if not card.is_joker}) == 1


def is_fork(board: Board, settled: set[Card] | None, card: Card, value: Value) -> bool:
    """A decision that is not a decline, on a settled card (every card, with `settled` None)."""
    return not is_decline(board, card, value) and (settled is None or card in settled)


def fewest_forks(
    position: Position, maximum: int, decisions: int, settled: set[Card] | None = None
) -> int | None:
    """The fewest forks (decisions that are not declines, on the `settled` cards when given) among
    the lines of exactly `decisions` decisions that reach a maximal play; None when no such line
    does.

    Every set of that many decisions is tried, as `fewest_decisions` tries them.
    """
    board = Board(position, maximum)
    best: int | None = None
    for cards in combinations(board.cards, decisions):
        for values in product(*(board.moves(card) for card in cards)):
            decided = dict(zip(cards, values, strict=True))
            declined = {card for card, value in decided.items() if is_decline(board, card, value)}
            forks = sum(is_fork(board, settled, card, value) for card, value in decided.items())
            if best is not None and forks >= best:
                continue
            domains = board.board_after(declined, decided)
            if domains is not None and board.done(domains):
                best = forks
    return best
