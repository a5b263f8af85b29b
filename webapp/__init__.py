"""Tavolo's website: the daily puzzle, played with every step checked by the engine, and a JSON API.

`create_app()` builds the app; `flask --app webapp run`, `flask --app webapp clock` (the publishing
clock), `flask --app webapp db upgrade`, `flask --app webapp puzzles import FILE` and `flask --app webapp
backup FILE` use it.

The game is in packages by area: `schedule` (which puzzle when), `review` (missed puzzles coming
back), `players` (records, streaks, ratings), `turn` (a turn at a puzzle), `training` (rush and
streak runs), `analyser` and `friends` (friends' tables). Every other module is infrastructure,
beneath the areas: any area may import it, and it imports no area. This factory, above them all,
registers each. docs/ARCHITECTURE.md draws the map, and tests/webapp/test_architecture.py holds the
code to it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, request, url_for
from flask_compress import Compress
from werkzeug.routing import IntegerConverter, RequestRedirect

from webapp import (
    assets,
    backup,
    db,
    errors,
    kept_answers,
    languages,
    pages,
    security,
    settings,
    solver_gate,
    templating,
    wording,
)
from webapp.analyser import views as analyser_views
from webapp.friends import views as friends_views
from webapp.players import pruning, records
from webapp.players import views as players_views
from webapp.schedule import api, cli, scheduler
from webapp.training import views as training_views
from webapp.training.runs import KINDS
from webapp.turn import choosing, preview
from webapp.turn import views as turn_views
from webapp.turn.modes import Mode


class AsciiIntegerConverter(IntegerConverter):
    """`<int:...>` with ASCII digits only: Werkzeug's reads any Unicode digit, so `/puzzles/٧` would
    be a second address for puzzle 7."""

    regex = r"[0-9]+"


def canonical_numbers(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """`/puzzles/00009` would be a second address for #9 (for links, caches and share counts): send
    it, with its query, to the one address. Runs before the blueprints take their values."""
    if endpoint is None or not values or not any(isinstance(value, int) for value in values.values()):
        return
    canonical = url_for(endpoint, **values)
    if canonical != request.script_root + request.path:
        query = request.query_string.decode("latin-1")
        raise RequestRedirect(f"{canonical}?{query}" if query else canonical)


TURN_PLACES = {
    Mode.DAILY: "/puzzles/<int:number>",
    Mode.ARCHIVE: "/archive/<int:number>",
    Mode.PRACTICE: "/practice/<code>",
    Mode.REVIEW: "/review/<code>",
}
"""Where the turn blueprint is registered, under each mode's name: `/puzzles/7/end` is `daily.end_turn`."""


class Tavolo(Flask):
    """Flask, with absolute URLs from `BASE_URL` when it is set: never from the request's Host header,
    which anyone can send (`Host: evil.example` would otherwise put its name in link previews)."""

    jinja_options = templating.JINJA_OPTIONS

    def url_for(self, endpoint: str, *, _external: bool | None = None, **values: Any) -> str:
        base = self.config.get("BASE_URL")
        if base and _external:
            return str(base) + super().url_for(endpoint, _external=False, **values)
        return super().url_for(endpoint, _external=_external, **values)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Tavolo(__name__, instance_relative_config=True)
    app.url_map.converters["int"] = AsciiIntegerConverter
    app.config.from_mapping(settings.defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_mapping(settings.from_environment(os.environ))
    else:
        app.config.from_mapping(test_config)
    settings.check_environment(app.config)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config["SECRET_KEY"] = settings.secret_key(app.config, app.instance_path)
    app.config["DAILY_SECRET"] = settings.daily_secret(app.config, app.instance_path)
    settings.base_url(app.config)
    settings.check_rate_limits(app.config)

    db.init_app(app)
    app.url_value_preprocessor(canonical_numbers)
    Compress(app)
    security.init_app(app)
    solver_gate.init_app(app)
    errors.init_app(app)
    languages.init_app(app)
    templating.init_app(app)
    wording.init_app(app)
    cli.init_app(app)
    backup.init_app(app)
    scheduler.init_app(app)
    pruning.init_app(app)
    for mode, url_prefix in TURN_PLACES.items():
        app.register_blueprint(turn_views.bp, name=mode.value, url_prefix=url_prefix)
    for kind in KINDS:
        app.register_blueprint(training_views.bp, name=kind, url_prefix=f"/{kind}")
    # the home page, `/` (today's puzzle), and the pages that pick a puzzle: /archive, /practice, /review
    app.register_blueprint(choosing.bp)
    app.register_blueprint(api.bp)
    api.finished_by(app, records.finished_here)
    app.register_blueprint(preview.bp)
    app.register_blueprint(players_views.bp)
    app.register_blueprint(analyser_views.bp)
    app.register_blueprint(friends_views.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(assets.bp)
    kept_answers.init_app(app)
    return app
