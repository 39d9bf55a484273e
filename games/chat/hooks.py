"""Hooks the tables framework calls after a write commits."""

from __future__ import annotations

import logging

from games.tables.models import Table

from .models import ChatMessage

log = logging.getLogger(__name__)


def table_moved(table_id: int) -> None:
    """Bots greet when a game starts and say "good game" when it ends; nothing else."""
    try:
        table = Table.objects.filter(pk=table_id).first()
        if table is None or table.status not in (Table.Status.RUNNING, Table.Status.FINISHED):
            return
        bots = [s for s in table.seats.all() if s.is_bot and not s.taken_over]
        if not bots:
            return
        from .services import do_bot_phrase

        phrase = (ChatMessage.BotPhrase.HELLO if table.status == Table.Status.RUNNING
                  else ChatMessage.BotPhrase.GOOD_GAME)
        said = set(ChatMessage.objects.filter(table=table, bot_phrase=phrase)
                   .values_list("seat", flat=True))
        for seat in bots:
            if seat.position not in said:
                do_bot_phrase(table=table, seat=seat, phrase=phrase)
    except Exception:  # noqa: BLE001 - chat must never break a move
        log.exception("bot chat for table %s failed", table_id)
