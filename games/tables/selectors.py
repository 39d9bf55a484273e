"""Reads: a table's state, a viewer's view, the lists on the home page."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any
from urllib.parse import quote

from django.db.models import Prefetch, Q, prefetch_related_objects
from django.urls import reverse
from django.utils import timezone
from django.utils.http import RFC3986_SUBDELIMS
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import get_rules

from . import clocks
from .models import Seat, Table, TableEvent
from .plugins import bot_level_label, game_config
from .replay import current_state


@dataclass
class Viewer:
    """Who is looking: a user with a seat, a user without one, or anonymous."""

    user: Any = None
    seat: int | None = None


@dataclass
class TableView:
    """Everything the table page draws, for one viewer, built from the view only."""

    table: Table
    viewer: Viewer
    view: dict | None
    seats: list[dict]
    moves: list[dict] = field(default_factory=list)
    log: list[dict] = field(default_factory=list)
    outcome: dict | None = None
    board_template: str = ""
    game_name: str = ""

    @property
    def waiting_on(self) -> list[str]:
        """Names of the seats that owe a decision now."""
        return [row["name"] for row in self.seats if row["to_move"]]
    notices: list[str] = field(default_factory=list)
    time_control: str = ""
    reclaimable: bool = False
    viewer_muted: bool = False
    board_controls: bool = False
    screen_reader_moves: bool = False
    # The log holds entries numbered log_total - len(log) + 1 .. log_total (1-based "n").
    log_total: int = 0

    @property
    def log_hidden(self) -> int:
        """How many earlier entries are not in `log` (the page shows the latest only)."""
        return self.log_total - len(self.log)


def memo(table: Table, what: str, make):
    """`make()` once per table object and seq: the renders of every view of one change
    (a push drawn for each seat and the spectators) share one read. A later seq on the
    same object (refresh_from_db) reads again."""
    memos = table.__dict__.setdefault("_memos", {})
    key = (what, table.seq)
    if key not in memos:
        memos[key] = make()
    return memos[key]


def table_state(table: Table) -> Any:
    """The table's current game state (None before the start)."""
    return current_state(table)


def seats_of(table: Table) -> list[Seat]:
    """The table's seats with their users, read once per table object and reused."""
    prefetch_related_objects([table], Prefetch(
        "seats", queryset=Seat.objects.select_related("user").order_by("position")))
    return sorted(table.seats.all(), key=lambda s: s.position)


def viewer_for(table: Table, user) -> Viewer:
    """The viewer: which seat (if any) `user` plays at `table`."""
    if user is None or not user.is_authenticated:
        return Viewer()
    seat = next((s.position for s in seats_of(table) if s.user_id == user.pk), None)
    return Viewer(user=user, seat=seat if table.status != Table.Status.OPEN else None)


def seat_rows(table: Table, viewer: Viewer) -> list[dict]:
    """Seats as the page shows them: names, bots (by the game's own level names), who is to move."""
    config = game_config(table.game)
    rows = []
    seats = seats_of(table)
    periods = memo(table, "vacations", lambda: clocks.vacation_periods_of(
        [s.user_id for s in seats if s.user_id]))
    now = timezone.now()
    away = {uid for uid, spans in periods.items() if any(a <= now < b for a, b in spans)}
    several_bots = sum(1 for s in seats if s.is_bot and not s.taken_over) > 1
    for seat in seats:
        if seat.taken_over and seat.user:
            name = _("%(name)s (a bot plays)") % {"name": seat.user.name}
        elif seat.is_bot and several_bots:
            # Several bots at one table: the seat number tells them apart in the log.
            name = _("Bot %(number)s (%(level)s)") % {
                "number": seat.position + 1, "level": bot_level_label(seat.bot_level, config)}
        elif seat.is_bot:
            name = _("Bot (%(level)s)") % {"level": bot_level_label(seat.bot_level, config)}
        elif seat.user:
            name = seat.user.name
        else:
            name = _("Free seat")
        rows.append({
            "position": seat.position, "name": name, "is_bot": seat.is_bot,
            "is_free": seat.is_free, "is_you": viewer.user is not None and seat.user_id == viewer.user.pk,
            "to_move": seat.position in (table.to_move or []), "resigned": seat.resigned,
            "owes_since": seat.owes_since, "user": seat.user,
            "on_vacation": seat.user_id in away, "taken_over": seat.taken_over,
            "muted": seat.muted, "paused": seat.paused_at is not None,
            "deadline": clocks.seat_deadline(seat, periods.get(seat.user_id, []))
            if seat.position in (table.to_move or []) else None,
        })
    return rows


