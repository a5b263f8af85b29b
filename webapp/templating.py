"""How pages are drawn: Jinja's settings, the cards, and the deck colours every page opens with.

Cards are drawn by `_cards.html`, through `drawn_card`. The deck choice is a cookie of its own, not
part of the player's record: a page for a browser that chose four colours says so on its `<html>`
(`class="four-colour"`, in base.html), so the cards come out in their colours on the first paint,
with no script.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from flask import Flask, current_app, g, request
from flask_babel import gettext, lazy_gettext
from flask_wtf.csrf import generate_csrf
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from markupsafe import Markup

from puzzles import Card
from webapp.caching import CACHES, BoundedCache, CacheInfo
from webapp.languages import letters, shown_card

DECK_COOKIE = "tavolo_deck"
DECKS = {"two": lazy_gettext("Two colours"), "four": lazy_gettext("Four colours (blue ♦, green ♣)")}
"""The deck choices: the cookie's value and what the settings page calls it."""
DEFAULT_DECK = "two"


VERDICT_COOKIE = "tavolo_verdict"
"""`off` hides the step check's verdict after each move on a puzzle's board (meld marks still show)."""


def verdict_shown() -> bool:
    """Whether this browser shows the step check's verdict after every move (the default)."""
    return request.cookies.get(VERDICT_COOKIE) != "off"


def deck() -> str:
    """This browser's deck: the cookie's value if it is one of `DECKS`, else two colours."""
    chosen = request.cookies.get(DECK_COOKIE, DEFAULT_DECK)
    return chosen if chosen in DECKS else DEFAULT_DECK


@dataclass(frozen=True, slots=True)
class CardFace:
    """What a drawn card shows: its corner, its colour and suit classes, and its spoken name."""

    rank: str
    symbol: str
    classes: str
    label: str


def card_face(card: Card) -> CardFace:
    """The card as this page draws it: in the player's deck letters, named in their language."""
    return _card_face(card, letters(), str(gettext("joker")))


# not cached: a cache saved 0.8 ms of /help (3.1 against 3.9 ms), under the 2 ms a cache must save
def _card_face(card: Card, deck_letters: str, joker: str) -> CardFace:
    if card.suit is None:
        return CardFace("JOKER", "★", "joker", joker)
    colour = "red" if card.suit.is_red else "black"
    shown = shown_card(card, deck_letters)
    return CardFace(shown[:-1], card.suit.symbol, f"{colour} {card.suit.name.lower()}", shown)


def drawn_card(
    card_id: str,
    card: Card,
    where: int | str,
    from_hand: bool = False,
    movable: bool = True,
    hinted: bool = False,
) -> Markup:
    """The `card` macro of `_cards.html` for this card, place and state."""
    # not cached: a cache of each drawn card saved 0.6 ms of a step POST (3.9 against 4.5 ms of CPU,
    # the tests' known puzzle, its 19 cards; bench/web_caches.py), under the 2 ms a cache must save
    macro = current_app.jinja_env.get_template("_cards.html").module.card  # type: ignore[attr-defined]
    return Markup(macro(card_id, card, where, from_hand, movable, hinted))


TEMPLATES = 64
"""Compiled templates kept: the site has 36, so every one of them, with room for more."""
CACHES.append(
    CacheInfo(
        "compiled templates",
        TEMPLATES,
        serves="no request: a fresh app drawing 3 pages, as each test does, in 35 ms of CPU against 106 "
        "ms compiling them again (bench/web_caches.py, one thread, SQLite)",
    )
)


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per process rather than once per app. A site has one app per process,
    but the tests build one for every test, and compiling took two thirds of a test that draws three
    pages (bench/web_caches.py). Jinja checks each template's source against the code it keeps: an
    edit recompiles. At most `TEMPLATES` are kept, the least recently used dropped first."""

    def __init__(self) -> None:
        self.code: BoundedCache[str, bytes] = BoundedCache(TEMPLATES)

    def load_bytecode(self, bucket: Bucket) -> None:
        if (code := self.code.get(bucket.key)) is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code.put(bucket.key, bucket.bytecode_to_string())

    def clear(self) -> None:
        self.code.clear()


JINJA_OPTIONS: dict[str, Any] = {
    "trim_blocks": True,
    "lstrip_blocks": True,
    "bytecode_cache": CompiledTemplates(),
    # Jinja folds a filter on a constant ("easy"|tier) into the compiled code, in the language of the
    # first request: the words must be looked up per request instead.
    "optimized": False,
}
"""Flask's `jinja_options` for the app: every app of the process compiles its templates alike."""


def init_app(app: Flask) -> None:
    app.before_request(token_sent_kept)
    app.jinja_env.filters["face"] = card_face
    # in place of Flask-WTF's own, in the globals (macros imported without the context) and in every
    # template's context (this processor runs after Flask-WTF's)
    app.jinja_env.globals.update(drawn_card=drawn_card, deck=deck, csrf_token=page_token)
    app.context_processor(lambda: {"csrf_token": page_token})


TOKEN_SLOT = "\x00csrf-token\x00"
"""Where a kept page's CSRF token goes: each request that serves the page puts its own there."""


def token_filled(page: str, tokenless: bool) -> str:
    """A kept page with this request's own CSRF token; with none at all when `tokenless` (a visitor
    without a session, `sessionless`, on a page that may be served to every such visitor)."""
    return page.replace(TOKEN_SLOT, "" if tokenless else generate_csrf())


def token_sent_kept() -> None:
    """A POST that passed the CSRF check answers with the token it sent (it never expires:
    `WTF_CSRF_TIME_LIMIT`), rather than a token signed anew for every board it draws; runs after
    Flask-WTF's check (`security.init_app` comes first)."""
    if g.get("csrf_valid") and "csrf_token" not in g:
        # the token Flask-WTF checked, found where it looked
        sent = current_app.extensions["csrf"]._get_csrf_token()
        if sent:
            g.csrf_token = sent


def page_token() -> str:
    """`csrf_token()` in templates: this request's token, or the slot while a page is drawn to be kept
    (`drawn_for_keeping`), which then neither makes a token nor starts a session for this request."""
    return TOKEN_SLOT if g.get("drawing_kept") else generate_csrf()


@contextmanager
def drawn_for_keeping() -> Iterator[None]:
    """Pages drawn inside this carry `TOKEN_SLOT` wherever a token goes, for `token_filled`
    to fill in for each request that is served the page."""
    g.drawing_kept = True
    try:
        yield
    finally:
        g.drawing_kept = False


def sessionless() -> bool:
    """This request carries no session cookie: a newcomer's first page, or a browser that keeps none.
    Today's page for it carries no token and sets no cookie, so one copy serves every such visitor
    (and nginx may keep it); the page's script asks `/token` for a token before its first POST."""
    return current_app.config["SESSION_COOKIE_NAME"] not in request.cookies
