"""The answer to an analysed position as the page shows it: the best play, the hand it leaves and its
points, the steps to lay it out, and the final table numbered as the steps number it; the chain
length once it is known (the page asks for it after the rest).

Pure, like the engine: no Flask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from puzzles import Best, Card, Chain, Entry, Play, Settled, Step, StepKind, plan_steps
from webapp.turn.turn_view import NumberedMeld, numbered


@dataclass(frozen=True, slots=True)
class Answer:
    """An analysis as the page shows it."""

    analysis: Settled
    """Maximum, uniqueness and depth: what the page shows at once."""
    chain: Chain | None
    """The chain length, None while the page has yet to ask for it."""
    play: Play
    """The best play shown (`Settled.shown`)."""
    hand_after: tuple[Card, ...]
    points_left: int
    steps: tuple[Step, ...]
    final: tuple[NumberedMeld, ...]
    witness: Play | None
    """Another best play that leaves another hand, when there is one."""

    @property
    def best(self) -> Best:
        return self.analysis.best

    @property
    def laid(self) -> tuple[Card, ...]:
        """The hand cards the play lays on the table (the engine's `Play.laid`)."""
        return self.play.laid

    @property
    def freed(self) -> tuple[Card, ...]:
        """The jokers the play sends back to the hand (`german-jokers`)."""
        return self.play.freed

    @property
    def broken_numbers(self) -> tuple[str, ...]:
        """The numbers of the melds the steps break, for the page to list: `1, 2 and 4`.

        The chain depth's melds: the steps are planned to break those (`plan_steps`' `broken`), in
        the order the chain reaches them; listed by number."""
        breaks = [step.source for step in self.steps if step.kind is StepKind.BREAK]
        return tuple(str(source + 1) for source in sorted(source for source in breaks if source is not None))


def answer_of(analysis: Settled, chain: Chain | None) -> Answer:
    position = analysis.position
    play = analysis.shown
    steps = plan_steps(position, play, analysis.depth.broken)
    return Answer(
        analysis=analysis,
        chain=chain,
        play=play,
        hand_after=play.hand_after(position),
        points_left=sum(position.rules.points.of(card) for card in play.hand_after(position)),
        steps=steps,
        final=numbered(position, steps),
        witness=analysis.other_play,
    )


def position_args(entry: Entry) -> dict[str, Any]:
    """The query that reproduces an entry: canonical when it is a valid position, else as typed. The
    canonical form writes suits as symbols (`10♥`), which every page reads alike: an engine `QC`
    would be the queen of cuori (hearts) on an Italian page."""
    position = entry.position
    if position is None:
        return {"rules": entry.rules_name, "table": entry.table_text, "hand": entry.hand_text}
    return {
        "rules": position.rules.name,
        "table": " / ".join(" ".join(_token(card) for card in meld.cards) for meld in position.table),
        "hand": " ".join(_token(card) for card in position.hand),
    }


def _token(card: Card) -> str:
    return str(card) if card.is_joker else card.pretty()
