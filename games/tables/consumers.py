"""The table's WebSocket: joins the table's group and pushes what changed for its viewer.

Messages from the page are JSON objects with a `type` (`hello`, `heartbeat`, …),
dispatched to `on_<type>`; new kinds are new methods. Pushes are htmx
out-of-band HTML. The consumer is async: every database call and render runs
on the bounded pool of `live.py`, and renders are shared by every socket of
the same view (seat or spectator, language, seq, log position).
"""

from __future__ import annotations

import json
import logging
import time

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.middleware.csrf import CSRF_SECRET_LENGTH, get_token
from django.utils.translation import trans_real

from games.chat.consumers import ChatConsumerMixin

from . import actions, live, presence
from .models import Table
from .views import SESSION_TOKENS

log = logging.getLogger(__name__)

# Close codes (4000-4999 are the application's own).
CLOSE_NOT_FOUND = 4404
CLOSE_FORBIDDEN = 4403
CLOSE_TOO_MANY = 4429  # too many anonymous sockets from this address or on this table
# The database or Redis failed while connecting: "try again later" (RFC 6455). Before the
# handshake is accepted Daphne answers any close with a refusal, which the browser reports
# as 1006; htmx's ws extension reconnects with a growing delay on either.
CLOSE_TRY_AGAIN = 1013


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


def connection_csrf_token(scope) -> str | None:
    """A CSRF token for this connection's own cookie (shared renders carry a dummy one)."""
    secret = (scope.get("cookies") or {}).get(settings.CSRF_COOKIE_NAME, "")
    if len(secret) != CSRF_SECRET_LENGTH:
        return None

    class _Meta:
        META = {"CSRF_COOKIE": secret}

    return get_token(_Meta())


def _may_see(table_id: int, user, token: str | None) -> bool:
    table = Table.objects.filter(pk=table_id).defer("snapshot").first()  # not drawn here
    return table is not None and actions.can_see(table, user, token=token)


