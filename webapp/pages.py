"""The pages beside the game: how to play (`/help`, and the first visit's walkthrough at `/tour`), and
the settings (`/settings`); and `/token`, the CSRF token for a page that came without one.

The settings page chooses how the deck is drawn, kept in a cookie of its own (`templating.deck`): not
in the player's record, so it needs no database and stays with the browser, like the light or dark
theme.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import force_locale, lazy_gettext
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from generator import THEMES
from puzzles import Card, Position, parse_cards
from webapp.languages import (
    COOKIE_LIFETIME,
    LANGUAGE_COOKIE,
    LANGUAGES,
    LETTER_NAMES,
    LETTERS,
    LETTERS_COOKIE,
    letters,
    page_language,
    rank_text,
    shown_card,
)
from webapp.templating import DECK_COOKIE, DECKS, VERDICT_COOKIE, deck, verdict_shown
from webapp.wording import gettext

bp = Blueprint("pages", __name__)

HELP_EXAMPLES = (
    (
        lazy_gettext("A lonely %(card)s finds a set"),
        "10H 10D 10S / JH JD JS / QH QD QC",
        "9S QD QS",
        "10H JH QH / 10D JD QD / 9S 10S JS / QC QD QS",
    ),
    (
        lazy_gettext("Cut a long run to free its middle"),
        "3C 4C 5C 6C 7C 8C 9C",
        "6H 6D",
        "3C 4C 5C / 7C 8C 9C / 6C 6H 6D",
    ),
)
"""Worked examples of the rules, drawn on the help page: title, table, hand and best final table."""
LETTER_CARDS = {"ace": "AS", "queen": "QS", "king": "KS"}
"""The cards whose letters the help page's rules name, in the player's deck letters."""
COURT_SAMPLE = tuple(Card.parse(token) for token in ("JH", "QH", "KH", "AH"))
"""The cards whose letters the deck choice changes, drawn beside the choice."""
SAMPLE = tuple(Card.parse(token) for token in ("7S", "7H", "7D", "7C"))
"""One card of each suit, drawn beside each deck choice."""


def _melds(text: str) -> list[tuple[Card, ...]]:
    return [parse_cards(meld) for meld in text.split("/")]


@bp.app_template_global()
def worked_examples() -> list[tuple[str, list[tuple[Card, ...]], tuple[Card, ...], list[tuple[Card, ...]]]]:
    """The worked examples as cards, titled in the player's language and deck letters: the help page
    and the first visit's walkthrough draw them."""
    lonely = shown_card(Card.parse("QC"), letters())
    return [
        (str(title) % {"card": lonely}, _melds(table), parse_cards(hand), _melds(answer))
        for title, table, hand, answer in HELP_EXAMPLES
    ]


@bp.get("/help")
def help_page() -> str:
    courts = {name: rank_text(Card.parse(token), letters()) for name, token in LETTER_CARDS.items()}
    return render_template("help.html", examples=worked_examples(), themes=_theme_examples(), **courts)


@bp.get("/tour")
def tour() -> str:
    """The first visit's walkthrough, which the play page's script asks for once: kept off the
    puzzle's own page, whose HTML then holds no table but the puzzle's."""
    return render_template("_tutorial.html")


@bp.get("/token")
def token() -> Response:
    """This browser's CSRF token, as JSON, with the session cookie it belongs to: today's page for a
    visitor without a session carries none (so that one copy serves them all), and its script asks
    here before its first POST."""
    response = jsonify(token=generate_csrf())
    response.headers["Cache-Control"] = "no-store"
    return response


def _theme_examples() -> list[tuple[str, str, str, str, list[tuple[Card, ...]], tuple[Card, ...]]]:
    """Each theme as name, title, description, rules, and its example's table and hand, as cards."""
    shown = []
    for theme in THEMES.values():
        position = Position.parse(theme.example)
        table = [meld.cards for meld in position.table]
        shown.append((theme.name, theme.title, theme.description, position.rules.name, table, position.hand))
    return shown


@bp.get("/settings")
def settings_page() -> str:
    return render_template(
        "settings.html",
        decks=DECKS,
        chosen=deck(),
        sample=SAMPLE,
        languages=LANGUAGES,
        language=page_language(),
        letter_names=LETTER_NAMES,
        chosen_letters=request.cookies.get(LETTERS_COOKIE)
        if request.cookies.get(LETTERS_COOKIE) in LETTERS
        else "",
        court_sample=COURT_SAMPLE,
        verdict_shown=verdict_shown(),
    )


@bp.post("/settings")
def save_settings() -> Response:
    """Save the deck, and the language and card letters when the form sends them: each a cookie of
    its own. Letters left to the language (an empty choice) drop their cookie."""
    chosen = request.form.get("deck", "")
    if chosen not in DECKS:
        abort(400, description=gettext("Choose a deck: two colours or four colours."))
    language = request.form.get("language")
    if language is not None and language not in LANGUAGES:
        abort(400, description=gettext("Choose a language: English, Italiano, Deutsch or Polski."))
    chosen_letters = request.form.get("letters")
    if chosen_letters is not None and chosen_letters and chosen_letters not in LETTERS:
        abort(400, description=gettext("Choose the card letters: J Q K A, B D K A or W D K A."))
    response = redirect(url_for("pages.settings_page"), 303)
    _keep(response, DECK_COOKIE, chosen)
    # a checkbox sends nothing when unticked: the form says it carried the choice
    if request.form.get("verdict-choice") is not None:
        if request.form.get("verdict"):
            response.delete_cookie(VERDICT_COOKIE, httponly=True, samesite="Lax")
        else:
            _keep(response, VERDICT_COOKIE, "off")
    if language is not None:
        _keep(response, LANGUAGE_COOKIE, language)
    if chosen_letters:
        _keep(response, LETTERS_COOKIE, chosen_letters)
    elif chosen_letters is not None:
        response.delete_cookie(LETTERS_COOKIE, httponly=True, samesite="Lax")
    with force_locale(language or page_language()):  # the notice speaks the language just chosen
        flash(gettext("Saved."))
    return response


def _keep(response: Response, name: str, value: str) -> None:
    response.set_cookie(
        name,
        value,
        max_age=COOKIE_LIFETIME,
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
        httponly=True,
        samesite="Lax",
    )
