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
