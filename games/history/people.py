"""Who sat at a list of tables and how each did, in a bounded number of queries.

`annotate(tables, user)` adds to every table: `people` (one dict per seat, in
seat order, with the account as a Person and its profile `url`), `opponents`
(the others than `user`), `my_result` (the user's Result row, finished tables
only) and `result_line` (the result in words from the user's side), and the
words and link of its row in a list (games.tables.selectors.list_words). Two
queries for any number of tables (one when none of them has ended).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.utils.translation import gettext as _

from accounts.models import public_name
from games.tables.models import Seat, SeatKind, Table
from games.tables.plugins import bot_level_label, installed_games
from games.tables.selectors import UrlOf, list_words

from . import results as words
from .models import Result


@dataclass(frozen=True, slots=True)
class Person:
    """What a list shows of a seated account: its username (for links) and public name."""

    pk: int
    username: str
    name: str


@dataclass(frozen=True, slots=True)
class ListedSeat(SeatKind):
    """The columns of a seat that lists draw (no model instance: a dashboard of 100
    tables spent a tenth of its time building Seat and User objects for them)."""

    position: int
    user_id: int | None
    user: Person | None
    bot_level: str
    taken_over: bool
    paused_at: datetime | None


def listed_seats(table_ids) -> dict[int, list[ListedSeat]]:
    """The seats of these tables, in seat order, by table id: one query."""
    seats_of: dict[int, list[ListedSeat]] = {pk: [] for pk in table_ids}
    for (table_id, position, user_id, bot_level, taken_over, paused_at, username, display_name,
         is_bot_account) in (Seat.objects.filter(table_id__in=list(table_ids))
                             .order_by("table_id", "position")
                             .values_list("table_id", "position", "user_id", "bot_level",
                                          "taken_over", "paused_at", "user__username",
                                          "user__display_name", "user__is_bot_account")):
        person = (Person(user_id, username, public_name(username, display_name, is_bot_account))
                  if user_id else None)
        seats_of[table_id].append(ListedSeat(position, user_id, person, bot_level, taken_over,
                                             paused_at))
    return seats_of


def seat_name(seat: Seat | ListedSeat, several_bots: bool, config=None) -> str:
    """The name a seat goes by in lists (like the table page's)."""
    if seat.user_id and seat.user is not None:
        return seat.user.name
    if seat.bot_level:
        level = bot_level_label(seat.bot_level, config)
        if several_bots:
            return _("Bot %(number)s (%(level)s)") % {"number": seat.position + 1, "level": level}
        return _("Bot (%(level)s)") % {"level": level}
    return _("Free seat")


def annotate(tables, user=None):
    """Add people, opponents and the user's result to each table; returns the tables."""
    tables = [t for t in tables if t is not None]
    unique = {t.pk: t for t in tables}
    if not unique:
        return tables
    configs = installed_games()
    seats_of = listed_seats(unique)
    results_of: dict[int, dict[int, Result]] = {pk: {} for pk in unique}
    # Results are written when a table ends: none to read for open or running ones.
    ended = [pk for pk, t in unique.items()
             if t.status not in (Table.Status.OPEN, Table.Status.RUNNING)]
    for row in Result.objects.filter(table_id__in=ended) if ended else ():
        results_of[row.table_id][row.position] = row
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    profile_url = UrlOf("history:profile", str)
    for table in tables:
        seats = seats_of.get(table.pk, [])
        rows = results_of.get(table.pk, {})
        several = sum(1 for s in seats if s.is_bot and not s.taken_over) > 1
        config = configs.get(table.game)
        names = {s.position: seat_name(s, several, config) for s in seats}
        say_score = score_words(config)
        people = []
        for seat in seats:
            row = rows.get(seat.position)
            people.append({
                "position": seat.position, "name": names[seat.position], "user": seat.user,
                # The person's profile link ("" for a bot or a free seat).
                "url": profile_url(seat.user.username) if seat.user_id else "",
                "is_bot": seat.is_bot and not seat.taken_over, "is_free": seat.is_free,
                "is_you": user_id is not None and seat.user_id == user_id,
                "result": row, "verdict": words.verdict(row, table.players) if row else "",
                "score": say_score(row.score) if row and row.score is not None else "",
            })
        table.people = people
        # The table waits for a player (a paused seat): read here for the list's mark.
        table.has_paused_seat = any(s.paused_at is not None for s in seats)
        table.opponents = [p for p in people if not p["is_you"] and not p["is_free"]]
        mine = next((rows.get(p["position"]) for p in people if p["is_you"]), None)
        table.my_result = mine
        winners = [names[pos] for pos, r in sorted(rows.items())
                   if r.outcome in (Result.Outcome.WON, Result.Outcome.SHARED)]
        table.winner_names = winners
        table.result_line = result_line(table, mine, names, list(rows.values()), say_score)
    list_words(unique.values())
    return tables


def score_words(config):
    """The game's own words for a final score (display.score_text), else "N points"."""
    display = config.display if config is not None else None
    return getattr(display, "score_text", None) or words.score_text


def result_line(table: Table, mine: Result | None, names: dict[int, str], rows: list[Result],
                say_score=words.score_text) -> str:
    """The result in words: from the player's side if they sat there, else the winners."""
    if not rows:
        return ""
    ended = words.how_it_ended(mine, names, rows) if mine else ""
    parts = []
    if mine is not None:
        parts.append(words.verdict(mine, table.players))
        if mine.place and mine.outcome != Result.Outcome.NONE:
            parts.append(_("place %(place)s of %(n)s") % {"place": mine.place, "n": table.players})
        if mine.score is not None:
            parts.append(say_score(mine.score))
    winners = [names.get(r.position, "?") for r in sorted(rows, key=lambda r: r.position)
               if r.outcome in (Result.Outcome.WON, Result.Outcome.SHARED)]
    if winners and (mine is None or mine.outcome == Result.Outcome.LOST):
        parts.append(_("winner: %(names)s") % {"names": ", ".join(winners)})
    if mine is None:
        first = next(iter(rows))
        if first.ended == Result.Ended.ABANDONED:
            parts.append(_("Abandoned: nobody moved for 30 days."))
    else:
        parts.append(ended)
    return " · ".join(p for p in parts if p)
