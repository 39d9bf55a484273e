"""Rendering chat for one reader: the page's panel, one pushed message, a catch-up."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.tables.models import Table
from games.tables.notify import _zone

from .models import ChatMessage
from .selectors import (Reader, display, reader_for, readable, seat_names, write_refusal)

Channel = ChatMessage.Channel


def channel_title(channel: str, reader: Reader) -> str:
    if channel == Channel.PLAYERS:
        return _("Players' chat")
    return _("Spectators' chat")


def sections(reader: Reader, messages: list[ChatMessage] | None = None) -> list[dict]:
    """One section per readable channel, each with its messages prepared for display."""
    messages = readable(reader) if messages is None else messages
    names = seat_names(reader.table)
    return [{"channel": channel, "title": channel_title(channel, reader),
             "messages": [display(m, names) for m in messages if m.channel == channel]}
            for channel in reader.channels]


def panel_context(request, table: Table, *, error: str | None = None, body: str = "") -> dict:
    """Everything `chat/_panel.html` draws for the request's user."""
    from .services import note_for

    reader = reader_for(table, request.user)
    return {"table": table, "reader": reader, "sections": sections(reader),
            "refusal": write_refusal(reader), "error": error, "body": body,
            "note": note_for(table, request.user) if reader.is_player else None,
            "request": request, "user": request.user}


class _ScopeRequest:
    """The little of a request that the chat templates use, built from the socket's scope
    (a chat push is rendered per connection, so its forms carry that page's CSRF token)."""

    def __init__(self, scope):
        from django.conf import settings

        self.user = scope.get("user")
        self.session = scope.get("session")
        self.htmx = True
        self.META = {"CSRF_COOKIE": value for name, value in (scope.get("cookies") or {}).items()
                     if name == settings.CSRF_COOKIE_NAME}
        self.GET = {}
        self.path = ""
        self.scheme = "https" if scope.get("scheme") == "wss" else "http"
        self._host = dict(scope.get("headers") or []).get(b"host", b"localhost").decode("latin1")

    def build_absolute_uri(self, location: str) -> str:
        return f"{self.scheme}://{self._host}{location}"

    def get_full_path(self) -> str:
        return self.path


def _scope_request(scope):
    return _ScopeRequest(scope)


def push_html(scope, table_id: int, message_id: int) -> str | None:
    """One new message, appended out of band, if this socket's viewer may read it."""
    from games.tables.consumers import scope_language

    message = ChatMessage.objects.select_related("author", "table").filter(
        pk=message_id, table_id=table_id).first()
    if message is None:
        return None
    user = scope.get("user")
    reader = reader_for(message.table, user)
    if not reader.may_read(message):
        return None
    request = _scope_request(scope)
    with translation.override(scope_language(scope)), timezone.override(_zone(user)):
        return render_to_string("chat/_push.html", {
            "m": display(message, seat_names(message.table)), "reader": reader,
            "table": message.table, "user": user, "request": request}, request)


def logs_context(request, table: Table) -> dict:
    """Every readable log of the request's user, for an out-of-band refresh of the page."""
    reader = reader_for(table, request.user)
    return {"sections": sections(reader), "reader": reader, "table": table,
            "user": request.user, "request": request}
