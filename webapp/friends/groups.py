"""Friends' groups in the database: made, joined by their link, left, their link revoked, and the
members' daily results read for the table.

A group's keeper, who may revoke its link, is its earliest member still in it: the maker, then, when
they leave, the member who joined after them. A group nobody is left in is deleted with its links.
"""

from __future__ import annotations

import secrets
import unicodedata
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from puzzles import words
from webapp.errors import Refusal
from webapp.friends.table import Member, Result
from webapp.models import Daily, FriendGroup, FriendLink, FriendMember, PlayerAttempt
from webapp.schedule.days import Calendar

NAME_MOST = 24
GROUP_NAME_MOST = 40
TOKEN_BYTES = 32
"""256 random bits: a link nobody can guess."""


def tidy_name(text: str, most: int) -> str:
    """A name as typed, made one way (Unicode NFC, spaces collapsed); refused (422) when empty,
    longer than `most` characters or holding control or formatting characters."""
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise Refusal(words("Type a name: it may not be empty."), 422)
    if len(name) > most:
        raise Refusal(words("That name is too long: at most %(most)s characters.", most=most), 422)
    if any(unicodedata.category(character).startswith("C") for character in name):
        raise Refusal(words("A name may not hold control or invisible characters."), 422)
    return name


def _new_link(session: Session, group: FriendGroup, moment: datetime) -> FriendLink:
    link = FriendLink(token=secrets.token_urlsafe(TOKEN_BYTES), group_id=group.id, created=moment)
    session.add(link)
    return link


def _check_room(session: Session, player: str) -> None:
    most = int(current_app.config["FRIENDS_GROUPS_MOST"])
    held = session.scalar(select(func.count()).where(FriendMember.player_id == player)) or 0
    if held >= most:
        raise Refusal(words("You are at %(most)s friends' tables already: leave one first.", most=most), 409)


def make(session: Session, player: str, group_name: str, name: str, moment: datetime) -> FriendGroup:
    """A new group with the player as its first member (its keeper) and a link to share."""
    group_name, name = tidy_name(group_name, GROUP_NAME_MOST), tidy_name(name, NAME_MOST)
    _check_room(session, player)
    group = FriendGroup(name=group_name, created=moment)
    session.add(group)
    session.flush()
    session.add(
        FriendMember(group_id=group.id, player_id=player, name=name, name_key=name.casefold(), joined=moment)
    )
    _new_link(session, group, moment)
    session.flush()
    return group


def by_token(session: Session, token: str) -> FriendGroup:
    """The group a link names; 404 for a link that never was, 410 for one its keeper revoked."""
    link = session.get(FriendLink, token[:64]) if token else None
    if link is None:
        raise Refusal(words("This friends' table link is not valid: check that it was copied whole."), 404)
    if link.revoked is not None:
        raise Refusal(
            words(
                "This friends' table link is no longer valid: its keeper replaced it. Ask for the new one."
            ),
            410,
        )
    return session.get_one(FriendGroup, link.group_id)


def link_of(session: Session, group_id: int) -> str:
    """The group's link token now."""
    token = session.scalar(
        select(FriendLink.token).where(FriendLink.group_id == group_id, FriendLink.revoked.is_(None))
    )
    assert token is not None, "a group always has one live link"
    return token


def member(session: Session, group_id: int, player: str | None) -> FriendMember | None:
    if player is None:
        return None
    return session.scalar(
        select(FriendMember).where(FriendMember.group_id == group_id, FriendMember.player_id == player)
    )


def members(session: Session, group_id: int) -> list[FriendMember]:
    """The group's members, earliest first: the first is the keeper."""
    return list(
        session.scalars(
            select(FriendMember).where(FriendMember.group_id == group_id).order_by(FriendMember.id)
        )
    )


def join(session: Session, group: FriendGroup, player: str, name: str, moment: datetime) -> None:
    """The player joins under `name` (409 when another member has it, or the group is full)."""
    name = tidy_name(name, NAME_MOST)
    if member(session, group.id, player) is not None:
        return
    _check_room(session, player)
    most = int(current_app.config["FRIENDS_MEMBERS_MOST"])
    if len(members(session, group.id)) >= most:
        raise Refusal(words("This friends' table is full: it has %(most)s members.", most=most), 409)
    _check_name_free(session, group.id, name, player)
    session.add(
        FriendMember(group_id=group.id, player_id=player, name=name, name_key=name.casefold(), joined=moment)
    )
    session.flush()


