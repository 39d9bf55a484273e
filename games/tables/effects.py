"""Effects of a write, registered to run only after the transaction commits.

They carry ids and the table's `seq`, never states. A lost effect is repaired
(a reconnecting socket catches up, `resend_stuck_turns` re-queues bot turns);
a failing effect never undoes or blocks the move that caused it.
"""

from __future__ import annotations

import logging
import threading
from collections import deque

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)
_local = threading.local()


def after_commit_changed(table_id: int, seq: int) -> None:
    """Push the table to its viewers once the transaction commits."""
    from . import broadcast

    transaction.on_commit(lambda: broadcast.table_changed(table_id, seq))


def after_commit_moved(table, newly_owing: list[int]) -> None:
    """Push, then queue bot turns and notifications for the seats that now owe."""
    from . import broadcast

    table_id, seq = table.pk, table.seq
    seats = list(table.seats.all())  # read with the lock by the move: no query here
    bots = {s.position for s in seats if s.is_bot}
    humans = [p for p in newly_owing if p not in bots]
    rows = [(s.position, s.user_id, s.bot_level) for s in seats if s.user_id]
    # The table's pages, and every page of the players (the live "your turn" count,
    # lists and notification), in one message hop.
    transaction.on_commit(lambda: broadcast.moved(table_id, seq, humans, rows))
    for position in table.to_move:
        if position in bots:
            transaction.on_commit(lambda p=position: schedule_bot_turn(table_id, seq, p))
    finished = table.status == table.Status.FINISHED
    transaction.on_commit(lambda: _notify(table_id, seq, humans, finished))
    if any(s.is_bot and not s.taken_over for s in seats):
        from games.chat import hooks as chat_hooks  # bots' greeting and "good game"

        transaction.on_commit(lambda: chat_hooks.table_moved(table_id))


def after_commit_invitations(table_id: int, user_ids: list[int]) -> None:
    """Mail invitations once the table exists."""
    if not user_ids:
        return
    transaction.on_commit(lambda: _notify_invitations(table_id, user_ids))


def after_commit_redraw(table_id: int) -> None:
    """Redraw a table's open pages (something shown beside the game changed)."""
    from . import broadcast
    from .models import Table

    def push():
        seq = Table.objects.filter(pk=table_id).values_list("seq", flat=True).first()
        if seq is not None:
            broadcast.table_changed(table_id, seq, redraw=True)

    transaction.on_commit(push)


def after_commit_notice(name: str, **ids) -> None:
    """Run `notify.<name>(**ids)` after commit (reminders, vacation days spent)."""

    def run():
        try:
            from . import notify
        except ImportError:  # pragma: no cover
            return
        try:
            getattr(notify, name)(**ids)
        except Exception:  # noqa: BLE001 - a notification must never break a write
            log.exception("notice %s %s failed", name, ids)

    transaction.on_commit(run)


def _notify(table_id: int, seq: int, seats: list[int], finished: bool) -> None:
    try:
        from . import notify
    except ImportError:  # pragma: no cover - notifications are optional
        return
    try:
        notify.table_moved(table_id=table_id, seq=seq, seats=seats, finished=finished)
    except Exception:  # noqa: BLE001 - a notification must never break a move
        log.exception("notifying table %s seq %s failed", table_id, seq)


def _notify_invitations(table_id: int, user_ids: list[int]) -> None:
    try:
        from . import notify
    except ImportError:  # pragma: no cover
        return
    try:
        notify.invited(table_id=table_id, user_ids=user_ids)
    except Exception:  # noqa: BLE001
        log.exception("invitation mails for table %s failed", table_id)


def schedule_bot_turn(table_id: int, seq: int, seat: int) -> None:
    """Queue a bot decision; in-process mode runs queued turns one after another.

    With eager tasks a bot move would schedule the next bot move from inside
    this callback and recurse once per decision; a queue drained in a loop
    keeps long bot-only stretches flat.
    """
    from .tasks import play_bot_turn

    if not settings.CELERY_TASK_ALWAYS_EAGER:
        try:
            play_bot_turn.delay(table_id, seq, seat)
        except Exception:  # noqa: BLE001 - the sweep re-queues lost bot turns
            log.exception("could not queue bot turn for table %s seq %s", table_id, seq)
        return
    pending = getattr(_local, "pending", None)
    if pending is not None:
        pending.append((table_id, seq, seat))
        return
    if getattr(settings, "BOT_TURNS_IN_BACKGROUND", False):
        # No worker: play the turn after the response, in the one bot thread.
        from . import bot_worker

        bot_worker.submit(lambda: _drain(table_id, seq, seat))
        return
    _drain(table_id, seq, seat)


def _drain(table_id: int, seq: int, seat: int) -> None:
    """Run a bot turn and the bot turns it causes, one after another, in this thread."""
    from .tasks import play_bot_turn

    _local.pending = deque([(table_id, seq, seat)])
    try:
        while _local.pending:
            args = _local.pending.popleft()
            try:
                play_bot_turn.apply(args=args)
            except Exception:  # noqa: BLE001
                log.exception("bot turn %s failed", args)
    finally:
        _local.pending = None
