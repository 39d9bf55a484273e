"""Background work: bot turns and the sweep that keeps bot tables moving."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from games.engine import IllegalMove, Rng, get_rules

from . import actions
from .errors import ActionError
from .models import Seat, Table
from .plugins import game_config
from .replay import current_state

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OSError,), retry_backoff=True, max_retries=5)
def play_bot_turn(table_id: int, seq: int, seat: int) -> str:
    """Let the bot at `seat` decide, if the table is still at `seq`."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.seq != seq or table.status != Table.Status.RUNNING:
        return "stale"
    if seat not in table.to_move or not table.seats.filter(position=seat).exclude(bot_level="").exists():
        return "stale"
    level = table.seats.get(position=seat).bot_level
    rules = get_rules(table.game)
    state = current_state(table)
    view = rules.view(state, seat)  # the bot sees what its seat sees, nothing more
    legal = rules.legal_moves(state, seat)
    rng = Rng.from_seed(f"{table.pk}:{seq}:{seat}")
    move = game_config(table.game).choose_bot_move(view, legal, level=level, rng=rng)
    try:
        actions.check_submit_move(table_id=table_id, seat=seat, move=move, based_on=seq, bot=True)
    except (ActionError, IllegalMove) as exc:
        log.info("bot move at table %s seq %s not taken: %s", table_id, seq, exc)
        return "refused"
    return "moved"


@shared_task
def resend_stuck_turns(older_than_seconds: int = 60) -> int:
    """Re-queue bot turns that were lost (worker crash, broker restart).

    The `seq` check in play_bot_turn makes a repeat harmless.
    """
    from .effects import schedule_bot_turn

    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    stuck = (Seat.objects.exclude(bot_level="").filter(
        owes_since__isnull=False, table__last_event_at__lte=cutoff,
        table__status=Table.Status.RUNNING,
    ).select_related("table"))
    count = 0
    for seat in stuck:
        if seat.position in seat.table.to_move:
            schedule_bot_turn(seat.table_id, seat.table.seq, seat.position)
            count += 1
    return count
