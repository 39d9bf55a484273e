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

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from .consumers import scope_language


def player_group(user_id: int) -> str:
    return f"player-{user_id}"


def dashboard_context(user) -> dict:
    """The home page's turn list and other running tables (as views.home builds them)."""
    from . import selectors
    from .models import Table

    turns = selectors.turns_waiting_on(user)
    waiting = [turn["table"] for turn in turns]
    running = [t for t in selectors.tables_of(user, status=Table.Status.RUNNING)
               if t not in waiting]
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


class PlayerConsumer(WebsocketConsumer):
    """Receives `player.turns` (ids only) and sends the page its live "your turn" parts."""

    def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            self.close(code=4403)
            return
        self.user_id = user.pk
        self.group = player_group(user.pk)
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.push(None)  # catch up: a turn may have come while the page loaded

    def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        """Nothing to receive: the page only listens."""

    def player_turns(self, event):
        self.push(event.get("table_id") if event.get("new_turn") else None)

    def push(self, new_turn_table: int | None) -> None:
        from accounts.models import User

        user = User.objects.filter(pk=self.user_id).first()
        if user is None:
            self.close(code=4403)
            return
        with translation.override(scope_language({**self.scope, "user": user})):
            context = dashboard_context(user)
            parts = {
                "turn-count": render_to_string("_turn_count.html", context),
                "home-turns": render_to_string("tables/home.html#home-turns", context),
                "home-running": render_to_string("tables/home.html#home-running", context),
            }
            notice = notice_for(user, new_turn_table) if new_turn_table else None
        self.send(text_data=json.dumps({"count": context["turn_count"], "parts": parts,
                                        "notify": notice}))