NOTICE_KINDS = ("takeover", "reclaim", "timeout", "abandon", "pause")


def notice_line(event: TableEvent, names: list[str]) -> str:
    """The public line of one framework event (a takeover, a return, a timeout, an abandon)."""
    name = names[event.seat] if event.seat is not None and 0 <= event.seat < len(names) else "?"
    if event.kind == "takeover":
        return _("%(name)s ran out of time: a bot plays the seat until they return.") % {
            "name": name}
    if event.kind == "reclaim":
        return _("%(name)s is back and plays their seat again.") % {"name": name}
    if event.kind == "pause":
        return _("%(name)s ran out of time. Nobody else plays here, so no bot plays "
                 "for them: the table waits for them.") % {"name": name}
    if event.kind == "timeout":
        return _("%(name)s ran out of time and left the game.") % {"name": name}
    return _("Nobody moved for 30 days before the table started: it was abandoned.")


def table_notices(table: Table, names: list[str]) -> list[str]:
    """Public lines about the table itself (not the game): bots taking over seats, timeouts."""
    events = memo(table, "notices", lambda: list(
        table.events.filter(kind__in=NOTICE_KINDS).order_by("seq")))
    return [notice_line(event, names) for event in events]


def table_view_for(table: Table, viewer: Viewer, *, log_after: int = 0,
                   log_last: int | None = None) -> TableView:
    """The table page's data for `viewer`, drawn from `rules.view(state, seat)` only.

    Only log entries numbered above `log_after` (and at most the `log_last`
    latest) are put into words: a page shows the latest, a push only new ones.
    """
    config = game_config(table.game)
    rules = get_rules(table.game)
    seats = seat_rows(table, viewer)
    result = TableView(table=table, viewer=viewer, view=None, seats=seats,
                       board_template=config.template, game_name=_(rules.name),
                       outcome=table.outcome, board_controls=config.board_controls,
                       screen_reader_moves=config.screen_reader_moves)
    result.time_control = clocks.describe(table.time_control or {})
    result.reclaimable = any(row["is_you"] and row["taken_over"] for row in seats)
    result.viewer_muted = any(row["is_you"] and row["muted"] for row in seats)
    state = current_state(table) if table.status != Table.Status.OPEN else None
    if state is None:
        return result
    result.notices = table_notices(table, [row["name"] for row in seats])
    view = rules.view(state, viewer.seat)
    result.view = view
    names = [row["name"] for row in seats]
    entries = view.get("log", [])
    result.log_total = len(entries)
    start = max(log_after, 0, len(entries) - log_last if log_last is not None else 0)
    result.log = [{"text": config.log_line(entry, view, names), "entry": entry, "n": n}
                  for n, entry in enumerate(entries[start:], start + 1)]
    if viewer.seat is not None and table.status == Table.Status.RUNNING:
        result.moves = [config.move_entry(move, view, names)
                        for move in rules.legal_moves(state, viewer.seat)]
    return result


# Lists of tables never draw a game state: the snapshot (tens of KB of JSON late in a
# game, decoded on every row) stays in the database. A dashboard of 100 tables spent
# most of its time decoding them.
LIST_DEFER = ("snapshot",)


