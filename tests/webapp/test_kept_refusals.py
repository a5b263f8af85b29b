"""A 429 page is the same for every request in one language but for the CSRF token of its own
request's session, and has none for a visitor without one; once an address is refused, its further
requests there are refused in front of Flask until the limit resets (`webapp.refused_early`)."""

from __future__ import annotations

import re
import time

from flask import Flask

from tests.webapp.conftest import FrozenClock, make_app
from webapp.refused_early import Note, RefusedEarly

POSITION = {"rules": "classic", "table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"}
TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]+)"')
SOLVE = '{"rules": "classic", "table": [["3S", "4S", "5S"]], "hand": ["6S"]}'


def test_429_pages_carry_each_requests_own_token_and_language(database_url: str, clock: FrozenClock) -> None:
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, ANALYSE_RATE_LIMIT="1 per hour")
    pages: dict[str, list[str]] = {"en": [], "de": []}
    tokens = set()
    for _ in range(3):
        for language in pages:
            client = app.test_client()
            client.get("/token")  # a session: its refusal carries its token
            refused = client.get("/analyse", query_string=POSITION, headers={"Accept-Language": language})
            if refused.status_code == 200:
                continue  # the one the limit allows
            assert refused.status_code == 429
            text = refused.get_data(as_text=True)
            token = TOKEN.search(text)
            assert token is not None
            tokens.add(token.group(1))
            pages[language].append(text.replace(token.group(1), ""))
    assert len(tokens) == len(pages["en"]) + len(pages["de"]) == 5
    assert len(set(pages["en"])) == len(set(pages["de"])) == 1
    assert 'lang="en"' in pages["en"][0] and 'lang="de"' in pages["de"][0]


def flasked(app: Flask) -> list[str]:
    """The paths of the requests Flask itself saw."""
    seen: list[str] = []

    @app.before_request
    def note() -> None:
        from flask import request

        seen.append(request.path)

    return seen


def test_an_address_refused_is_refused_in_front_of_flask_until_the_limit_resets(
    database_url: str, clock: FrozenClock
) -> None:
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, ANALYSE_RATE_LIMIT="1 per hour")
    seen = flasked(app)
    flood = app.test_client()
    assert flood.get("/analyse", query_string=POSITION).status_code == 200
    first = flood.get("/analyse", query_string=POSITION)  # refused by Flask-Limiter, in Flask
    assert first.status_code == 429 and "Set-Cookie" not in first.headers
    assert '<meta name="csrf-token" content=""' in first.get_data(as_text=True)
    assert len(seen) == 2
    again = [flood.get("/analyse", query_string={**POSITION, "hand": "6S"}) for _ in range(3)]
    assert len(seen) == 2  # none of them reached Flask
    for answer in again:
        assert answer.status_code == 429 and answer.get_data() == first.get_data()
        assert 3500 <= int(answer.headers["Retry-After"]) <= 3601
        assert answer.headers["X-RateLimit-Remaining"] == "0"
        assert answer.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    german = flood.get("/analyse", query_string=POSITION, headers={"Accept-Language": "de"})
    assert german.status_code == 429 and 'lang="de"' in german.get_data(as_text=True)
    assert len(seen) == 3  # German is drawn once, in Flask
    flood.get("/analyse", query_string=POSITION, headers={"Accept-Language": "de"})
    assert len(seen) == 3
    # htmx's notice and the JSON API, each refused in Flask once, then in front of it
    for _ in range(2):
        notice = flood.get("/analyse", query_string=POSITION, headers={"HX-Request": "true"})
        assert notice.status_code == 429 and notice.headers["HX-Retarget"] == "#notice"
        api = flood.post("/api/solve", data=SOLVE, content_type="application/json")
        assert api.status_code == 429 and "Too many requests" in api.get_json()["error"]
    assert len(seen) == 5
    # another address is counted as ever; a visitor with a session goes through Flask for its token
    other = app.test_client().get("/analyse", query_string=POSITION, environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200 and len(seen) == 6
    flood.get("/token")
    own = flood.get("/analyse", query_string=POSITION)
    assert own.status_code == 429 and TOKEN.search(own.get_data(as_text=True)) and len(seen) == 8
    # once the limit's window is over, the address goes to Flask-Limiter again
    early = app.extensions["tavolo.refused_early"]
    assert isinstance(early, RefusedEarly)
    where = ("127.0.0.1", "GET", "", "/analyse")
    early.refused.put(where, Note(int(time.time()) - 1, "1 per 1 hour"))
    assert app.test_client().get("/analyse", query_string=POSITION).status_code == 429
    assert len(seen) == 9
