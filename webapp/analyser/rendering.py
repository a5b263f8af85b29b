"""The analyser's page and its chain length's cell, drawn from the answers `solving` keeps.

The page shows the settled part of an analysis (maximum, uniqueness, depth) as soon as it is solved;
the chain length's cell then loads itself with htmx (`_chain.html`, `hx-trigger="load"`) from
`/analyse/chain`, which solves only the chain length, within its own share of the time limit. Once
the chain length is kept, or when it needs no solve (a depth of 0 or 1), the page holds it from the
start. Without JavaScript the cell is a link to
`/analyse/chain` as a whole page: the same answer, the chain length solved before it is drawn.
The views validate the request, ask the spoiler guard and solve (`solving.answered`,
`solving.whole`) before calling these, which only draw (each drawing kept beside its answers).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

from flask import render_template, url_for

from puzzles import JOKER, MAX_PROBLEMS, PRESETS, SUITS, Analysis, Card, Chain, Entry, Position, read_entry
from webapp.analyser import solving
from webapp.analyser.answer import Answer, answer_of, position_args
from webapp.languages import LETTERS, letters, page_language, suit_letters
from webapp.templating import deck, drawn_for_keeping, sessionless, token_filled

PALETTE = tuple(tuple(Card(rank, suit) for rank in range(1, 14)) for suit in SUITS)
"""The cards to tap, a row per suit; the joker comes after them."""


def entry_of(args: Mapping[str, str]) -> Entry:
    return read_entry(
        args.get("rules", "classic"),
        args.get("table", ""),
        args.get("hand", ""),
        args.get("objective", "cards"),
        LETTERS[letters()],  # a German player types DH for the queen of hearts
        suit_letters(),  # an Italian one QC for the queen of hearts (cuori)
    )


def kept_page(entry: Entry, position: Position, htmx: bool) -> str | None:
    """The page (or with `htmx` its section) as it was drawn for this position's kept answers, with this
    request's CSRF token: no solving and no rendering again. None unless both phases are kept."""
    page = solving.kept_rendered(position, entry.objective, solving.solve_time_limit(), _how(entry, htmx))
    return None if page is None else token_filled(page, sessionless())


def answer_page(entry: Entry, position: Position, htmx: bool, answered: solving.Answered) -> str:
    """The page (or with `htmx` its section) with the answer: the chain length in it when it is known,
    else a cell that asks for it."""
    page = solving.rendered(
        (str(position), entry.objective.value, solving.solve_time_limit(), _how(entry, htmx)),
        answered.stamp,
        lambda: _drawn_for_keeping(
            lambda: render_analysis(entry, answer_of(answered.settled, answered.chain), htmx)
        ),
    )
    # without a session, none is started for it: its script asks for a token before any POST
    return token_filled(page, sessionless())


def _how(entry: Entry, htmx: bool) -> tuple[object, ...]:
    """What the page of an answer depends on besides the answer."""
    return (
        "page",
        htmx,
        entry.rules_name,
        entry.table_text,
        entry.hand_text,
        page_language(),
        letters(),
        deck(),
    )


def chain_cell(entry: Entry, position: Position, analysis: Analysis, stamp: Hashable) -> str:
    """The chain length's cell alone, for htmx."""
    return solving.rendered(
        (str(position), entry.objective.value, solving.solve_time_limit(), ("chain", page_language())),
        stamp,
        lambda: _render_chain(analysis.chain),
    )


def _render_chain(chain: Chain) -> str:
    return render_template("_chain.html", chain=chain)


def render_analysis(entry: Entry, answer: Answer | None, htmx: bool) -> str:
    return render_template(
        "_analyser.html" if htmx else "analyser.html",
        entry=entry,
        answer=answer,
        presets=PRESETS.values(),
        palette=PALETTE,
        joker=JOKER,
        card_ranks=" ".join(["A", "2-10", *dict.fromkeys(LETTERS[letters()][:3] + "JQK")]),
        query=position_args(entry),
        chain_url=url_for("analyser.chain", **position_args(entry), objective=entry.objective_name)
        if entry.position is not None
        else None,
        max_problems=MAX_PROBLEMS,
        time_limit=solving.settled_time_limit(solving.solve_time_limit()),
    )


def _drawn_for_keeping(draw: Callable[[], str]) -> str:
    """A page drawn with the token's slot: drawing it starts no session for this request."""
    with drawn_for_keeping():
        return draw()
