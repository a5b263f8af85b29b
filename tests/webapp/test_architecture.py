"""The web app's shape, as docs/ARCHITECTURE.md draws it: packages by area that import one way (the map's
graph of area imports is the code's), views that import no other view, pure modules that know no
Flask or database, short modules, one place for settings and caches."""

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
    "webapp.rating_defaults",
    "webapp.review.spacing",
    "webapp.schedule.days",
    "webapp.training.runs",
    "webapp.turn.turn_view",
}
"""Modules that do no I/O: no Flask, no SQLAlchemy, no requests."""
MOST_LINES = 300
AREAS = ("schedule", "review", "players", "turn", "training", "analyser", "friends")
"""The areas: the packages of `webapp` that hold the game. Which imports which is the map's to say."""
MAP = Path(__file__).resolve().parents[2] / "docs" / "ARCHITECTURE.md"


def path_of(module: str) -> Path:
    relative = Path(*module.split(".")[1:])
    package = ROOT / relative / "__init__.py"
    return package if package.exists() else ROOT / relative.with_suffix(".py")


def imported(module: str) -> set[str]:
    """The modules `module` imports, by their full names (a relative import resolved against it)."""
    path = path_of(module)
    return imported_from(path.read_text(), module, package_init=path.name == "__init__.py")


def imported_from(source: str, module: str, package_init: bool) -> set[str]:
    # the package a relative import starts from: the module's own when it is a package's __init__
    package = module.split(".") if package_init else module.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package[: len(package) - node.level + 1] if node.level else []
            start = ".".join([*parts, *([node.module] if node.module else [])])
            names.add(start)
            names.update(f"{start}.{alias.name}" for alias in node.names)
    return names


def test_a_relative_import_counts_as_the_module_it_names() -> None:
    found = imported_from(
        "from . import a\nfrom ..turn import b\nfrom .c import d\n", "webapp.players.records", False
    )
    assert {"webapp.players.a", "webapp.turn.b", "webapp.players.c.d"} <= found
    assert "webapp.players.e" in imported_from("from .e import f\n", "webapp.players", True)


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


def area_imports() -> dict[str, set[str]]:
    """Each area, and the other areas its modules import."""
    graph: dict[str, set[str]] = {area: set() for area in AREAS}
    for module in MODULES:
        area = area_of(module)
        if area:
            graph[area] |= {
                other for name in imported(module) if (other := area_of(name)) not in {None, area}
            }
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """Areas that import one another round a circle (empty when there is none)."""
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> list[str]:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return []
        for other in sorted(graph[node]):
            if found := walk(other, [*path, node]):
                return found
        done.add(node)
        return []

    for node in sorted(graph):
        if found := walk(node, []):
            return found
    return []


