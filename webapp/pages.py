"""The pages beside the game: how to play (`/help`, and the first visit's walkthrough at `/tour`), and
the settings (`/settings`).

The settings page chooses how the deck is drawn, kept in a cookie of its own (`templating.deck`): not
in the player's record, so it needs no database and stays with the browser, like the light or dark
theme.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from generator import THEMES
from puzzles import Card, Position, parse_cards
from webapp.templating import DECK_COOKIE, DECK_COOKIE_LIFETIME, DECKS, deck

bp = Blueprint("pages", __name__)

HELP_EXAMPLES = (
    (
        "A lonely Q♣ finds a set",
        "10H 10D 10S / JH JD JS / QH QD QC",
        "9S QD QS",
        "10H JH QH / 10D JD QD / 9S 10S JS / QC QD QS",
    ),
    ("Cut a long run to free its middle", "3C 4C 5C 6C 7C 8C 9C", "6H 6D", "3C 4C 5C / 7C 8C 9C / 6C 6H 6D"),
)
"""Worked examples of the rules, drawn on the help page: title, table, hand and best final table."""
SAMPLE = tuple(Card.parse(token) for token in ("7S", "7H", "7D", "7C"))
"""One card of each suit, drawn beside each deck choice."""


def _melds(text: str) -> list[tuple[Card, ...]]:
    return [parse_cards(meld) for meld in text.split("/")]


@bp.app_template_global()
def worked_examples() -> list[tuple[str, list[tuple[Card, ...]], tuple[Card, ...], list[tuple[Card, ...]]]]:
    """The worked examples as cards: the help page and the first visit's walkthrough draw them."""
    return [
        (title, _melds(table), parse_cards(hand), _melds(answer))
        for title, table, hand, answer in HELP_EXAMPLES
    ]


@bp.get("/help")
def help_page() -> str:
    return render_template("help.html", examples=worked_examples(), themes=_theme_examples())


@bp.get("/tour")
def tour() -> str:
    """The first visit's walkthrough, which the play page's script asks for once: kept off the
    puzzle's own page, whose HTML then holds no table but the puzzle's."""
    return render_template("_tutorial.html")


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
    return render_template("settings.html", decks=DECKS, chosen=deck(), sample=SAMPLE)


@bp.post("/settings")
def save_settings() -> Response:
    chosen = request.form.get("deck", "")
    if chosen not in DECKS:
        abort(400, description="Choose a deck: two colours or four colours.")
    response = redirect(url_for("pages.settings_page"), 303)
    response.set_cookie(
        DECK_COOKIE,
        chosen,
        max_age=DECK_COOKIE_LIFETIME,
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
        httponly=True,
        samesite="Lax",
    )
    flash(f"Saved: {DECKS[chosen].lower()}.")
    return response
