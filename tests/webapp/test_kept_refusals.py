"""A 429 page is drawn once per language and kept, each answer with the CSRF token of its own
request; a flood of them costs the pages less."""

from __future__ import annotations

import re

from tests.webapp.conftest import FrozenClock, make_app

POSITION = {"rules": "classic", "table": "3S 4S 5S / 7H 7D 7C", "hand": "6S 7S KD"}
TOKEN = re.compile(r'<meta name="csrf-token" content="([^"]+)"')


def test_kept_429_pages_carry_each_requests_own_token_and_language(
    database_url: str, clock: FrozenClock
) -> None:
    app = make_app(database_url, clock, RATELIMIT_ENABLED=True, ANALYSE_RATE_LIMIT="1 per hour")
    pages: dict[str, list[str]] = {"en": [], "de": []}
    tokens = set()
    for _ in range(3):
        for language in pages:
            client = app.test_client()
            refused = client.get("/analyse", query_string=POSITION, headers={"Accept-Language": language})
            if refused.status_code == 200:
                continue  # the one the limit allows
            assert refused.status_code == 429
            assert "HttpOnly" in refused.headers["Set-Cookie"]
            text = refused.get_data(as_text=True)
            token = TOKEN.search(text)
            assert token is not None
            tokens.add(token.group(1))
            pages[language].append(text.replace(token.group(1), ""))
    assert len(tokens) == len(pages["en"]) + len(pages["de"]) == 5
    assert len(set(pages["en"])) == len(set(pages["de"])) == 1
    assert 'lang="en"' in pages["en"][0] and 'lang="de"' in pages["de"][0]
