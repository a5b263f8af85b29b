"""The players' pages: the stats page, transfer codes (how a player takes their record to another
browser), and a player's own data: `/me/export.json` to download it, `/me/forget` to erase it."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from generator import THEMES
from webapp import db, models
from webapp.errors import Refusal
from webapp.players import bests, privacy, records, summary, transfer
from webapp.players.identity import PLAYER_KEY, current_player_id
from webapp.players.page_cost import costly, export_rate_limit, player_key
from webapp.review import queue
from webapp.schedule.clock import calendar, now, player_zone_name
from webapp.schedule.days import zone
from webapp.security import limiter, transfer_rate_limit
from webapp.wording import gettext, ngettext, say

bp = Blueprint("players", __name__)


@bp.get("/stats")
@costly
def stats_page() -> tuple[str, int]:
    return _render(), 200


def _render(adopt_error: str | None = None, typed: str = "") -> str:
    player = current_player_id()
    moment = now()
    tz = zone(player_zone_name())
    today = moment.astimezone(tz).date()
    reader = db.session()
    stats = summary.stats(reader, player, calendar(), moment, today, tz)
    code = transfer.active(reader, player, moment) if player else None
    return render_template(
        "stats.html",
        stats=stats,
        review=queue.counts(reader, player, moment, tz),
        theme_rates=records.theme_rates(reader, player),
        run_bests=bests.run_bests(reader, player),
        themes=THEMES,
        code=transfer.shown(code.code) if code else None,
        has_record=transfer.has_record(reader, player),
        adopt_error=adopt_error,
        typed=typed,
    )


@bp.post("/stats/code")
@limiter.limit(transfer_rate_limit)
def issue_code() -> Response:
    """Show this player's transfer code, made now if they have none."""
    player = current_player_id()
    with db.write() as writer:
        if not transfer.has_record(writer, player):
            abort(409, description=gettext("Play a puzzle first: there is no record to move yet."))
        assert player is not None, "a record has a player"
        transfer.issue(writer, player, now())
    return redirect(url_for("players.stats_page", _anchor="transfer"), 303)


@bp.post("/stats/adopt")
@limiter.limit(transfer_rate_limit)
def adopt() -> Response | tuple[str, int]:
    """Become the player a code names. When this browser has a record of its own, say first what
    happens to it, and go on only once the player confirms."""
    current = current_player_id()
    try:
        code = transfer.normalise(request.form.get("code", ""))
        with db.write() as writer:
            if request.form.get("confirm") != "yes" and transfer.has_record(writer, current):
                row = transfer.check(writer, code, current, now())
                moment = now()
                mine = summary.stats(writer, current, calendar(), moment, moment.date())
                theirs = summary.stats(writer, row.player_id, calendar(), moment, moment.date())
                return render_template("adopt.html", code=transfer.shown(code), mine=mine, theirs=theirs), 200
            adoption = transfer.adopt(writer, code, current, now())
    except transfer.TransferError as error:
        return _render(say(error.why), request.form.get("code", "")[:20]), 422
    session[PLAYER_KEY] = adoption.player
    session.permanent = True
    if adoption.left_behind:
        flash(
            gettext(
                "This browser now plays as the player of that code. Its own record was not merged: it is"
                " kept apart under the code %(code)s, which brings it back here or anywhere else.",
                code=transfer.shown(adoption.left_behind),
            )
        )
    else:
        flash(gettext("This browser now plays as the player of that code."))
    return redirect(url_for("players.stats_page"), 303)


# -- a player's own data: download it, erase it


def _later_part() -> bool:
    """An export's part after the first: the download's own limit counts the first part only (each
    part is bounded; the pages' limits and CPU seconds count them all)."""
    return request.args.get("part", "1") != "1"


@bp.get("/me/export.json")
@limiter.limit(export_rate_limit, key_func=player_key, exempt_when=_later_part)
@costly
def export_record() -> Response:
    """Everything the site keeps about this browser's player, as JSON files to download: one for most
    players, and `?part=2` and on for a long record (`EXPORT_PAGE_SIZE` attempts and runs a part),
    each naming the next."""
    player = current_player_id()
    reader = db.session()
    if player is None or reader.get(models.Player, player) is None:
        abort(404, description=gettext("This browser has no record on Tavolo: there is nothing to download."))
    size = int(current_app.config["EXPORT_PAGE_SIZE"])
    of = privacy.parts(reader, player, size)
    part = _part_asked(of)
    record = privacy.export(reader, player, calendar(), now(), part, size)
    following = url_for("players.export_record", part=part + 1, _external=True) if part < of else None
    response = jsonify({"part": {"number": part, "of": of, "next": following}, **record})
    name = "tavolo-record.json" if of == 1 else f"tavolo-record-{part}-of-{of}.json"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    response.headers["Cache-Control"] = "no-store"
    return response


def _part_asked(of: int) -> int:
    """The part `?part=` asks for (the first without it): a 400 for anything but a whole number, a
    404 past the last."""
    text = request.args.get("part", "1")
    # one spelling of each number: `01` would be the first part, counted as a later one
    if not text.isascii() or not text.isdigit() or len(text) > 6 or text != str(int(text)) or text == "0":
        raise Refusal(gettext("The part must be a whole number from 1."), 400)
    if int(text) > of:
        raise Refusal(
            ngettext(
                "Your record has %(num)d part: there is no part %(part)s.",
                "Your record has %(num)d parts: there is no part %(part)s.",
                of,
                part=text,
            ),
            404,
        )
    return int(text)


@bp.get("/me/forget")
def forget_page() -> str:
    return render_template("forget.html", has_record=_has_player(), parts=_parts(), error=None)


def _parts() -> int:
    """How many files the player's export is (two counts in the database)."""
    player = current_player_id()
    if player is None:
        return 1
    return privacy.parts(db.session(), player, int(current_app.config["EXPORT_PAGE_SIZE"]))


@bp.post("/me/forget")
def forget() -> Response | tuple[str, int]:
    """Erase this browser's record, once the player has typed the word that confirms it."""
    player = current_player_id()
    # the word is the page's own, in the player's language; the English one is understood everywhere
    if request.form.get("confirm", "").strip().lower() not in {"erase", gettext("erase").lower()}:
        error = gettext("Type %(word)s in the box to confirm: nothing was erased.", word=gettext("erase"))
        return render_template("forget.html", has_record=_has_player(), parts=_parts(), error=error), 422
    if player is not None:
        with db.write() as writer:
            privacy.forget(writer, player)
    session.clear()
    flash(
        gettext(
            "Your record is erased: attempts, streak, rating and transfer codes. This browser starts afresh."
        )
    )
    return redirect(url_for("players.stats_page"), 303)


def _has_player() -> bool:
    player = current_player_id()
    return player is not None and db.session().get(models.Player, player) is not None
