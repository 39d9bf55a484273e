"""Where a player is: the one place that notes "this player was at this table".

Every sign of a player at a table counts the same for turn mails: a full page
load, an htmx request, a move, a live socket's heartbeat. Several open tabs of
one player share the one timestamp, so closing a tab resets nothing for the
others. `games.tables.actions.claim_turn_mail` reads it back: a decision the
player has seen (presence after it began) is never mailed, and a player seen
within `TURN_MAIL_SOCKET_FRESH_SECONDS` is taken to be watching, so the mail
waits for the `send_pending_turn_mails` sweep to look again.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .models import Seat


def mark_present(*, table_id: int, user, at: datetime | None = None) -> int:
    """Note that `user` was at table `table_id` just now; returns the rows touched (0 or 1).

    Callers that write many times a minute (socket heartbeats) may coalesce
    calls; one call per interval shorter than the freshness window is enough.
    """
    if not getattr(user, "is_authenticated", False):
        return 0
    return Seat.objects.filter(table_id=table_id, user=user).update(
        visited_at=at or timezone.now())


def mark_present_at(*, table_ids, user_id: int, at: datetime | None = None) -> int:
    """`mark_present` for several tables at once (an API client's open stream follows all
    of its player's tables); returns the rows touched."""
    return Seat.objects.filter(table_id__in=list(table_ids), user_id=user_id).update(
        visited_at=at or timezone.now())