WAITING = Q(owes_since__isnull=False, bot_level="", table__status=Table.Status.RUNNING)


def turns_waiting_on(user) -> list[dict]:
    """Running tables where `user` owes a decision, most urgent deadline first.

    Each item: table, seat and deadline (vacations included; None without a clock).
    """
    seats = list(Seat.objects.filter(WAITING, user=user)
                 .select_related("table").defer(*(f"table__{f}" for f in LIST_DEFER))
                 .order_by("owes_since", "table_id"))
    return _turns(seats, user)


def _turns(seats: list[Seat], user) -> list[dict]:
    """The turns of `user`'s waiting seats (their tables read with them), most urgent first."""
    for seat in seats:  # every seat is the user's own: no row of theirs read per table
        seat.user = user
    # The vacations move deadlines only: no clock at any of these tables, no query.
    periods = clocks.vacation_periods(user.pk) if any(s.deadline for s in seats) else []
    turns = [{"table": s.table, "seat": s, "deadline": clocks.seat_deadline(s, periods)}
             for s in seats]
    far = timezone.now() + timedelta(days=3650)
    turns.sort(key=lambda t: (t["deadline"] or far, t["seat"].owes_since))
    return turns


# What the dashboard reads of the player's own seat (the turns list, its deadlines).
DASHBOARD_SEAT = ("table", "position", "user_id", "bot_level", "owes_since", "deadline", "bank",
                  "paused_at", "muted", "taken_over")


def dashboard_tables(user) -> dict:
    """The home page's lists of `user`'s tables, in one query whatever their number.

    `turns` (as turns_waiting_on), then newest activity first the other `running`
    tables among the latest 50 running ones, `open_mine` (latest 50) and `finished`
    (latest 20): what turns_waiting_on and tables_of give, read in one pass over the
    player's seats ranked per status (a seat per table and user: seat_unique_user).
    """
    from django.db.models import F, Window
    from django.db.models.functions import RowNumber

    S = Table.Status
    rank = Window(RowNumber(), partition_by=[F("table__status")],
                  order_by=[F("table__last_event_at").desc(), F("table_id").desc()])
    seats = list(Seat.objects.filter(user=user, table__status__in=[S.RUNNING, S.OPEN, S.FINISHED])
                 .select_related("table").only(*DASHBOARD_SEAT, *(
                     f"table__{f.name}" for f in Table._meta.concrete_fields
                     if f.name not in LIST_DEFER))
                 .annotate(rank=rank).filter(WAITING | Q(rank__lte=50))
                 .order_by("-table__last_event_at", "-table_id"))
    waiting = [s for s in seats if s.table.status == S.RUNNING and s.owes_since is not None
               and not s.bot_level]
    waiting_ids = {s.table_id for s in waiting}
    turns = _turns(sorted(waiting, key=lambda s: (s.owes_since, s.table_id)), user)

    def listed(status, most):
        return [s.table for s in seats if s.table.status == status and s.rank <= most
                and s.table_id not in waiting_ids][:most]
    return {"turns": turns, "running": listed(S.RUNNING, 50), "open_mine": listed(S.OPEN, 50),
            "finished": listed(S.FINISHED, 20)}


def tables_waiting_on(user) -> list[Table]:
    """Running tables where `user` owes a decision, most urgent first."""
    return [turn["table"] for turn in turns_waiting_on(user)]


def waiting_count(user) -> int:
    """How many tables wait on `user`."""
    return Seat.objects.filter(user=user, owes_since__isnull=False, bot_level="",
                               table__status=Table.Status.RUNNING).count()


def turn_signature(rows) -> str:
    """A short fingerprint of (table id, owed since) of the tables waiting on a player:
    a page carries it, and its player socket pushes nothing on connect while it holds."""
    text = ";".join(f"{table_id}:{since.isoformat()}" for table_id, since in sorted(rows))
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def waiting_signature(user) -> tuple[int, str]:
    """How many tables wait on `user`, and their fingerprint, in one query."""
    rows = list(Seat.objects.filter(user=user, owes_since__isnull=False, bot_level="",
                                    table__status=Table.Status.RUNNING)
                .values_list("table_id", "owes_since"))
    return len(rows), turn_signature(rows)


