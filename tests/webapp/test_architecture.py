"""The web app's shape, as docs/ARCHITECTURE.md draws it: packages by area that import one way, views that
import no other view, pure modules that know no Flask or database, short modules, one place for
settings and caches."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import webapp
from webapp import caching, settings

ROOT = Path(webapp.__file__).resolve().parent
MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages([str(ROOT)], prefix="webapp.")
    if not name.endswith("__main__")
)
PURE = {
    "webapp.client_input",
    "webapp.analyser.answer",
    "webapp.friends.table",
    "webapp.players.charts",
    "webapp.players.glicko",
    "webapp.players.streaks",
    "webapp.review.spacing",
    "webapp.schedule.days",
    "webapp.training.runs",
    "webapp.turn.view",
}
"""Modules that do no I/O: no Flask, no SQLAlchemy, no requests."""
MOST_LINES = 300
AREAS = ("schedule", "review", "players", "turn", "training", "analyser", "friends")
"""The areas from the bottom up: each may import the ones before it, never one after it."""


def path_of(module: str) -> Path:
    relative = Path(*module.split(".")[1:])
    package = ROOT / relative / "__init__.py"
    return package if package.exists() else ROOT / relative.with_suffix(".py")


def imported(module: str) -> set[str]:
    """The modules `module` imports, by their full names."""
    tree = ast.parse(path_of(module).read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def is_view_module(module: str) -> bool:
    return "Blueprint(" in path_of(module).read_text()


VIEWS = [module for module in MODULES if is_view_module(module)]


def test_the_areas_are_packages_that_say_what_they_own() -> None:
    for area in AREAS:
        package = importlib.import_module(f"webapp.{area}")
        assert package.__doc__ and len(package.__doc__.split()) > 20, area


def area_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "webapp" and parts[1] in AREAS else None


@pytest.mark.parametrize("module", [module for module in MODULES if area_of(module)])
def test_areas_import_only_the_areas_below_them(module: str) -> None:
    area = area_of(module)
    assert area is not None
    above = set(AREAS[AREAS.index(area) + 1 :])
    assert not {name for name in imported(module) if area_of(name) in above}


def test_the_view_modules_are_the_ones_the_map_names() -> None:
    assert set(VIEWS) == {
        "webapp.assets",
        "webapp.pages",
        "webapp.analyser.views",
        "webapp.friends.views",
        "webapp.players.views",
        "webapp.schedule.api",
        "webapp.training.views",
        "webapp.turn.choosing",
        "webapp.turn.preview",
        "webapp.turn.views",
    }


@pytest.mark.parametrize("module", VIEWS)
def test_no_view_module_imports_another(module: str) -> None:
    assert not imported(module) & (set(VIEWS) - {module})


@pytest.mark.parametrize("module", sorted(PURE))
def test_pure_modules_know_no_flask_or_database(module: str) -> None:
    foreign = {name for name in imported(module) if name.split(".")[0] in {"flask", "sqlalchemy", "werkzeug"}}
    assert not foreign
    inside = {name for name in imported(module) if name.startswith("webapp.")}
    # a pure module uses other pure modules only, the caches (which need no app) and models.Status
    allowed = PURE | {"webapp.caching", "webapp.models"}
    assert all(
        any(name == allowed_name or name.startswith(allowed_name + ".") for allowed_name in allowed)
        for name in inside
    ), inside


def test_infrastructure_imports_no_area() -> None:
    for module in (
        "webapp.settings",
        "webapp.db",
        "webapp.security",
        "webapp.errors",
        "webapp.caching",
        "webapp.solver_gate",
        "webapp.backup",
        "webapp.columns",
    ):
        areas = {
            name
            for name in imported(module)
            if re.match(r"webapp\.(turn|schedule|review|players|training|analyser|friends)", name)
        }
        assert not areas, module


@pytest.mark.parametrize("module", MODULES)
def test_no_module_is_long(module: str) -> None:
    assert len(path_of(module).read_text().splitlines()) <= MOST_LINES


def test_every_setting_read_has_its_default_in_settings() -> None:
    defaults = settings.defaults("/instance")
    read = set()
    for module in MODULES:
        # reads only: `config["X"] = ...` sets a value read from the environment
        read |= set(re.findall(r"config\[\"([A-Z_]+)\"\](?!\s*=[^=])", path_of(module).read_text()))
    assert {"STEP_TIME_LIMIT", "TURN_SECONDS", "SOLVE_SECONDS_LIMIT", "PRACTICE_POOL"} <= read
    assert read - set(defaults) == set(), "settings.defaults() lacks these"


def test_every_cache_is_bounded_and_names_its_figure() -> None:
    for module in MODULES:
        importlib.import_module(module)
    assert len(caching.CACHES) == 12
    for cache in caching.CACHES:
        # a shared cache (Redis) is bounded in time: every entry it puts expires
        assert cache.size > 0 or cache.name.endswith("(Redis)"), cache.name
        assert re.search(r"\d ms", cache.serves), cache.name
    assert len({cache.name for cache in caching.CACHES}) == len(caching.CACHES)
