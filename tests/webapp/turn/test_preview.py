"""Link previews: an Open Graph image per puzzle, drawn by the server, that gives nothing away."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from flask import Flask
from flask.testing import FlaskClient

import generator
from tests.webapp.schedule.test_practice import pool, practise


def test_the_daily_preview_is_an_svg_without_a_spoiler(client: FlaskClient, published: int) -> None:
    response = client.get("/puzzles/7/preview.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert "max-age=86400" in response.headers["Cache-Control"]
    svg = response.get_data(as_text=True)
    root = ElementTree.fromstring(svg)
    assert root.get("viewBox") == "0 0 1200 630"
    text = " ".join("".join(node.itertext()) for node in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "#7" in text and "Sunday, 29 November 2026" in text and "Hard · ⛓3" in text
    assert "Place 5 of your 6 cards" in text
    # no card of the puzzle: no suit, no rank
    assert not re.search(r"[♠♥♦♣]|\b(10|[2-9JQKA])[SHDC]\b", svg)


def test_previews_of_puzzles_not_out_or_never_published_are_not_found(
    client: FlaskClient, published: int
) -> None:
    assert client.get("/puzzles/9/preview.svg").status_code == 404
    assert client.get("/puzzles/3/preview.svg").status_code == 404


def test_the_play_page_names_its_preview(client: FlaskClient, published: int) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<meta property="og:image" content="http://localhost/puzzles/7/preview.svg">' in page
    assert '<meta property="og:url" content="http://localhost/puzzles/7">' in page
    assert '<meta property="og:title" content="Tavolo #7: Hard · chain length 3">' in page
    assert '<meta name="twitter:card" content="summary_large_image">' in page
    other = client.get("/", headers={"Host": "tavolo.example"}).get_data(as_text=True)
    assert "http://tavolo.example/puzzles/7/preview.svg" in other  # the shared page is per host


def test_practice_puzzles_have_previews_too(
    app: Flask, client: FlaskClient, known_puzzle: generator.Puzzle
) -> None:
    puzzle = pool(known_puzzle, 1)[0]
    practise(app, puzzle)
    page = client.get(f"/practice/{puzzle.id}").get_data(as_text=True)
    assert f'content="http://localhost/practice/{puzzle.id}/preview.svg"' in page
    svg = client.get(f"/practice/{puzzle.id}/preview.svg").get_data(as_text=True)
    assert "Practice" in svg and "Rules: Classic" in svg
    assert client.get("/practice/cz1/preview.svg").status_code == 404