def test_the_cycle_check_finds_a_circle() -> None:
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert cycle_in({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_areas_import_one_way() -> None:
    assert cycle_in(area_imports()) == []


def drawing(graph: dict[str, set[str]]) -> str:
    """The map's drawing of the area imports (Mermaid, which GitHub draws; a list of arrows anywhere
    else): an arrow from each area to each area it imports."""
    arrows = [f"    {area} --> {other}" for area in sorted(graph) for other in sorted(graph[area])]
    return "\n".join(["```mermaid", "flowchart TB", *arrows, "```"])


def block_after(marker: str, text: str) -> str:
    """The lines that follow `<!-- marker ... -->` in the map, up to the first blank line."""
    found = re.search(rf"^<!-- {re.escape(marker)}\b.*?-->\n((?:.+\n?)*)", text, re.MULTILINE)
    assert found, f"docs/ARCHITECTURE.md has no <!-- {marker} --> block"
    return found.group(1).rstrip("\n")


def table_of(block: str) -> dict[str, set[str]]:
    """A table's first column (a name in backticks) and its last (names in backticks, or none)."""
    rows = [line.strip().strip("|").split("|") for line in block.splitlines()[2:] if line.startswith("|")]
    return {cells[0].strip().strip("`"): set(re.findall(r"`([^`]+)`", cells[-1])) for cells in rows}


def test_the_map_draws_the_area_imports_as_they_are() -> None:
    text = MAP.read_text(encoding="utf-8")
    expected = drawing(area_imports())
    assert block_after("area imports", text) == expected, f"draw them so:\n{expected}"


def test_the_map_tables_the_area_imports_as_they_are() -> None:
    table = table_of(block_after("area table", MAP.read_text(encoding="utf-8")))
    assert table == area_imports()


def test_the_map_names_every_module_of_each_area() -> None:
    """Each area's row of the map's module table names all its modules: a module added or renamed is
    drawn in the same change. (Infrastructure's table above is checked whole.)"""
    rows = {
        found.group(1): found.group(2)
        for found in re.finditer(r"^\| `(\w+)/` \|(.*)$", MAP.read_text(encoding="utf-8"), re.MULTILINE)
    }
    unnamed = {
        module
        for module in MODULES
        if (area := area_of(module)) and module != f"webapp.{area}"
        if f"`{module.rsplit('.', 1)[1]}`" not in rows.get(area, "")
    }
    assert unnamed == set()


def infrastructure_imports() -> dict[str, set[str]]:
    """Each infrastructure module (by its name in `webapp`), and the infrastructure modules it imports."""
    short = {module: module.removeprefix("webapp.") for module in INFRASTRUCTURE}
    return {
        short[module]: {short[name] for name in imported(module) & set(short)} for module in INFRASTRUCTURE
    }


def test_the_map_tables_how_infrastructure_imports_itself() -> None:
    table = table_of(block_after("infrastructure table", MAP.read_text(encoding="utf-8")))
    expected = infrastructure_imports()
    rows = "\n".join(
        f"| `{module}` | {', '.join(f'`{name}`' for name in sorted(names)) or 'none'} |"
        for module, names in sorted(expected.items())
    )
    assert table == expected, f"table them so:\n{rows}"


def test_the_map_checks_see_a_difference() -> None:
    text = (
        "<!-- area table: checked -->\n| area | owns | imports |\n|---|---|---|\n"
        "| `a` | x | `b`, `c` |\n| `b` | y | none |\n\nafter"
    )
    assert table_of(block_after("area table", text)) == {"a": {"b", "c"}, "b": set()}
    assert drawing({"a": {"b"}, "b": set()}).splitlines()[1:] == ["flowchart TB", "    a --> b", "```"]


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


def test_the_map_names_the_pure_modules() -> None:
    found = re.search(r"\*\*Pure modules\*\* \(([^)]*)\)", MAP.read_text(encoding="utf-8"))
    assert found, "docs/ARCHITECTURE.md lists no pure modules"
    named = {"webapp." + name.replace("/", ".") for name in re.findall(r"`([^`]+)`", found.group(1))}
    assert named == PURE


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


RENDERERS = ("webapp.turn.rendering", "webapp.analyser.rendering")
"""Modules that only draw: what a page shows is read, planned and solved before, by its view."""
FETCHING = ("sqlalchemy", "webapp.db", "webapp.solver_gate", "webapp.players.records", "webapp.players.crowd")
SOLVING = {"settle", "with_chain", "maximum", "analyse", "plan_steps", "progress"}
SOLVING |= {"key_ideas", "decisions_of"}
SOLVING |= {"settled", "whole", "answered", "best_of"}
"""The engine's solves and plans, and `analyser.solving`'s."""


def called_names(source: str) -> set[str]:
    """The names a module calls, `f(...)` or `x.f(...)`."""
    return {
        node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)
    }


@pytest.mark.parametrize("module", RENDERERS)
def test_renderers_query_plan_and_solve_nothing(module: str) -> None:
    fetched = {
        name for name in imported(module) if any(name == f or name.startswith(f + ".") for f in FETCHING)
    }
    assert not fetched
    assert not called_names(path_of(module).read_text()) & SOLVING


def test_the_renderers_check_sees_a_solve() -> None:
    assert called_names("solving.whole(p)\nplan_steps(p, q)\n") == {"whole", "plan_steps"}


INFRASTRUCTURE = [module for module in MODULES if area_of(module) is None]
"""Every module of `webapp` outside the areas, found in its files; not the app factory
(`webapp/__init__.py`), which registers every area."""


def test_infrastructure_is_every_module_outside_the_areas() -> None:
    assert {"webapp.settings", "webapp.db", "webapp.models", "webapp.caching", "webapp.pages"} <= set(
        INFRASTRUCTURE
    )
    assert all(module.count(".") == 1 for module in INFRASTRUCTURE), "a package besides the areas"
    assert len(INFRASTRUCTURE) + sum(1 for module in MODULES if area_of(module)) == len(MODULES)


@pytest.mark.parametrize("module", INFRASTRUCTURE)
def test_infrastructure_imports_no_area(module: str) -> None:
    assert not {name for name in imported(module) if area_of(name)}


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
    assert len(caching.CACHES) == 14
    for cache in caching.CACHES:
        # a shared cache (Redis) is bounded in time: every entry it puts expires
        assert cache.size > 0 or cache.name.endswith("(Redis)"), cache.name
        assert re.search(r"\d ms", cache.serves), cache.name
    assert len({cache.name for cache in caching.CACHES}) == len(caching.CACHES)


ROUTE_DECORATORS = {"get", "post", "put", "patch", "delete", "route"}
"""`@bp.get(...)` and its kin: what makes a function a view."""
ROUTE_WRAPPERS = {"turn_post"}
"""Decorators of the app's own that make a function a view (the turn's POST actions)."""


def is_route(function: ast.FunctionDef) -> bool:
    for decorator in function.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(called, ast.Attribute) and called.attr in ROUTE_DECORATORS:
            return True
        if isinstance(called, ast.Name) and called.id in ROUTE_WRAPPERS:
            return True
    return False


def request_hooks(tree: ast.Module) -> set[str]:
    """The functions a module registers as the app's request hooks (`app.before_request(hook)`)."""
    return {
        node.args[0].id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "before_request"
        and node.args
        and isinstance(node.args[0], ast.Name)
    }


def werkzeug_errors(tree: ast.Module) -> set[str]:
    """The names a module imports from `werkzeug.exceptions`."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "werkzeug.exceptions"
        for alias in node.names
    }


def http_errors_below_the_views(module: str, source: str) -> list[str]:
    """Where `module` calls `abort()` or raises one of Werkzeug's HTTP errors outside a view (a request
    hook, which answers in a view's stead, may raise one)."""
    tree = ast.parse(source)
    hooks = request_hooks(tree)
    raised = werkzeug_errors(tree)
    found: list[tuple[int, str]] = []
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or is_route(function):
            continue
        for node in ast.walk(function):
            # a view's inner functions are walked on their own too: a helper defined in a view is not one
            called = node.func if isinstance(node, ast.Call) else None
            name = (
                called.id
                if isinstance(called, ast.Name)
                else called.attr
                if isinstance(called, ast.Attribute)
                else None
            )
            if name == "abort":
                found.append((node.lineno, f"{module}:{node.lineno} abort() in {function.name}"))
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id in raised
                and function.name not in hooks
            ):
                what = f"raise {node.exc.func.id}"
                found.append((node.lineno, f"{module}:{node.lineno} {what} in {function.name}"))
    return [line for _, line in sorted(found)]


def test_only_a_view_calls_abort() -> None:
    """Code below the views raises a `Refusal`, which `errors.refused` answers; never `abort()`."""
    found = [
        line
        for module in MODULES
        if module != "webapp.errors"  # the handler turns Werkzeug's errors into replies
        for line in http_errors_below_the_views(module, path_of(module).read_text())
    ]
    assert found == []


def test_the_abort_check_sees_a_helper_and_spares_a_view() -> None:
    source = (
        "from werkzeug.exceptions import NotFound\n"
        "@bp.post('/x')\ndef view():\n    abort(400)\n    raise NotFound()\n\n"
        "@turn_post('/y')\ndef action(page):\n    flask.abort(400)\n\n"
        "def hook():\n    raise NotFound()\n\n"
        "def helper():\n    abort(404)\n    raise NotFound()\n\n"
        "app.before_request(hook)\n"
    )
    assert http_errors_below_the_views("m", source) == [
        "m:15 abort() in helper",
        "m:16 raise NotFound in helper",
    ]
