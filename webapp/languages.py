"""The player's language and the letters on their cards, both chosen in the settings.

Flask-Babel translates from the catalogs in `webapp/translations` (compiled by `make setup`). The
language is the settings' cookie when it names one of `LANGUAGES`, else the best match for the
browser's `Accept-Language`, else English. The court and ace letters are a cookie of their own,
defaulting by language (a German deck prints B D K A, a Polish one W D K A). Every page that depends
on either says so in `Vary`, and every per-process page cache keys on `page_language()`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from flask import Flask, Response, g, request
from flask_babel import Babel, get_locale, lazy_gettext
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header

from puzzles import SUITS, Card

LANGUAGE_COOKIE = "tavolo_language"
LETTERS_COOKIE = "tavolo_letters"
COOKIE_LIFETIME = timedelta(days=365)
DEFAULT_LANGUAGE = "en"
LANGUAGES = {"en": "English", "it": "Italiano", "de": "Deutsch", "pl": "Polski"}
"""The site's languages, each named in itself (as a picker names them)."""

LETTERS = {"english": "JQKA", "german": "BDKA", "polish": "WDKA"}
"""The jack, queen, king and ace as each kind of deck prints them."""
LETTER_NAMES = {
    "english": lazy_gettext("J Q K A (English and Italian decks)"),
    "german": lazy_gettext("B D K A (German decks: Bube, Dame, König, Ass)"),
    "polish": lazy_gettext("W D K A (Polish decks: walet, dama, król, as)"),
}
SUIT_LETTERS: dict[str, dict[str, str]] = {
    "en": {},
    "it": {"P": "S", "C": "H", "Q": "D", "F": "C"},  # picche, cuori, quadri, fiori
    "de": {"P": "S", "H": "H", "K": "DC"},  # Pik, Herz; Karo and Kreuz are both K
    "pl": {"P": "S", "K": "HD", "T": "C"},  # pik, trefl; kier and karo are both K
}
"""The suit letters a language's players type, each to the engine's suits it may mean: read before the
English S H D C, which still read where the language does not use the letter (an Italian C is cuori,
never clubs); a letter that means two suits is refused with both (`puzzles.AmbiguousCard`)."""
LANGUAGE_LETTERS = {"de": "german", "pl": "polish"}
"""The letters a language's players expect when they have not chosen; any other language: English."""


FORMATS = {"en": "en_GB"}
"""Babel's locale for a language where it is not the language itself: the site writes British English
(`1 Dec 2026`, `1, 2 and 3`)."""


def choose_language() -> str:
    """The Babel locale of this request: the cookie's language, else the browser's, else English."""
    chosen = request.cookies.get(LANGUAGE_COOKIE, "")
    if chosen not in LANGUAGES:
        chosen = browser_language(request.headers.get("Accept-Language"))
    return FORMATS.get(chosen, chosen)


def browser_language(accept_language: str | None) -> str:
    """The site's language that best matches an `Accept-Language` header, else English."""
    accepted = parse_accept_header(accept_language, LanguageAccept)
    return accepted.best_match(LANGUAGES, default=DEFAULT_LANGUAGE) or DEFAULT_LANGUAGE


def page_language() -> str:
    """The language this request is answered in: `en`, `it`, `de` or `pl`."""
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def letters() -> str:
    """The letters chosen in the settings, else those of the page's language."""
    chosen = request.cookies.get(LETTERS_COOKIE, "")
    if chosen in LETTERS:
        return chosen
    return LANGUAGE_LETTERS.get(page_language(), "english")


T = TypeVar("T")


def per_locale(name: str, find: Callable[[], T]) -> T:
    """`find()`, kept on `g` under `name` for this request and the locale it was found for, so that
    a block under `force_locale` still gets its own."""
    # Flask-Babel's locale once chosen (a private attribute: `get_locale` would choose it now)
    locale = getattr(g.get("_flask_babel"), "babel_locale", None)
    kept: tuple[Any, T] | None = g.get(name)
    if kept is not None and locale is not None and kept[0] is locale:
        return kept[1]
    value = find()
    setattr(g, name, (get_locale(), value))
    return value


def suit_letters() -> dict[str, str]:
    """The suit letters of the page's language (`SUIT_LETTERS`)."""
    return SUIT_LETTERS.get(page_language(), {})


def suit_legend() -> list[tuple[str, str]]:
    """The suit letters the analyser reads on this page, each with its symbol: the language's own that
    mean one suit, then the English ones it does not use."""
    own = suit_letters()
    symbols = {suit.value: suit.symbol for suit in SUITS}
    legend = [(letter, symbols[meant]) for letter, meant in own.items() if len(meant) == 1]
    legend += [(letter, symbols[letter]) for letter in "SHDC" if letter not in own]
    return legend


def rank_text(card: Card, deck_letters: str) -> str:
    """The card's rank as the deck prints it: `D` for the queen on a German deck."""
    courts = LETTERS[deck_letters]
    if card.rank == 1:
        return courts[3]
    if card.rank >= 11:
        return courts[card.rank - 11]
    return str(card.rank)


def shown_card(card: Card, deck_letters: str) -> str:
    """`D♥` for the queen of hearts on a German deck; the joker as 🃏."""
    if card.suit is None:
        return card.pretty()
    return rank_text(card, deck_letters) + card.suit.symbol


def add_vary(response: Response) -> Response:
    """Pages, fragments and pictures come out in the cookie's or the browser's language."""
    if response.mimetype in ("text/html", "image/svg+xml"):
        response.vary.update(("Cookie", "Accept-Language"))
    return response


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=choose_language, default_translation_directories="translations")
    app.after_request(add_vary)