def _current_seq(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("seq", flat=True).first()


class TableConsumer(live.GroupSocket, ChatConsumerMixin, AsyncWebsocketConsumer):
    """One open table page. Receives `table.changed` (ids and seq only) and pushes the difference."""

    anonymous_slot: tuple[str, int] | None = None
    _heartbeat_at: float = float("-inf")

    async def connect(self):
        try:
            self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        except (KeyError, ValueError):
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.user = self.scope.get("user")
        session = self.scope.get("session") or {}
        token = (session.get(SESSION_TOKENS) or {}).get(str(self.table_id)) if session else None
        if not getattr(self.user, "is_authenticated", False):
            address = (self.scope.get("client") or ["?"])[0]
            if not live.anonymous_limits.admit(address, self.table_id):
                log.info("refused anonymous socket from %s on table %s", address, self.table_id)
                await self.close(code=CLOSE_TOO_MANY)
                return
            self.anonymous_slot = (address, self.table_id)
        try:
            await self._join(token)
        except Exception:  # noqa: BLE001 - database or Redis down: the page tries again
            log.warning("socket for table %s could not connect", self.table_id, exc_info=True)
            await self.leave()
            await self.close(code=CLOSE_TRY_AGAIN)

    async def _join(self, token: str | None) -> None:
        if not await live.run(_may_see, self.table_id, self.user, token):
            self._release_slot()  # at once: not every server tells a refused socket's end
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.language = scope_language(self.scope)
        self.csrf_token = connection_csrf_token(self.scope)
        headers = dict(self.scope.get("headers") or [])
        self.host = headers.get(b"host", b"localhost").decode("latin1")
        self.scheme = "https" if self.scope.get("scheme") == "wss" else "http"
        # What the page shows: unknown until it says hello (then pushes are deltas).
        self.seq: int | None = None
        self.log_n: int | None = None
        self.page_id = ""
        await self.join(f"table-{self.table_id}")
        await self.accept()
        # Connecting alone is no sign of the player (a hidden tab reconnects by
        # itself): only heartbeats, sent while the tab is visible and used, are.

    def _release_slot(self) -> None:
        """Give back the anonymous place this socket took (once)."""
        if self.anonymous_slot:
            live.anonymous_limits.release(*self.anonymous_slot)
            self.anonymous_slot = None

    async def leave(self) -> None:
        self._release_slot()
        await super().leave()

    # -- messages from the page ------------------------------------------------------

    async def receive(self, text_data=None, bytes_data=None):
        """Typed JSON messages; anything unreadable is ignored (a bare heartbeat too)."""
        if not self.group:
            return
        try:
            message = json.loads(text_data or "{}")
        except ValueError:
            message = {}
        kind = message.get("type") if isinstance(message, dict) else None
        handler = getattr(self, f"on_{kind}", None) if isinstance(kind, str) and kind.isidentifier() else None
        if handler is None:
            handler = self.on_heartbeat
        try:
            await handler(message if isinstance(message, dict) else {})
        except Exception:  # noqa: BLE001 - database down: the page's next message retries
            log.warning("socket message %r on table %s failed", kind, self.table_id,
                        exc_info=True)

    async def on_heartbeat(self, message: dict) -> None:
        """The page sends one while its tab is visible and used (and at once when a
        push arrives there); a socket that stays silent counts as an idle tab and
        no longer holds back turn mails. Coalesced: at most one database write per
        socket per interval, whatever the client sends (a flood of frames costs no
        writes)."""
        now = time.monotonic()
        if now - self._heartbeat_at < settings.SOCKET_HEARTBEAT_WRITE_SECONDS:
            return
        self._heartbeat_at = now
        await live.run(presence.mark_present, table_id=self.table_id, user=self.user)

    async def on_hello(self, message: dict) -> None:
        """The page says what it shows (`seq`, newest log entry `log`, its `page` id).

        Nothing is pushed when it is current; behind, it gets the board and
        prompt and only the log entries it lacks.
        """
        seq, log_n = message.get("seq"), message.get("log")
        page = message.get("page")
        if isinstance(page, str):
            self.page_id = page[:64]
        if not (isinstance(seq, int) and seq >= 0):
            seq = None
        self.seq = seq
        self.log_n = log_n if isinstance(log_n, int) and log_n >= 0 and seq is not None else None
        current = await live.run(_current_seq, self.table_id)
        if current is not None and (self.seq is None or current > self.seq):
            await self.push(current)

    # -- messages from the group -----------------------------------------------------

    async def table_changed(self, event):
        seq = event.get("seq")
        rev = event.get("rev")
        if rev:  # a redraw without a new event: the whole page part again
            await self.push(seq, rev=str(rev)[:16])
            return
        if self.seq is not None and isinstance(seq, int) and seq <= self.seq:
            return
        if self.page_id and event.get("skip") == self.page_id:
            # The mover's own page: its htmx answer already shows this move.
            self.seq = seq
            self.log_n = None  # its log was redrawn; the page's next hello says where
            return
        await self.push(seq)
        # A new event reached the page: the heartbeat that answers it is written whatever
        # the coalescing interval, so a decision seen arriving live is never mailed.
        # (Bounded by the table's own events, not by what the client sends.)
        self._heartbeat_at = float("-inf")

    async def push(self, seq: int | None, *, rev: str = "") -> None:
        """Send what the page lacks; a failed render (database busy or down) is logged and
        skipped: the socket stays open and the next change or reconnect catches up."""
        try:
            await self._push(seq, rev=rev)
        except Exception:  # noqa: BLE001 - one failed push must not close the page's socket
            log.exception("push of table %s seq %s failed", self.table_id, seq)

    async def _push(self, seq: int | None, *, rev: str = "") -> None:
        cache = live.shared_renders()
        info = await cache.info(self.table_id, seq, rev=rev)
        if info is None:
            return
        if not rev and self.seq is not None and info.seq <= self.seq:
            return
        key = live.view_key(info, self.user)
        log_after = self.log_n if (self.seq is not None and not rev) else None
        rendered = await cache.render(info, key, self.user, self.language, log_after,
                                      self.host, self.scheme)
        if not rev and self.seq is not None and rendered.seq <= self.seq:
            return
        await self.send(text_data=live.personalise(rendered.html, self.csrf_token))
        self.seq = rendered.seq
        self.log_n = rendered.log_total
