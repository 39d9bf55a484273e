"""The only code that touches the channel layer."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# The page that made the move being committed: its htmx answer shows the move,
# so its socket is not sent the same again (see TableConsumer.table_changed).
_mover_page: contextvars.ContextVar[dict | None] = contextvars.ContextVar("mover_page", default=None)


def group_name(table_id: int) -> str:
    return f"table-{table_id}"


@contextmanager
def answered_by_htmx(page_id: str | None, table_id: int):
    """Within this block, the first push of `table_id` skips the page `page_id`.

    Only the first: later pushes (a bot answering in the same request) go to every page.
    """
    token = _mover_page.set({"page": page_id[:64], "table": table_id} if page_id else None)
    try:
        yield
    finally:
        _mover_page.reset(token)


def _table_message(table_id: int, seq: int, redraw: bool) -> dict:
    message = {"type": "table.changed", "table_id": table_id, "seq": seq}
    if redraw:
        message["rev"] = secrets.token_hex(6)
    mover = _mover_page.get()
    if mover and mover["table"] == table_id:
        message["skip"] = mover["page"]
        _mover_page.set(None)
    return message


def _send_all(layer, messages: list[tuple[str, dict]]) -> None:
    """Every group message of one change in one hop to the event loop (a sync view under
    Daphne waits for the busy socket loop once, not once per message)."""
    async def send():
        await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))

    async_to_sync(send)()


def table_changed(table_id: int, seq: int, *, redraw: bool = False) -> None:
    """Tell every open page of the table that it changed (ids and seq only, no state).

    `redraw`: something beside the game changed without a new event (a
    vacation mark): pages are redrawn although their seq is current.
    If the layer is down the move is still stored: pages show the truth on
    reload, and a socket that (re)connects is sent what it missed.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _send_all(layer, [(group_name(table_id), _table_message(table_id, seq, redraw))])
    except Exception:  # noqa: BLE001 - Redis down must not lose or block a move
        log.warning("push for table %s seq %s failed", table_id, seq, exc_info=True)


def _player_messages(table_id: int, new_turn_seats: list[int], seats) -> list[tuple[str, dict]]:
    from .player_consumer import player_group

    return [(player_group(user_id), {"type": "player.turns", "table_id": table_id,
                                     "new_turn": position in new_turn_seats and not bot_level})
            for position, user_id, bot_level in seats if user_id]


def _seat_rows(table_id: int) -> list[tuple]:
    from .models import Seat

    return list(Seat.objects.filter(table_id=table_id, user__isnull=False).values_list(
        "position", "user_id", "bot_level"))


def player_turns(table_id: int, new_turn_seats: list[int], seats=None) -> None:
    """Tell the open pages of every person at the table that who is to move changed.

    Seats in `new_turn_seats` now wait on their player: their pages may show a
    browser notification (games/tables/player_consumer.py). `seats`:
    (position, user id, bot level) of the table's seats if the caller has them.
    """
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _send_all(layer, _player_messages(table_id, new_turn_seats,
                                          seats if seats is not None else _seat_rows(table_id)))
    except Exception:  # noqa: BLE001 - Redis down must not lose or block a move
        log.warning("player push for table %s failed", table_id, exc_info=True)


def moved(table_id: int, seq: int, new_turn_seats: list[int], seats) -> None:
    """A move's pushes: the table's pages and every player's own pages, in one hop."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        _send_all(layer, [(group_name(table_id), _table_message(table_id, seq, False)),
                          *_player_messages(table_id, new_turn_seats, seats)])
    except Exception:  # noqa: BLE001 - Redis down must not lose or block a move
        log.warning("push for table %s seq %s failed", table_id, seq, exc_info=True)
