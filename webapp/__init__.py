"""Tavolo's website: the daily puzzle, played with every step checked by the engine, and a JSON API.

`create_app()` builds the app; `flask --app webapp run`, `flask --app webapp clock` (the publishing
clock), `flask --app webapp db upgrade` and `flask --app webapp puzzles import FILE` use it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask
from flask_compress import Compress
from werkzeug.routing import IntegerConverter

from webapp import assets, db, errors, pages, security, settings
from webapp.analyser import views as analyser
from webapp.models import Status
from webapp.players import views as stats
from webapp.schedule import api, archive, daily, practice, scheduler
from webapp.turn import preview
from webapp.turn import views as play


class AsciiIntegerConverter(IntegerConverter):
    """`<int:...>` with ASCII digits only: Werkzeug's reads any Unicode digit, so `/puzzles/٧` would
    be a second address for puzzle 7."""

    regex = r"[0-9]+"


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    app.url_map.converters["int"] = AsciiIntegerConverter
    app.config.from_mapping(settings.defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        app.config.from_mapping(settings.from_environment(os.environ))
    else:
        app.config.from_mapping(test_config)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config["SECRET_KEY"] = settings.secret_key(app.config, app.instance_path)

    db.init_app(app)
    Compress(app)
    security.init_app(app)
    errors.init_app(app)
    daily.init_app(app)
    scheduler.init_app(app)
    app.register_blueprint(play.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(assets.bp)
    app.register_blueprint(stats.bp)
    app.register_blueprint(archive.bp)
    app.register_blueprint(practice.bp)
    app.register_blueprint(preview.bp)
    app.register_blueprint(analyser.bp)
    app.register_blueprint(pages.bp)
    app.jinja_env.globals["Status"] = Status
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    return app
