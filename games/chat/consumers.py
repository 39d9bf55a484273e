"""The chat's part of the table socket: a mixin of the table consumer.

Chat arrives as its own `chat.message` event on the table's group (never inside
`table.changed`): each connection checks that its viewer may read the message
(channel, mutes, the spectators' channel shown or hidden) and renders it for them.
"""

from __future__ import annotations

import logging

from . import render

log = logging.getLogger(__name__)


class ChatConsumerMixin:
    """Handles `chat.message`; the page fetches missed messages itself when its socket opens
    (GET chat/logs), so a connect sends nothing more than the table consumer's own push."""

    async def chat_message(self, event):
        if not getattr(self, "group", None):
            return
        from games.tables import live  # the table consumer's bounded render pool

        try:
            html = await live.run(render.push_html, self.scope, self.table_id,
                                  int(event["message_id"]))
        except Exception:  # noqa: BLE001 - one bad render must not close the socket
            log.exception("chat push %s failed", event)
            return
        if html:
            await self.send(text_data=html)
