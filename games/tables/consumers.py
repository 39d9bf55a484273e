"""The table's WebSocket: joins the table's group and redraws the page per viewer."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string
from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from . import actions, presence
from .models import Table
from .views import SESSION_TOKENS, table_context

log = logging.getLogger(__name__)


class _Request:
    """The little of a request that the templates use, built from the socket's scope."""

    def __init__(self, scope):
        self.user = scope.get("user")
        self.session = scope.get("session")
        self.htmx = True
        self.META = {"CSRF_COOKIE": value for name, value in (scope.get("cookies") or {}).items()
                     if name == settings.CSRF_COOKIE_NAME}  # pushed forms get a valid token
        self.GET = {}
        self.scheme = "https" if scope.get("scheme") == "wss" else "http"
        self._host = dict(scope.get("headers") or []).get(b"host", b"localhost").decode("latin1")

    def build_absolute_uri(self, location: str) -> str:
        return f"{self.scheme}://{self._host}{location}"


def scope_language(scope) -> str:
    """The viewer's language: profile, then language cookie, then Accept-Language."""
    user = scope.get("user")
    if getattr(user, "is_authenticated", False) and getattr(user, "language", ""):
        return user.language
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies") or {}
    candidates = [cookies.get(settings.LANGUAGE_COOKIE_NAME, "")]
    accept = headers.get(b"accept-language", b"").decode("latin1")
    candidates += [lang for lang, _q in trans_real.parse_accept_lang_header(accept)]
    for candidate in candidates:
        if not candidate or candidate == "*":
            continue
        try:
            return trans_real.get_supported_language_variant(candidate)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class TableConsumer(WebsocketConsumer):
    """One open table page. Receives `table.changed` with ids only, renders for its viewer."""

    def connect(self):
        try:
            self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        except (KeyError, ValueError):
            self.close(code=4404)
            return
        table = Table.objects.filter(pk=self.table_id).first()
        user = self.scope.get("user")
        session = self.scope.get("session") or {}
        token = (session.get(SESSION_TOKENS) or {}).get(str(self.table_id)) if session else None
        if table is None or not actions.can_see(table, user, token=token):
            self.close(code=4403)
            return
        self.group = f"table-{self.table_id}"
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        # Catch up: a (re)connecting page may have missed pushes.
        self.push(table)

    def disconnect(self, code):
        group = getattr(self, "group", None)
        if group:
            async_to_sync(self.channel_layer.group_discard)(group, self.channel_name)

    def receive(self, text_data=None, bytes_data=None):
        """Moves are posted over HTTP; socket messages are only heartbeats.

        The page sends one while its tab is visible and used (and at once when
        a push arrives there); a socket that stays silent counts as an idle tab
        and no longer holds back turn mails. Connecting alone is no sign of the
        player: a hidden tab reconnects by itself.
        """
        if getattr(self, "group", None):
            presence.mark_present(table_id=self.table_id, user=self.scope.get("user"))

    def table_changed(self, event):
        table = Table.objects.filter(pk=self.table_id).first()
        if table is not None:
            self.push(table)

    def push(self, table: Table) -> None:
        """Send every partial, rendered for this connection's viewer, for out-of-band swap."""
        request = _Request(self.scope)
        with translation.override(scope_language(self.scope)):
            context = table_context(request, table, oob=True)
            html = render_to_string("tables/_live.html", {**context, "include_play_area": True}, request)
        self.send(text_data=html)