def _check_name_free(session: Session, group_id: int, name: str, player: str) -> None:
    """409 when another member of the group has this name, whatever its case."""
    holder = session.scalar(
        select(FriendMember.player_id).where(
            FriendMember.group_id == group_id, FriendMember.name_key == name.casefold()
        )
    )
    if holder is not None and holder != player:
        raise Refusal(
            words("Someone at this table is called %(name)s already: pick another name.", name=name), 409
        )


def rename(session: Session, group_id: int, player: str, name: str) -> None:
    """The member takes another name at this table (checked as when joining)."""
    name = tidy_name(name, NAME_MOST)
    _check_name_free(session, group_id, name, player)
    row = member(session, group_id, player)
    assert row is not None, "only a member renames"
    row.name, row.name_key = name, name.casefold()
    session.flush()


def leave(session: Session, group_id: int, player: str) -> None:
    """The player leaves the group, and their name with them; the last to leave deletes it."""
    session.execute(
        delete(FriendMember).where(FriendMember.group_id == group_id, FriendMember.player_id == player)
    )
    if not members(session, group_id):
        session.execute(delete(FriendLink).where(FriendLink.group_id == group_id))
        session.execute(delete(FriendGroup).where(FriendGroup.id == group_id))


def revoke(session: Session, group_id: int, player: str, moment: datetime) -> None:
    """The keeper replaces the group's link: the old one says it is no longer valid (403 for others)."""
    everyone = members(session, group_id)
    if not everyone or everyone[0].player_id != player:
        raise Refusal(words("Only the table's keeper (its earliest member) can replace its link."), 403)
    for link in session.scalars(
        select(FriendLink).where(FriendLink.group_id == group_id, FriendLink.revoked.is_(None))
    ):
        link.revoked = moment
    group = session.get_one(FriendGroup, group_id)
    _new_link(session, group, moment)
    session.flush()


def groups_of(session: Session, player: str | None) -> list[tuple[FriendGroup, FriendMember, int]]:
    """The player's groups, each with their membership and how many members it has, oldest first."""
    if player is None:
        return []
    counts = (
        select(FriendMember.group_id, func.count().label("size")).group_by(FriendMember.group_id).subquery()
    )
    rows = session.execute(
        select(FriendGroup, FriendMember, counts.c.size)
        .join(FriendMember, FriendMember.group_id == FriendGroup.id)
        .join(counts, counts.c.group_id == FriendGroup.id)
        .where(FriendMember.player_id == player)
        .order_by(FriendMember.id)
    )
    return [(group, membership, int(size)) for group, membership, size in rows]


def results(
    session: Session, players: list[str], numbers: tuple[int, ...], dates: Calendar
) -> dict[str, dict[int, Result]]:
    """The players' attempts at these daily puzzles begun while the puzzle was open (an archive play
    of a closed one is not the daily), by player and number."""
    found: dict[str, dict[int, Result]] = {player: {} for player in players}
    if not players or not numbers:
        return found
    rows = session.scalars(
        select(PlayerAttempt).where(PlayerAttempt.player_id.in_(players), PlayerAttempt.number.in_(numbers))
    )
    for attempt in rows:
        number = attempt.number
        if number is None or attempt.started >= dates.closes(number):
            continue
        time = attempt.finished - attempt.started if attempt.finished is not None else timedelta(0)
        found[attempt.player_id][number] = Result(
            number,
            attempt.status,
            attempt.placed,
            attempt.puzzle.max_placed,
            attempt.moves,
            attempt.hints,
            attempt.slips,
            time,
        )
    return found


def table_members(
    session: Session,
    group_id: int,
    viewer: str,
    numbers: tuple[int, ...],
    dates: Calendar,
    streaks: dict[str, int],
) -> list[Member]:
    """The group's members with their results, for `table.table`."""
    everyone = members(session, group_id)
    found = results(session, [row.player_id for row in everyone], numbers, dates)
    return [
        Member(row.name, row.player_id == viewer, streaks.get(row.player_id, 0), found[row.player_id])
        for row in everyone
    ]


def first_daily(session: Session) -> int:
    """The number of the site's first daily puzzle (1 on a site started on Tavolo's launch day)."""
    return session.scalar(select(func.min(Daily.number))) or 1
