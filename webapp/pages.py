"""The settings page: how the deck is drawn, kept in a cookie of its own (not in the player's record,
so it needs no database and stays with the browser, like the light or dark theme).

A page for a browser that chose four colours says so on its `<html>` (`class="four-colour"`, in
base.html), so the cards come out in their colours on the first paint, with no script."""

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


@bp.app_template_global("deck")
def deck() -> str:
    """This browser's deck: the cookie's value if it is one of `DECKS`, else two colours."""
    chosen = request.cookies.get(DECK_COOKIE, DEFAULT_DECK)
    return chosen if chosen in DECKS else DEFAULT_DECK


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
