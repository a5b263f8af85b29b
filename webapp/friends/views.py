"""The friends' tables' pages: `/friends` (your tables, and making one), a table's page, joining by
its link, renaming yourself, leaving, and the keeper replacing the link. Every POST carries the CSRF
token and counts against `FRIENDS_RATE_LIMIT`."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from webapp import db
from webapp.errors import Refusal
from webapp.friends import groups, table
from webapp.models import FriendGroup
from webapp.players import records
from webapp.players.identity import current_player_id, ensure_player
from webapp.players.page_cost import costly
from webapp.schedule.clock import calendar, now, player_zone_name
from webapp.schedule.days import zone
from webapp.security import friends_rate_limit, limiter
from webapp.wording import gettext, say

bp = Blueprint("friends", __name__, url_prefix="/friends")


@bp.get("")
@costly
def tables_page() -> tuple[str, int]:
    return _tables(), 200


def _tables(error: str | None = None, typed: tuple[str, str] = ("", "")) -> str:
    return render_template(
        "friends.html", tables=groups.groups_of(db.session(), current_player_id()), error=error, typed=typed
    )


@bp.post("")
@limiter.limit(friends_rate_limit)
def make_table() -> Response | tuple[str, int]:
    group_name, name = request.form.get("table", ""), request.form.get("name", "")
    try:
        with db.write() as writer:
            group = groups.make(writer, ensure_player(writer), group_name, name, now())
            group_id = group.id
    except Refusal as refusal:
        return _tables(str(say(refusal.why)), (group_name[:60], name[:40])), refusal.status
    return redirect(url_for("friends.table_page", group_id=group_id), 303)


def _own_group(group_id: int) -> FriendGroup:
    """The group, if this browser's player is at it: a 404 for anyone else, as for no group at all."""
    reader = db.session()
    group = db.row_by_id(reader, FriendGroup, group_id)
    if group is None or groups.member(reader, group_id, current_player_id()) is None:
        raise Refusal(gettext("You are not at this friends' table (or it no longer exists)."), 404)
    return group


@bp.get("/<int:group_id>")
@costly
def table_page(group_id: int) -> str:
    return _table(group_id)


def _table(group_id: int, error: str | None = None, typed: str | None = None) -> str:
    group = _own_group(group_id)
    player = current_player_id()
    assert player is not None
    reader = db.session()
    dates, moment = calendar(), now()
    today = dates.today(moment, zone(player_zone_name()))
    everyone = groups.members(reader, group_id)
    found = records.player_streaks(reader, [row.player_id for row in everyone], dates, moment)
    streaks = {player: streak.current for player, streak in found.items()}
    first = groups.first_daily(reader)
    numbers = table.week_numbers(today, first)
    members = groups.table_members(reader, group_id, player, numbers, dates, streaks)
    finished = records.finished_numbers(reader, player, numbers)
    return render_template(
        "friends_table.html",
        group=group,
        shown=table.table(members, today, finished, first),
        keeper=everyone[0].player_id == player,
        you=next(row for row in everyone if row.player_id == player),
        link=url_for("friends.join_page", token=groups.link_of(reader, group_id), _external=True),
        time_face=table.time_face,
        Mark=table.Mark,
        error=error,
        typed=typed,
    )


@bp.get("/join/<token>")
def join_page(token: str) -> Response | tuple[str, int]:
    reader = db.session()
    group = groups.by_token(reader, token)
    if groups.member(reader, group.id, current_player_id()) is not None:
        return redirect(url_for("friends.table_page", group_id=group.id), 303)
    return _join(group, token), 200


def _join(group: FriendGroup, token: str, error: str | None = None, typed: str = "") -> str:
    return render_template(
        "friends_join.html",
        group=group,
        token=token,
        size=len(groups.members(db.session(), group.id)),
        error=error,
        typed=typed,
    )


@bp.post("/join/<token>")
@limiter.limit(friends_rate_limit)
def join(token: str) -> Response | tuple[str, int]:
    name = request.form.get("name", "")
    group = groups.by_token(db.session(), token)
    try:
        with db.write() as writer:
            groups.join(writer, writer.get_one(FriendGroup, group.id), ensure_player(writer), name, now())
    except Refusal as refusal:
        return _join(group, token, str(say(refusal.why)), name[:40]), refusal.status
    return redirect(url_for("friends.table_page", group_id=group.id), 303)


@bp.post("/<int:group_id>/name")
@limiter.limit(friends_rate_limit)
def rename(group_id: int) -> Response | tuple[str, int]:
    _own_group(group_id)
    player = current_player_id()
    assert player is not None
    name = request.form.get("name", "")
    try:
        with db.write() as writer:
            groups.rename(writer, group_id, player, name)
    except Refusal as refusal:
        return _table(group_id, str(say(refusal.why)), name[:40]), refusal.status
    return redirect(url_for("friends.table_page", group_id=group_id, _anchor="you"), 303)


@bp.post("/<int:group_id>/leave")
@limiter.limit(friends_rate_limit)
def leave(group_id: int) -> Response:
    _own_group(group_id)
    player = current_player_id()
    assert player is not None
    with db.write() as writer:
        groups.leave(writer, group_id, player)
    return redirect(url_for("friends.tables_page"), 303)


@bp.post("/<int:group_id>/revoke")
@limiter.limit(friends_rate_limit)
def revoke(group_id: int) -> Response:
    _own_group(group_id)
    player = current_player_id()
    assert player is not None
    with db.write() as writer:
        groups.revoke(writer, group_id, player, now())
    return redirect(url_for("friends.table_page", group_id=group_id, _anchor="link"), 303)
