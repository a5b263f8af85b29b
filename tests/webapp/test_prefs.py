"""The settings page and its deck cookie: two or four colours, saved with a CSRF-checked form and
drawn by every page from `class="four-colour"` on <html>."""

from __future__ import annotations

import html
import re

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.webapp.conftest import FrozenClock, csrf_token, make_app
from webapp import settings
from webapp.templating import DECK_COOKIE

FOUR_COLOURS = '<html lang="en" class="four-colour">'
TWO_COLOURS = '<html lang="en">'

PRODUCTION = {
    "TAVOLO_ENV": "production",
    "TAVOLO_BASE_URL": "https://localhost",
    "SECRET_KEY": "9f2c71d4e8a05b3f6c19e2d7a4b8f05c3e61d9a27b4c8e0f5a13d6b92e7c4f08",
    "TAVOLO_DAILY_SECRET": "e41b7c0a9d35f826c7e04a1b9f3d62c85a7e0f49b13c6d28e5f7a0b4c91d36e2",
}


def deck_cookies(response: TestResponse) -> list[str]:
    """The Set-Cookie headers of a response that set the deck cookie."""
    headers = response.headers.getlist("Set-Cookie")
    return [header for header in headers if header.startswith(f"{DECK_COOKIE}=")]


def save(client: FlaskClient, **form: str) -> TestResponse:
    """Submit the settings form as a browser does: the token in its hidden field."""
    return client.post("/settings", data={"csrf_token": csrf_token(client, "/settings"), **form})


def checked(page: str) -> list[str]:
    return re.findall(r'<input type="radio" name="deck" value="(\w+)" id="deck-\w+" checked>', page)


def test_the_settings_page_offers_both_decks_each_with_its_sample(client: FlaskClient) -> None:
    response = client.get("/settings")
    assert response.status_code == 200
    page = html.unescape(response.get_data(as_text=True))
    assert "Two colours" in page and "Four colours (blue ♦, green ♣)" in page
    assert checked(page) == ["two"]
    for deck in ("two", "four"):
        option = re.search(rf'<div class="deck-option deck-{deck}">([\s\S]*?)</div>\s*</div>', page)
        assert option, deck
        suits = re.findall(r'class="card (red|black) (\w+)"', option.group(1))
        assert suits == [("black", "spades"), ("red", "hearts"), ("red", "diamonds"), ("black", "clubs")]
    assert re.search(r'<input type="hidden" name="csrf_token" value="[^"]+">', page)


def test_every_page_links_to_the_settings_from_a_gear_in_the_header(client: FlaskClient) -> None:
    for path in ("/help", "/settings", "/analyse"):
        page = client.get(path).get_data(as_text=True)
        nav = re.search(r'<nav class="bar-links"[\s\S]*?</nav>', page)
        assert nav, path
        assert re.search(
            r'<a href="/settings" class="icon-link" title="Settings" aria-label="Settings">', nav.group(0)
        )


def test_saving_four_colours_sets_a_long_lived_cookie_and_says_so(client: FlaskClient) -> None:
    saved = save(client, deck="four")
    assert saved.status_code == 303
    assert saved.headers["Location"] == "/settings"
    [cookie] = deck_cookies(saved)
    attributes = [part.strip() for part in cookie.split(";")]
    assert attributes[0] == f"{DECK_COOKIE}=four"
    assert "Max-Age=31536000" in attributes and any(part.startswith("Expires=") for part in attributes)
    assert "HttpOnly" in attributes and "SameSite=Lax" in attributes and "Path=/" in attributes
    assert "Secure" not in attributes  # the development server speaks plain HTTP
    page = html.unescape(client.get("/settings").get_data(as_text=True))
    assert '<p class="flash" role="status">Saved.</p>' in page
    assert page.startswith(f"<!doctype html>\n{FOUR_COLOURS}")
    assert checked(page) == ["four"]
    # and back to two colours
    assert save(client, deck="two").status_code == 303
    page = client.get("/settings").get_data(as_text=True)
    assert FOUR_COLOURS not in page and TWO_COLOURS in page and checked(page) == ["two"]


