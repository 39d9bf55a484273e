""""What happened since your last move": the same for every game, built by the framework.

The anchor is the table's event log, not the game's: the recipient's last
decision is their seat's last `move` event made by them. Every event after it
is replayed through the game's rules, and after each one the game's log is
read from the recipient's own `rules.view(state, seat)`, so each event's lines
are the game's own words for what that seat may see (an opponent's move, a
turn, the result of a die or a draw), exactly as the table page shows them.
Framework events (a bot taking a seat over, a player back, a timeout) add
their public line in order. A game whose view has no log still gets one line
per move ("Bo moved."). Other parts (chat, issue 14) may append their lines.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import get_rules

from .models import Table, TableEvent
from .plugins import game_config
from .replay import apply_event, fold

# A mail shows at most this many lines (the newest), with a note of the rest.
MAX_LINES = 60


def _log_total(view) -> int | None:
    """How many log entries the game has written so far, as this view counts them."""
    if not isinstance(view, dict) or not isinstance(view.get("log"), list):
        return None
    return int(view.get("log_first") or 0) + len(view["log"])


def anchor_seq(table: Table, position: int, user) -> int:
    """The seq of the recipient's last decision at `table` (0: none yet)."""
    last = (table.events.filter(kind=TableEvent.Kind.MOVE, seat=position, actor=user)
            .order_by("-seq").values_list("seq", flat=True).first())
    return last or 0


def since_last_move(table: Table, user, *, limit: int = MAX_LINES) -> list[str]:
    """Translated lines, oldest first, of everything `user`'s seat may know happened at
    `table` after their last decision (in the active language)."""
    from . import selectors

    if table.status == Table.Status.OPEN or user is None:
        return []
    seat = table.seats.filter(user=user).first()
    if seat is None:
        return []
    position = seat.position
    rules = get_rules(table.game)
    config = game_config(table.game)
    names = [row["name"] for row in selectors.seat_rows(table, selectors.Viewer(user=user,
                                                                                  seat=position))]
    events = list(table.events.order_by("seq"))
    anchor = anchor_seq(table, position, user)
    before = [e for e in events if e.seq <= anchor]
    after = [e for e in events if e.seq > anchor]
    state = fold(table, before)
    view = rules.view(state, position) if state is not None else None
    total = _log_total(view) if view is not None else 0
    # (event, first and end log index of the entries it wrote)
    spans = []
    for event in after:
        state = apply_event(rules, state, event, table=table)
        view = rules.view(state, position) if state is not None else None
        end = _log_total(view) if view is not None else None
        spans.append((event, total, end))
        total = end if end is not None else total
    final = view
    log = final.get("log") if isinstance(final, dict) else None
    first = int(final.get("log_first") or 0) if isinstance(final, dict) else 0
    lines: list[str] = []
    lost = 0
    for event, start, end in spans:
        if event.kind in selectors.NOTICE_KINDS:
            lines.append(selectors.notice_line(event, names))
            continue
        if isinstance(log, list) and start is not None and end is not None:
            for index in range(start, end):
                if index < first:
                    lost += 1  # the game keeps only its latest entries
                    continue
                if index - first < len(log):
                    lines.append(config.log_line(log[index - first], final, names))
            continue
        if event.kind == TableEvent.Kind.MOVE:
            name = names[event.seat] if 0 <= (event.seat or 0) < len(names) else "?"
            lines.append(_("%(name)s moved.") % {"name": name})
        elif event.kind == TableEvent.Kind.RESIGN:
            name = names[event.seat] if 0 <= (event.seat or 0) < len(names) else "?"
            lines.append(_("%(name)s resigned.") % {"name": name})
    if len(lines) > limit:
        lost += len(lines) - limit
        lines = lines[-limit:]
    if lost:
        lines.insert(0, ngettext("(%(n)s earlier event is in the table's log.)",
                                 "(%(n)s earlier events are in the table's log.)", lost)
                     % {"n": lost})
    return [str(line) for line in lines if line]
