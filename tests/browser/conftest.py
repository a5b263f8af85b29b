"""The browser tests share the web app's fixtures: a throw-away database, frozen time, a known puzzle."""

from tests.webapp.conftest import clock, database_url, known_puzzle

__all__ = ["clock", "database_url", "known_puzzle"]
