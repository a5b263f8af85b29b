"""Werkzeug's stock 404 and 405 texts are replaced by Tavolo's own; a reason given to abort() stays."""

from __future__ import annotations

from flask.testing import FlaskClient


def test_an_unknown_address_says_so_plainly(client: FlaskClient) -> None:
    for url in ("/nowhere", "/api/nowhere"):
        response = client.get(url)
        assert response.status_code == 404
        text = response.get_data(as_text=True)
        assert "was not found on Tavolo" in text.replace("&#39;", "'"), url
        assert "requested URL" not in text and "spelling" not in text, url


def test_a_wrong_method_says_so_plainly(client: FlaskClient) -> None:
    response = client.delete("/")
    assert response.status_code == 405
    text = response.get_data(as_text=True)
    assert "does not take this kind of request" in text and "Not this way" in text
    assert "The method is not allowed" not in text
