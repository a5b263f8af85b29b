"""The settings page: how the deck is drawn, kept in a cookie of its own (not in the player's record,
so it needs no database and stays with the browser, like the light or dark theme).

A page for a browser that chose four colours says so on its `<html>` (`class="four-colour"`), so the
cards come out in their colours on the first paint, with no script."""

from __future__ import annotations

from datetime import timedelta

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from puzzles import Card

bp = Blueprint("prefs", __name__)

DECK_COOKIE = "tavolo_deck"
DECKS = {"two": "Two colours", "four": "Four colours (blue ♦, green ♣)"}
"""The deck choices: the cookie's value and what the settings page calls it."""
DEFAULT_DECK = "two"
COOKIE_LIFETIME = timedelta(days=365)
SAMPLE = tuple(Card.parse(token) for token in ("7S", "7H", "7D", "7C"))
"""One card of each suit, drawn beside each choice."""

HTML_TAG = b'<html lang="en">'
"""How base.html opens every page."""
FOUR_COLOUR_TAG = b'<html lang="en" class="four-colour">'


def deck() -> str:
    """This browser's deck: the cookie's value if it is one of `DECKS`, else two colours."""
    chosen = request.cookies.get(DECK_COOKIE, DEFAULT_DECK)
    return chosen if chosen in DECKS else DEFAULT_DECK


@bp.after_app_request
def mark_the_deck(response: Response) -> Response:
    """Open a page with `FOUR_COLOUR_TAG` for a browser that chose four colours.

    Done on the way out, not in base.html, because a page may be one rendering shared by every
    visitor (`play.untouched_page` keeps an untouched puzzle's page for a minute), whatever their deck.
    """
    if response.mimetype != "text/html" or response.direct_passthrough or response.is_streamed:
        return response
    response.vary.add("Cookie")  # the same page opens differently for the other deck
    if deck() == "four":
        page = response.get_data()
        if HTML_TAG in page[:64]:
            response.set_data(page.replace(HTML_TAG, FOUR_COLOUR_TAG, 1))
    return response


@bp.get("/settings")
def settings_page() -> str:
    return render_template("settings.html", decks=DECKS, chosen=deck(), sample=SAMPLE)


@bp.post("/settings")
def save_settings() -> Response:
    chosen = request.form.get("deck", "")
    if chosen not in DECKS:
        abort(400, description="Choose a deck: two colours or four colours.")
    response = redirect(url_for("prefs.settings_page"), 303)
    response.set_cookie(
        DECK_COOKIE,
        chosen,
        max_age=COOKIE_LIFETIME,
        secure=bool(current_app.config["SESSION_COOKIE_SECURE"]),
        httponly=True,
        samesite="Lax",
    )
    flash(f"Saved: {DECKS[chosen].lower()}.")
    return response