def test_the_deck_cookie_is_secure_when_the_session_cookie_is(database_url: str, clock: FrozenClock) -> None:
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, **settings.from_environment(PRODUCTION))
    [cookie] = deck_cookies(save(app.test_client(), deck="four"))
    assert "Secure" in [part.strip() for part in cookie.split(";")]


def test_saving_without_the_csrf_token_is_refused(client: FlaskClient) -> None:
    client.get("/settings")
    for form in ({"deck": "four"}, {"deck": "four", "csrf_token": "forged"}):
        refused = client.post("/settings", data=form)
        assert refused.status_code == 400
        assert "CSRF" in refused.get_data(as_text=True)
        assert deck_cookies(refused) == []
    assert TWO_COLOURS in client.get("/settings").get_data(as_text=True)


def test_a_deck_that_is_not_offered_is_a_400_with_a_message_and_no_cookie(client: FlaskClient) -> None:
    for deck in ("three", "Four", "", "four "):
        refused = save(client, deck=deck)
        assert refused.status_code == 400, deck
        page = refused.get_data(as_text=True)
        assert "Choose a deck: two colours or four colours." in page, deck
        assert deck_cookies(refused) == [], deck
    missing = save(client)
    assert missing.status_code == 400 and deck_cookies(missing) == []


def test_the_play_page_draws_four_colours_only_with_the_cookie(
    app: Flask, client: FlaskClient, published: int
) -> None:
    page = client.get("/").get_data(as_text=True)
    assert TWO_COLOURS in page and "four-colour" not in page
    assert 'class="card red diamonds"' in page  # the classes the stylesheet colours by
    client.set_cookie(DECK_COOKIE, "four")
    page = client.get("/").get_data(as_text=True)
    assert FOUR_COLOURS in page
    client.set_cookie(DECK_COOKIE, "two")
    assert "four-colour" not in client.get("/").get_data(as_text=True)


def test_a_garbage_deck_cookie_is_ignored(client: FlaskClient, published: int) -> None:
    for garbage in ("blue", "FOUR", "four-colour", '"><script>', "", "x" * 4000):
        client.set_cookie(DECK_COOKIE, garbage)
        for path in ("/", "/settings"):
            response = client.get(path)
            assert response.status_code == 200, (garbage, path)
            page = response.get_data(as_text=True)
            assert TWO_COLOURS in page and "four-colour" not in page, (garbage, path)
        assert checked(client.get("/settings").get_data(as_text=True)) == ["two"]


def test_a_shared_rendering_of_the_play_page_opens_with_each_visitors_deck(
    app: Flask, published: int
) -> None:
    """An untouched puzzle's page is rendered once a minute for everyone: the deck is not in it."""
    for first, second in (("four", "two"), ("two", "four")):
        visitors = {deck: app.test_client() for deck in (first, second)}
        for deck, client in visitors.items():
            client.set_cookie(DECK_COOKIE, deck)
            page = client.get(f"/puzzles/{published}").get_data(as_text=True)
            assert (FOUR_COLOURS in page) == (deck == "four"), (first, deck)


def test_pages_say_they_vary_with_the_cookie(client: FlaskClient, published: int) -> None:
    for path in ("/", "/settings", "/nowhere"):
        assert "Cookie" in client.get(path).headers.get("Vary", ""), path
    client.set_cookie(DECK_COOKIE, "four")
    assert FOUR_COLOURS in client.get("/nowhere").get_data(as_text=True)  # error pages too
    assert client.get("/static/tavolo.css").get_data(as_text=True).startswith("/* Tavolo")


def test_the_first_visits_walkthrough_draws_the_worked_example(client: FlaskClient) -> None:
    tour = client.get("/tour").get_data(as_text=True)
    assert '<dialog class="tutorial" id="tutorial"' in tour and "Welcome to Tavolo" in tour
    # the example's table (9 cards), hand (3), its answer (12), and a set and a run of it (6)
    assert tour.count('class="card ') == 9 + 3 + 12 + 6
    # the hand is labelled as the hand, not drawn as a fourth meld of the table
    assert tour.index("The table") < tour.index("Your hand") < tour.index('class="meld-cards hand-cards"')
