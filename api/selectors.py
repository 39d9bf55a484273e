"""Reads of the API: tables as JSON, built from `rules.view(state, seat)` only, never a state."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from games.engine import get_rules
from games.tables import actions, selectors
from games.tables.models import Table, TableEvent
from games.tables.plugins import bot_level_description, bot_level_label, listed_games
from games.tables.replay import apply_event, fold, rules_for

from .problems import Problem

# At most this many events in one answer of the events endpoint (`more` says the rest).
EVENTS_PER_PAGE = 200


def games() -> list[dict]:
    """The games offered, with their options and bot levels."""
    out = []
    for config in listed_games():
        rules = config.rules
        out.append({
            "slug": rules.slug, "name": _(rules.name), "min_players": rules.min_players,
            "max_players": rules.max_players, "rules_version": rules.rules_version,
            "options": [{"key": o.key, "label": _(o.label), "kind": o.kind, "default": o.default,
                         "help": _(o.help) if o.help else "",
                         "choices": [{"value": v, "label": _(label)} for v, label in o.choices]}
                        for o in rules.options],
            "bot_levels": [{"level": level, "label": bot_level_label(level, config),
                            "description": bot_level_description(level, config)}
                           for level in config.bot_levels],
        })
    return out


def visible_table(table_id: int, user) -> Table:
    """The table if `user` may see it; a 404 problem otherwise (private tables included)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not actions.can_see(table, user):
        raise Problem(404, "not_found", _("There is no such table."))
    return table


def _seats(table: Table, viewer: selectors.Viewer) -> list[dict]:
    rows = selectors.seat_rows(table, viewer)
    by_position = {s.position: s for s in selectors.seats_of(table)}
    out = []
    for row in rows:
        seat = by_position[row["position"]]
        user = seat.user if not seat.is_bot or seat.taken_over else None
        out.append({
            "position": row["position"], "name": str(row["name"]),
            "username": user.username if user else None,
            "bot_account": bool(user and user.is_bot_account),
            "site_bot": seat.bot_level or None, "free": row["is_free"], "you": row["is_you"],
            "to_move": row["to_move"], "resigned": row["resigned"], "deadline": row["deadline"],
        })
    return out


def summary(table: Table, user) -> dict:
    """A table as the lists show it: seats, status, whose turn."""
    viewer = selectors.viewer_for(table, user)
    seats = _seats(table, viewer)
    mine = next((s["position"] for s in seats if s["you"]), None)
    return {
        "id": table.pk, "game": table.game, "game_name": _(get_rules(table.game).name),
        "status": table.status, "players": table.players, "seq": table.seq,
        "private": table.is_private, "rated": table.rated, "your_seat": mine,
        "your_turn": bool(mine is not None and table.status == Table.Status.RUNNING
                          and mine in (table.to_move or [])
                          and not next(s for s in seats if s["you"])["site_bot"]),
        "to_move": list(table.to_move or []), "seats": seats,
        "created_at": table.created_at, "last_event_at": table.last_event_at,
        "url": settings.SITE_URL + table.get_absolute_url(),
    }


def detail(table: Table, user) -> dict:
    """One table for `user`: the summary, the outcome and the view of their seat."""
    viewer = selectors.viewer_for(table, user)
    out = summary(table, user)
    state = selectors.table_state(table) if table.status != Table.Status.OPEN else None
    out.update({
        "started_at": table.started_at, "finished_at": table.finished_at,
        "outcome": table.outcome,
        "view": get_rules(table.game).view(state, viewer.seat) if state is not None else None,
    })
    return out


def legal_moves(table: Table, user) -> dict:
    """The legal moves of `user`'s seat with their labels (the page's buttons)."""
    viewer = selectors.viewer_for(table, user)
    tv = selectors.table_view_for(table, viewer, log_last=0)
    return {"table": table.pk, "seq": table.seq, "seat": viewer.seat,
            "moves": [{"move": m["move"], "label": str(m["label"])} for m in tv.moves]}


def _log_of(view: Any) -> tuple[int, list]:
    """(index of the view's first log entry, the entries) — games may keep only the latest."""
    if not isinstance(view, dict) or not isinstance(view.get("log"), list):
        return 0, []
    return int(view.get("log_first") or 0), view["log"]


def events_since(table: Table, user, since: int) -> dict:
    """The table's events after `since`, each with the log entries it wrote as the
    caller's seat saw them then (the spectator's view without a seat)."""
    viewer = selectors.viewer_for(table, user)
    seat = viewer.seat
    events: list[dict] = []
    if since >= table.seq:
        return {"table": table.pk, "since": since, "seq": table.seq, "events": [], "more": False}
    rules = rules_for(table)
    all_events = list(table.events.filter(seq__lte=table.seq).order_by("seq"))
    before = [e for e in all_events if e.seq <= since]
    after = [e for e in all_events if e.seq > since]
    page, more = after[:EVENTS_PER_PAGE], len(after) > EVENTS_PER_PAGE
    state = fold(table, before)
    first, log = _log_of(rules.view(state, seat) if state is not None else None)
    written = first + len(log)
    for event in page:
        state = apply_event(rules, state, event, table=table)
        entries: list = []
        if state is not None:
            first, log = _log_of(rules.view(state, seat))
            end = first + len(log)
            entries = log[max(written, first) - first:] if end > written else []
            written = end
        own = (seat is not None and event.seat == seat and event.kind == TableEvent.Kind.MOVE)
        events.append({"seq": event.seq, "kind": event.kind, "seat": event.seat,
                       "at": event.created_at, "log": entries,
                       "move": event.data.get("move") if own else None})
    return {"table": table.pk, "since": since, "seq": events[-1]["seq"] if more else table.seq,
            "events": events, "more": more}


def my_tables(user) -> dict:
    """The caller's tables: waiting on them, running, not started, finished (latest 20)."""
    waiting = selectors.tables_waiting_on(user)
    running = [t for t in selectors.tables_of(user, status=Table.Status.RUNNING)
               if t not in waiting]
    return {
        "waiting": [summary(t, user) for t in waiting],
        "running": [summary(t, user) for t in running],
        "open": [summary(t, user) for t in selectors.tables_of(user, status=Table.Status.OPEN)],
        "finished": [summary(t, user)
                     for t in selectors.tables_of(user, status=Table.Status.FINISHED)[:20]],
    }


def open_tables(user) -> list[dict]:
    """Open tables the caller may join (public ones and invitations)."""
    return [summary(t, user) for t in selectors.open_tables_for(user)]
