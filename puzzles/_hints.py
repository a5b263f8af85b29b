"""The hint ladder: three hints, each giving more away and costing more, adapted to the player's table.

A hint starts from a best final table that keeps as
much of the player's table as it can: the engine's chain-depth solve on a position whose table is
the player's valid melds and whose hand is every card still to be laid or rehoused, or the
puzzle's solution itself where that keeps as many of them, so that the hints never send a card
where the solution, its steps and its key ideas do not while the player follows it. The engine's
`steps_between` then says how to get there from where the table stands now:

1. the puzzle's key card (`key_card`: its first decision that names a choice, a real fork before a
   decline, never a fork judged weak, `mark_weak`), without where it goes, while it has not moved,
   unless its idea names no choice (`KeyIdea.names_a_choice`: a weak fork's names none);
   else which meld must be broken first (a meld of the puzzle's
   table, or one the player has made). A declined card is the key to a puzzle without a fork, and
   "think about where it goes" would send the player to the meld it fits, the trap: its words say
   to think twice before laying it there, still without saying where it goes, if anywhere;
2. which card moves where next;
3. one whole meld of that final table.

A card the player laid that no best play places comes first, whatever the rung: it must go back.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from puzzles._board import Board, MeldState
from puzzles._cards import Card, sorted_cards
from puzzles._key import KeyIdea
from puzzles._melds import Meld, MeldError, meld_problem
from puzzles._model import Objective
from puzzles._plays import Play, play_of
from puzzles._position import Position, PositionError
from puzzles._rules import Rules
from puzzles._solver import Best, chain_depth
from puzzles._steps import Step, StepKind, apply_steps, steps_between
from puzzles._words import Words, words

HINT_RUNGS = 3
"""The ladder's rungs; the site's rating has a cost for each."""


class HintError(ValueError):
    """No hint to give: the ladder is used up."""


@dataclass(frozen=True, slots=True)
class Hint:
    """One hint as the page shows it: its words, and the cards and meld it points at."""

    rung: int
    words: Words
    card_ids: tuple[str, ...]
    """The board's ids of the cards the hint is about, for the page to mark."""
    meld: int | None
    """The board meld the hint points at (to break, or to move onto); None for the hand or a new meld."""

    def to_json(self) -> dict[str, Any]:
        return {
            "rung": self.rung,
            "words": self.words.to_json(),
            "cards": list(self.card_ids),
            "meld": self.meld,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hint:
        return cls(int(data["rung"]), Words.from_json(data["words"]), tuple(data["cards"]), data.get("meld"))


Melds = tuple[tuple[Card, ...], ...]


def hint(
    board: Board, rung: int, solution: Sequence[Sequence[Card]], time_limit: float, key: KeyIdea | None = None
) -> Hint:
    """Hint number `rung` (1 to 3) for the board as it stands, towards a best play like `solution`.

    `key`: the puzzle's first key idea (`key_ideas(...)[0]`), whose card the first rung names."""
    if not 1 <= rung <= HINT_RUNGS:
        raise HintError(f"there are {HINT_RUNGS} hints, not {rung}")
    cards = board.cards()
    rules = board.position.rules
    best = play_of(board.position, [Meld.of(meld, rules) for meld in solution])
    stray = Counter(board.laid()) - Counter(best.laid)
    if stray:
        card = sorted_cards(stray)[0]
        card_id = next(i for meld in board.melds for i in meld if i.startswith("h") and cards[i] == card)
        said = words("Take %(card)s back into your hand: no best play places it.", card=(card,))
        return Hint(rung, said, (card_id,), None)
    start = [view.cards for view in board.views()]
    final = final_table(board, solution, time_limit)
    steps = steps_between(start, final, rules)
    moving = [step for step in steps if step.kind is not StepKind.BREAK]
    if not moving:
        return Hint(rung, words("Every card is where it belongs: end your turn."), (), None)
    if rung == 1:
        if key is not None and not key.names_a_choice:
            # "7♠ goes to the run 7♠ 8♠ 9♠ 10♠" names no other place: pointing at 7♠ says less
            # than the meld that must break (8♠ 8♥ 8♦ 8♣, whose 8♠ joins it)
            key = None
        unmoved = None if key is None else _unmoved(board, key.card)
        if key is not None and unmoved is not None:
            return Hint(1, _key_words(key), (unmoved,), None)
        return _break_hint(board, steps)
    if rung == 2 or moving[0].kind is StepKind.TAKE:
        # a joker going back to the hand has no meld of the best table to show
        return _move_hint(board, moving[0], rung)
    return _meld_hint(board, moving[0], apply_steps(start, steps))


def _key_words(key: KeyIdea) -> Words:
    card = (key.card,)
    if key.kind == "decline":
        return words("%(card)s is the key card: think twice before you lay it where it fits.", card=card)
    return words("%(card)s is the key card: think about where it goes.", card=card)


def final_table(board: Board, solution: Sequence[Sequence[Card]], time_limit: float) -> Melds:
    """A best final table keeping as many of the board's valid melds whole as the engine can find in
    the time; `solution` itself when the engine finds none (or the board holds a stray card)."""
    rules = board.position.rules
    views = [view for view in board.views() if view.state is MeldState.VALID]
    melds = tuple(tuple(view.cards) for view in views)
    return _final_table(board.position, melds, tuple(tuple(meld) for meld in solution), time_limit) or (
        tuple(tuple(Meld.of(meld, rules).cards) for meld in solution)
    )


# Kept for a hint on a table asked before (another rung, another player): bench/web_caches.py timed a
# new player's first hint (one puzzle of each tier as today's, the site's HINT_TIME_LIMIT) at 7.7-10.3
# ms of CPU with it, 11.6-15.0 ms solving the chain depth again, 3.1-5.3 ms saved; a harder puzzle's
# solve takes up to HINT_TIME_LIMIT.
@functools.lru_cache(maxsize=512)
def _final_table(position: Position, valid: Melds, solution: Melds, time_limit: float) -> Melds | None:
    rules = position.rules
    final = Counter(card for meld in solution for card in meld)
    kept = Counter(card for meld in valid for card in meld)
    if kept - final:
        return None
    hand = tuple((final - kept).elements())
    if not hand:
        return valid
    try:
        derived = Position(rules, tuple(Meld.of(meld, rules) for meld in valid), hand)
        # the solution places every card still loose, so it is a best play of the derived position
        best_table = tuple(Meld.of(meld, rules) for meld in solution)
    except (MeldError, PositionError):
        return None
    best = Best(Play(best_table, sorted_cards(hand)), Objective.CARDS, len(hand), True, 0.0)
    depth = chain_depth(derived, best, time_limit)
    if depth.play is None:
        return None
    found = _apart(tuple(meld.cards for meld in depth.play.table), valid, rules)
    # the solution where it keeps as many of the player's melds: a tie broken the other way would
    # send a card where the solution, its steps and its key ideas do not (a joker to a run where
    # they put it in a set)
    shown = _apart(tuple(meld.cards for meld in best_table), valid, rules)
    return shown if _kept(valid, shown) >= _kept(valid, found) else found


def _kept(valid: Melds, final: Melds) -> int:
    """How many of the melds `valid` end whole in `final`, each in a final meld of its own share
    (two copies of a meld need two final melds that hold it)."""
    left = [Counter(meld) for meld in final]
    kept = 0
    for meld in valid:
        wanted = Counter(meld)
        home = next((cards for cards in left if not wanted - cards), None)
        if home is not None:
            home.subtract(wanted)
            kept += 1
    return kept


def _apart(final: Melds, valid: Melds, rules: Rules) -> Melds:
    """The engine lays runs that continue one another as one long run; where the player keeps
    some of them apart, cut the long run at their edges (a short piece left over joins the next
    piece), so that no hint asks for a needless join."""
    table: list[tuple[Card, ...]] = []
    for run in final:
        cuts = {0, len(run)}
        for meld in valid:
            size = len(meld)
            start = next((i for i in range(len(run) - size + 1) if run[i : i + size] == meld), None)
            if size < len(run) and start is not None:
                cuts |= {start, start + size}
        edges = sorted(cuts)
        pieces = [run[a:b] for a, b in pairwise(edges)]
        table += _joined_up(pieces, rules) or [run]
    return tuple(table)


def _joined_up(pieces: list[tuple[Card, ...]], rules: Rules) -> list[tuple[Card, ...]] | None:
    """The pieces of a run, each invalid one joined to the piece after it (the last to the one
    before); None when that leaves an invalid meld."""
    merged: list[tuple[Card, ...]] = []
    carry: tuple[Card, ...] = ()
    for piece in pieces:
        piece = carry + piece
        carry = () if meld_problem(piece, rules) is None else piece
        if not carry:
            merged.append(piece)
    if carry:
        if not merged:
            return None
        merged[-1] = merged[-1] + carry
    if any(meld_problem(meld, rules) is not None for meld in merged):
        return None
    return merged


def _unmoved(board: Board, card: Card) -> str | None:
    """The id of a copy of the card still where the turn began: in the hand, or in a table meld
    nobody has touched; None when every copy has moved."""
    cards = board.cards()
    start = Board.start(board.position).melds
    untouched = {card_id for meld in board.melds if meld in start for card_id in meld}
    return next((i for i in (*board.hand_ids(), *sorted(untouched)) if cards[i] == card), None)


def _break_hint(board: Board, steps: Sequence[Step]) -> Hint:
    views = board.views()
    breaks = [step for step in steps if step.kind is StepKind.BREAK and step.source is not None]
    whole = [step for step in breaks if views[step.source].state is MeldState.VALID]  # type: ignore[index]
    chosen = next(iter(whole or breaks), None)
    if chosen is None or chosen.source is None:
        said = words(
            "No meld needs breaking now: the cards still to place fit around the melds as they stand."
        )
        return Hint(1, said, (), None)
    view = views[chosen.source]
    said = words("Break the meld %(meld)s: the best table cannot keep it whole.", meld=tuple(view.cards))
    return Hint(1, said, view.card_ids, view.index)


def _move_hint(board: Board, step: Step, rung: int) -> Hint:
    views = board.views()
    card = step.cards[0]
    meld = None if step.kind is StepKind.TAKE or step.new else step.target
    said = _move_words(
        (card,),
        None if step.source is None else tuple(views[step.source].cards),
        step.kind is StepKind.TAKE,
        None if meld is None else tuple(views[meld].cards),
    )
    return Hint(rung, said, (_card_id(board, card, step.source),), meld)


def _move_words(
    card: tuple[Card], source: tuple[Card, ...] | None, take: bool, target: tuple[Card, ...] | None
) -> Words:
    """Where a card goes, in a whole sentence for each way (a translation needs the whole)."""
    if source is None and target is None:
        return words("Move %(card)s from your hand to a new meld.", card=card)
    if source is None:
        return words("Move %(card)s from your hand onto %(target)s.", card=card, target=target)
    if take:
        return words("Move %(card)s from %(source)s into your hand.", card=card, source=source)
    if target is None:
        return words("Move %(card)s from %(source)s to a new meld.", card=card, source=source)
    return words("Move %(card)s from %(source)s onto %(target)s.", card=card, source=source, target=target)


def _meld_hint(board: Board, step: Step, planned: Melds) -> Hint:
    assert step.target is not None, "a move or lay step has a target"
    meld = Meld.of(planned[step.target], board.position.rules)
    said = words("One meld of the best table: %(meld)s.", meld=tuple(meld.cards))
    home = None if step.new else step.target
    return Hint(3, said, _card_ids(board, meld.cards, home), home)


def _card_id(board: Board, card: Card, meld: int | None) -> str:
    """The id of a copy of `card` in board meld `meld`, or in the hand for None."""
    cards = board.cards()
    place = board.hand_ids() if meld is None else board.melds[meld]
    return next(card_id for card_id in place if cards[card_id] == card)


def _card_ids(board: Board, wanted: Sequence[Card], home: int | None) -> tuple[str, ...]:
    """Ids for these cards: copies already in meld `home` first, then the table's, then the hand's."""
    cards = board.cards()
    places = [*(board.melds[home] if home is not None else ()), *(i for meld in board.melds for i in meld)]
    order = [*dict.fromkeys(places), *board.hand_ids()]
    chosen: list[str] = []
    for card in wanted:
        chosen.append(next(i for i in order if cards[i] == card and i not in chosen))
    return tuple(chosen)