def turns_signature(turns: list[dict]) -> str:
    """The fingerprint of a list built by turns_waiting_on (no query)."""
    return turn_signature([(t["table"].pk, t["seat"].owes_since) for t in turns])


def tables_of(user, *, status: str) -> list[Table]:
    """Tables with a given status where `user` has a seat, newest activity first."""
    # No DISTINCT: a user has at most one seat per table (seat_unique_user), and
    # DISTINCT over every column cost PostgreSQL a sort of all the user's tables.
    # Ties broken by id, as dashboard_tables does: the page and its live redraw agree.
    return list(Table.objects.filter(seats__user=user, status=status).defer(*LIST_DEFER)
                .order_by("-last_event_at", "-id")[:50])


def open_tables_for(user) -> list[Table]:
    """Open tables `user` may join: public ones and those they were invited to."""
    q = Q(is_private=False)
    if user is not None and user.is_authenticated:
        q |= Q(invitations__user=user)
    return list(Table.objects.filter(q, status=Table.Status.OPEN)
                .prefetch_related("seats__user").order_by("-created_at").distinct()[:100])


def invited_tables(user, limit: int = 50) -> list[Table]:
    """Open tables `user` was invited to and has no seat at yet: one query, however many."""
    # One invitation per table and user (invitation_unique): no DISTINCT needed.
    return list(Table.objects.filter(status=Table.Status.OPEN, invitations__user=user)
                .exclude(seats__user=user).defer(*LIST_DEFER).order_by("-created_at")[:limit])


class UrlOf:
    """`reverse(name, args=[value])` for many values, resolved once: a list of 100 tables
    spent a sixth of its render in reverse(). The value is quoted as reverse() quotes it
    (RFC 3986 pchar); a URL whose sample does not split cleanly falls back to reverse()."""

    SAMPLES = {int: 918273645, str: "zq9x7sample"}

    def __init__(self, name: str, kind: type = int):
        self.name = name
        sample = str(self.SAMPLES[kind])
        url = reverse(name, args=[self.SAMPLES[kind]])
        self.parts = url.split(sample) if url.count(sample) == 1 else None

    def __call__(self, value) -> str:
        if self.parts is None:
            return reverse(self.name, args=[value])
        head, tail = self.parts
        return head + quote(str(value), safe=RFC3986_SUBDELIMS + "/~:@") + tail


def list_words(tables) -> list[Table]:
    """What every row of a list of tables says (tables/_table_list.html, the dashboard's
    turns), no query: `list_url`, `game_text`, `status_text`, `seats_text`, `clock_text`,
    each put into words once per distinct value rather than once per row."""
    from .templatetags.tables import game_name

    url_of = UrlOf("tables:table")
    games, seats, clocks_text = {}, {}, {}
    statuses = {value: str(label) for value, label in Table.Status.choices}
    for table in tables:
        table.list_url = url_of(table.pk)
        if table.game not in games:
            games[table.game] = game_name(table.game)
        table.game_text = games[table.game]
        table.status_text = statuses.get(table.status, table.status)
        if table.players not in seats:
            seats[table.players] = ngettext("%(n)s seat", "%(n)s seats", table.players) % {
                "n": table.players}
        table.seats_text = seats[table.players]
        key = json.dumps(table.time_control or {}, sort_keys=True)
        if key not in clocks_text:
            clocks_text[key] = clocks.describe(table.time_control or {})
        table.clock_text = clocks_text[key]
    return tables


def table_events(table: Table) -> list[TableEvent]:
    """The table's raw event records (for the admin and maintenance, never for pages)."""
    return list(table.events.order_by("seq"))
