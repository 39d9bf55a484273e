"""The player's own socket: one per open page of a signed-in player, on every page.

It joins the group `player-<user id>`. When a table of theirs changes who is to
move (`broadcast.player_turns`, after commit), it sends the page the header's
"your turn" count, the dashboard's lists (if the page shows them) and, when the
table newly waits on this player, what a browser notification says. It never
marks the player present anywhere: only a table's own page and socket count as
being at that table (games/tables/presence.py).
"""

from __future__ import annotations

import json
import logging
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from . import live
from .consumers import CLOSE_TRY_AGAIN, scope_language

log = logging.getLogger(__name__)


def player_group(user_id: int) -> str:
    return f"player-{user_id}"


def dashboard_context(user) -> dict:
    """The home page's turn list and other running tables (as views.home builds them)."""
    from . import selectors
    from .models import Table

    turns = selectors.turns_waiting_on(user)
    waiting = [turn["table"] for turn in turns]
    waiting_ids = {t.pk for t in waiting}
    running = [t for t in selectors.tables_of(user, status=Table.Status.RUNNING)
               if t.pk not in waiting_ids]
    # Opponents and results, as on the page (two queries for all the tables).
    from games.history.people import annotate

    annotate(waiting + running, user)
    return {"turns": turns, "waiting": waiting, "running": running, "user": user,
            "turn_count": len(turns)}


def notice_for(user, table_id: int) -> dict | None:
    """The notification of a table that now waits on `user`, from their seat's view only."""
    from .models import Table
    from .since import since_last_move
    from .templatetags.tables import game_name

    table = Table.objects.filter(pk=table_id).first()
    if table is None or table.status != Table.Status.RUNNING:
        return None
    seat = table.seats.filter(user=user, bot_level="").first()
    if seat is None or seat.position not in table.to_move:
        return None
    lines = since_last_move(table, user, limit=3)
    return {"table": table.pk, "path": table.get_absolute_url(),
            "url": settings.SITE_URL + table.get_absolute_url(),
            "title": _("Your turn: %(game)s, table %(id)s") % {"game": game_name(table.game),
                                                              "id": table.pk},
            "body": "\n".join(lines) or _("It is your turn.")}


def _push_for(user_id: int, scope: dict, new_turn_table: int | None,
              page_shows: str | None) -> dict | None:
    """What to send the page (on the render pool): None when it already shows the
    current turns (`page_shows` is their fingerprint), {"gone": True} for a deleted user."""
    from accounts.models import User

    from . import selectors

    user = User.objects.filter(pk=user_id).first()
    if user is None:
        return {"gone": True}
    if page_shows is not None and new_turn_table is None:
        _count, signature = selectors.waiting_signature(user)
        if signature == page_shows:
            return None
    from .notify import _zone

    # In the player's language and time zone, as the page was (the deadlines are dates)
    with translation.override(scope_language({**scope, "user": user})), \
            timezone.override(_zone(user)):
        context = dashboard_context(user)
        parts = {
            "turn-count": render_to_string("_turn_count.html", context),
            "home-turns": render_to_string("tables/home.html#home-turns", context),
            "home-running": render_to_string("tables/home.html#home-running", context),
        }
        notice = notice_for(user, new_turn_table) if new_turn_table else None
    signature = selectors.turns_signature(context["turns"])
    return {"signature": signature,
            "text": json.dumps({"count": context["turn_count"], "parts": parts, "notify": notice,
                                "seen": signature})}


class PlayerConsumer(live.GroupSocket, AsyncWebsocketConsumer):
    """Receives `player.turns` (ids only) and sends the page its live "your turn" parts.

    Async: its queries and renders run on the bounded pool of live.py, never on the
    event loop nor on Channels' one sync thread. The page's address carries the
    fingerprint of the turns it shows (`?seen=`): connecting pushes nothing while
    that is current (a page load is followed by no redraw).
    """

    async def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            await self.close(code=4403)
            return
        self.user_id = user.pk
        query = parse_qs((self.scope.get("query_string") or b"").decode("latin1"))
        seen = (query.get("seen") or [""])[0]
        # What the page shows; unknown (None) for a page that does not say: it is sent all.
        self.seen = seen[:32] if seen.isalnum() else None
        try:
            # A dashboard stays open for days: it stays in the group past its expiry.
            await self.join(player_group(user.pk))
        except Exception:  # noqa: BLE001 - Redis down: the page's script tries again
            log.warning("player socket of user %s could not join its group", user.pk,
                        exc_info=True)
            await self.close(code=CLOSE_TRY_AGAIN)
            return
        await self.accept()
        await self.push(None)  # catch up: a turn may have come while the page loaded

    async def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive: the page only listens."""

    async def player_turns(self, event):
        # Something changed at one of the player's tables: the lists are sent again.
        self.seen = None
        await self.push(event.get("table_id") if event.get("new_turn") else None)

    async def push(self, new_turn_table: int | None) -> None:
        try:
            scope = {"headers": self.scope.get("headers"), "cookies": self.scope.get("cookies")}
            found = await live.run(_push_for, self.user_id, scope, new_turn_table, self.seen)
        except Exception:  # noqa: BLE001 - a failed push must not close the page's socket
            log.exception("player push for user %s failed", self.user_id)
            return
        if found is None:
            return
        if found.get("gone"):
            await self.close(code=4403)
            return
        self.seen = found["signature"]
        await self.send(text_data=found["text"])
