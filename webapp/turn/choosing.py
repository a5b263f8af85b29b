"""The home page, `/` (`today`: today's puzzle), and the other pages that pick a puzzle: the archive
list, practice's chooser, and the player's review (`/review`: what comes back today and later).

The puzzle itself is then played on the turn blueprint's pages (`webapp.turn.views`); today's page is
its daily page for the player's own day.
"""

from __future__ import annotations

import random
from datetime import datetime
from zoneinfo import ZoneInfo

from flask import Blueprint, abort, current_app, make_response, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from generator import THEMES, TIERS
from puzzles import PRESETS
from webapp import db
from webapp.client_input import small_number
from webapp.models import TIER_RATINGS
from webapp.players.identity import current_player_id
from webapp.players.records import player_rating
from webapp.review import queue
from webapp.schedule import practice
from webapp.schedule.clock import calendar, now, player_zone_name
from webapp.schedule.days import zone
from webapp.templating import sessionless
from webapp.turn import actions, archive
from webapp.turn.modes import daily_page
from webapp.turn.rendering import kept_newcomer_page, render_turn
from webapp.turn.result import around
from webapp.wording import gettext, list_words, rules_title, tier_name

bp = Blueprint("choosing", __name__)

SHARED_PAGE_SECONDS = 10
"""How long today's page for a visitor without a session may be kept whole and served to every such
visitor (in one language), by nginx (`X-Accel-Expires`) and by each process (`webapp.kept_answers`);
never past the visitor's midnight, so the next day's puzzle shows from its first second."""


@bp.get("/")
def today() -> Response | tuple[str, int]:
    moment, day_zone = now(), zone(player_zone_name())
    number = calendar().today(moment, day_zone)
    if number < 1:
        return render_template("soon.html", launch=calendar().launch), 200
    tokenless = sessionless()
    kept = kept_newcomer_page(number, tokenless)
    if kept is not None:
        return _shared(kept, tokenless, moment, day_zone)
    page = daily_page(number, is_today=True)
    turn = actions.look(page)
    answer = render_turn(page, turn, around(page, turn), tokenless)
    return _shared(answer[0], tokenless, moment, day_zone) if tokenless else answer


def _shared(page: str, tokenless: bool, moment: datetime, day_zone: ZoneInfo) -> Response | tuple[str, int]:
    """Today's page, marked for keeping whole when it carries no token (`tokenless`): browsers ask
    again every time (it is no longer theirs once they have a session), nginx and the process keep it
    until `SHARED_PAGE_SECONDS` or the day's end, whichever comes first."""
    if not tokenless:
        return page, 200
    response = make_response(page)
    response.headers["Cache-Control"] = "no-cache"
    left = int((calendar().next_day_starts(moment, day_zone) - moment).total_seconds())
    if (seconds := min(SHARED_PAGE_SECONDS, left)) > 0:
        response.headers["X-Accel-Expires"] = str(seconds)
    return response


@bp.get("/archive")
def archive_list() -> str:
    before = small_number(request.args.get("before", ""), 6)
    today = calendar().today(now(), zone(player_zone_name()))
    entries, older = archive.entries(db.session(), current_player_id(), calendar(), now(), today, before)
    return render_template("archive.html", entries=entries, older=older, launch=calendar().launch)


@bp.get("/practice")
def practice_page() -> tuple[str, int]:
    return _practice(), 200


def _practice(message: str | None = None, rules: str | None = None) -> str:
    reader = db.session()
    player = current_player_id()
    offer = practice.offered(reader, player, current_app.config["PRACTICE_POOL"])
    rules = rules or request.args.get("rules", "classic")
    rules = rules if rules in PRESETS else "classic"
    theme = request.args.get("theme", "")
    theme = theme if theme in offer.themes(rules) else ""
    return render_template(
        "practice.html",
        presets=[name for name in PRESETS if offer.of(name)] or list(PRESETS),
        tiers=TIERS,
        themes=THEMES,
        offer=offer,
        theme=theme,
        rules=rules,
        rating=player_rating(reader, player),
        unfinished=practice.unfinished(reader, player),
        message=message,
    )


@bp.get("/practice/next")
def next_practice() -> Response | tuple[str, int]:
    """A practice puzzle the player has not played, of the preset and the tier (or `rating`) asked, and
    of the theme if one is asked."""
    rules, tier = request.args.get("rules", "classic"), request.args.get("tier", "rating")
    theme = request.args.get("theme") or None
    if (unknown := _unknown_asked(rules, tier, theme)) is not None:
        abort(400, description=unknown)
    reader = db.session()
    player = current_player_id()
    near = (player_rating(reader, player) or TIER_RATINGS["hard"]) if tier == "rating" else None
    found = practice.choose(
        reader, player, rules, None if tier == "rating" else tier, near, random.Random(), theme
    )
    if found is None:
        offer = practice.offered(reader, player, current_app.config["PRACTICE_POOL"])
        return _practice(_none_ready(rules, tier, theme, offer), rules), 404
    return redirect(url_for("practice.puzzle", code=found.code), 303)


def _unknown_asked(rules: str, tier: str, theme: str | None) -> str | None:
    """Why a theme, preset or tier asked for does not exist, or None when all do."""
    if theme is not None and theme not in THEMES:
        return gettext(
            "unknown theme %(theme)s: one of %(known)s", theme=repr(theme[:30]), known=", ".join(THEMES)
        )
    if rules not in PRESETS:
        return gettext(
            "unknown rules %(rules)s: one of %(known)s", rules=repr(rules[:30]), known=", ".join(PRESETS)
        )
    if tier != "rating" and tier not in TIERS:
        return gettext(
            "unknown tier %(tier)s: one of %(known)s, or rating", tier=repr(tier[:30]), known=", ".join(TIERS)
        )
    return None


def _none_ready(rules: str, tier: str, theme: str | None, offer: practice.Offer) -> str:
    """The message for a choice that has no puzzle left for the player, naming what was asked and,
    for a theme, the tiers that have one; "topped up" only for what the clock's job fills."""
    wanted = [rules_title(rules)]
    if tier != "rating":
        wanted.insert(0, tier_name(tier))
    if theme is not None:
        wanted.append(gettext(THEMES[theme].title))
        tiers = offer.of(rules, theme)
        if tiers:
            return gettext(
                "No puzzle of this theme you have not played at this tier (%(wanted)s). "
                "It has some at: %(tiers)s.",
                wanted=", ".join(wanted),
                tiers=list_words([tier_name(each) for each in tiers]),
            )
        return gettext(
            "No puzzle of this theme you have not played in these rules (%(wanted)s). Try another theme.",
            wanted=", ".join(wanted),
        )
    if current_app.config["PRACTICE_POOL"].get(rules, 0) > 0:
        return gettext(
            "No puzzle you have not played is ready (%(wanted)s): the pool is being topped up. "
            "Try another tier.",
            wanted=", ".join(wanted),
        )
    return gettext(
        "No puzzle you have not played is left (%(wanted)s). Try another tier.", wanted=", ".join(wanted)
    )


@bp.get("/review")
def review_page() -> str:
    tz = zone(player_zone_name())
    today = now().astimezone(tz).date()
    return render_template("review.html", review=queue.review(db.session(), current_player_id(), today, tz))


@bp.get("/review/next")
def next_review() -> Response:
    """The first puzzle due for review, or the review page when none is."""
    tz = zone(player_zone_name())
    due = queue.review(db.session(), current_player_id(), now().astimezone(tz).date(), tz).due
    if not due:
        return redirect(url_for("choosing.review_page"), 303)
    return redirect(url_for("review.puzzle", code=due[0].puzzle.code), 303)
