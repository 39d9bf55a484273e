"""The only code that touches the channel layer."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


def table_changed(table_id: int, seq: int) -> None:
    """Tell every open page of the table to redraw itself for its viewer.

    If the layer is down the move is still stored: pages show the truth on
    reload, and a socket that (re)connects is sent the current state.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(table_id), {"type": "table.changed", "table_id": table_id, "seq": seq})
    except Exception:  # noqa: BLE001 - Redis down must not lose or block a move
        log.warning("push for table %s seq %s failed", table_id, seq, exc_info=True)


def player_turns(table_id: int, new_turn_seats: list[int]) -> None:
    """Tell the open pages of every person at the table that who is to move changed.

    Seats in `new_turn_seats` now wait on their player: their pages may show a
    browser notification (games/tables/player_consumer.py).
    """
    from .models import Seat
    from .player_consumer import player_group

    layer = get_channel_layer()
    if layer is None:
        return
    try:
        seats = list(Seat.objects.filter(table_id=table_id, user__isnull=False).values_list(
            "position", "user_id", "bot_level"))
        for position, user_id, bot_level in seats:
            async_to_sync(layer.group_send)(player_group(user_id), {
                "type": "player.turns", "table_id": table_id,
                "new_turn": position in new_turn_seats and not bot_level})
    except Exception:  # noqa: BLE001 - Redis down must not lose or block a move
        log.warning("player push for table %s failed", table_id, exc_info=True)
