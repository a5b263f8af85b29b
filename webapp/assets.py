"""Front-end packages served from node_modules, where `npm ci` put them: never copied, never a CDN."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, send_from_directory
from werkzeug.wrappers import Response

bp = Blueprint("assets", __name__, url_prefix="/vendor")

VENDORED = {"htmx.min.js": ("htmx.org", "dist/htmx.min.js")}
"""The files the pages may load, by the name they use, as (npm package, path inside it)."""


@bp.get("/<name>")
def vendored(name: str) -> Response:
    if name not in VENDORED:
        abort(404, description=f"no front-end file {name[:40]!r}")
    package, inside = VENDORED[name]
    folder = Path(current_app.config["NODE_MODULES"]) / package
    if not (folder / inside).is_file():
        abort(404, description=f"{package} is not installed: run make setup")
    return send_from_directory(folder, inside, max_age=7 * 24 * 3600)
