"""Live table pages: renders shared by every socket with the same view, off the event loop.

A change is rendered once per (table, seq, view, language, log position) in a
web process and the HTML is shared by every connection with that view: a crowd
of spectators costs one render. A view is a seat (`s<n>`, the seat's own
`rules.view`), the spectators (`spectator`, `rules.view(state, None)`, drawn as
for a signed-out visitor) or, before the start, one user (`u<id>`), since the
lobby part of the page names its viewer. Renders and every other database call
of the table sockets run on a small thread pool (`WS_RENDER_THREADS`), never on
the event loop and never on Channels' single sync thread, so one crowded table
cannot hold up another's pushes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import close_old_connections, connection
from django.template.loader import render_to_string
from django.utils import translation

log = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def executor() -> ThreadPoolExecutor:
    """The process's bounded pool of threads for socket renders and queries."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=max(1, settings.WS_RENDER_THREADS),
                                           thread_name_prefix="live-render")
        return _executor


def reset_executor() -> None:
    """Forget the pool (a forked child process must make its own threads)."""
    global _executor, _executor_lock
    _executor = None
    _executor_lock = threading.Lock()
    _shared.clear()


os.register_at_fork(after_in_child=reset_executor)


def _with_connection(fn: Callable, *args, **kwargs):
    close_old_connections()
    try:
        return fn(*args, **kwargs)
    finally:
        connection.close()  # back to the pool after every job


async def run(fn: Callable, *args, **kwargs) -> Any:
    """Run a database-using function on the render pool and await its result."""
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(executor(), lambda: _with_connection(fn, *args, **kwargs))


# -- group membership ------------------------------------------------------------

async def keep_membership(layer, group: str, channel: str) -> None:
    """Re-join `group` well within the layer's group_expiry, for as long as the socket is
    open (run as a task; cancel it on disconnect).

    The expiry is kept short (settings.CHANNELS_GROUP_EXPIRY) so that a crashed process's
    channels leave the groups soon; without this an open page would silently drop out of
    its group after that long, and a dashboard left open for a day would stop counting
    turns. Redis down: try again next round."""
    expiry = getattr(layer, "group_expiry", 86400)
    while True:
        await asyncio.sleep(max(1.0, expiry / 3))
        try:
            await layer.group_add(group, channel)
        except Exception:  # noqa: BLE001 - Redis down: try again next round
            log.warning("could not renew group membership of %s in %s", channel, group)


class GroupSocket:
    """A consumer mixin: one channel-layer group, kept past the layer's expiry while the
    socket is open, and left however the connection ends, a crash included.

    Channels calls `disconnect` only when the socket closes normally. A handler that
    raised ended the consumer without it, and what the socket held stayed behind: its
    group-renewal task ran for ever (keeping a dead channel in its group), an anonymous
    place stayed taken until the process restarted. So `leave()` runs in a `finally`
    around the consumer's life, and from `disconnect`; it does its work once."""

    group: str | None = None
    _membership: asyncio.Future | None = None

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        finally:
            await self.leave()

    async def join(self, group: str) -> None:
        """Join `group` and stay in it (raises if the layer is down: nothing is held)."""
        await self.channel_layer.group_add(group, self.channel_name)
        self.group = group
        self._membership = asyncio.ensure_future(
            keep_membership(self.channel_layer, group, self.channel_name))

    async def disconnect(self, code):
        await self.leave()

    async def leave(self) -> None:
        """Stop renewing and leave the group (once). Subclasses give back what else
        they hold, then call this."""
        if self._membership is not None:
            self._membership.cancel()
            self._membership = None
        group, self.group = self.group, None
        if group:
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except Exception:  # noqa: BLE001 - Redis down: the entry expires by itself
                log.warning("could not leave group %s", group, exc_info=True)


# -- the shared renders -----------------------------------------------------------

CSRF_FIELD = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')


@dataclass(frozen=True)
class TableInfo:
    """What a push needs to know of a table before rendering: read once per seq."""

    table: Any  # the Table, with its seats (and their users) prefetched
    seq: int
    status: str
    seat_of_user: dict  # user id -> position
    rev: str = ""  # set for redraws without a new event (the seq alone does not tell)


@dataclass(frozen=True)
class Rendered:
    html: str
    seq: int
    log_total: int


def view_key(info: TableInfo, user) -> str:
    """Which shared render a connection gets: its seat, the spectators, or itself (lobby)."""
    user_id = user.pk if getattr(user, "is_authenticated", False) else None
    if info.status == "open":
        return f"u{user_id}" if user_id else "anon"
    position = info.seat_of_user.get(user_id) if user_id else None
    return f"s{position}" if position is not None else "spectator"


class _RenderRequest:
    """The little of a request the templates use; the same for every connection of a view."""

    def __init__(self, user, host: str, scheme: str):
        self.user = user
        self.session = {}
        self.htmx = True
        # A throwaway secret: each connection's own token replaces it (see personalise).
        self.META = {"CSRF_COOKIE": secrets.token_hex(16)}
        self.GET = {}
        self.scheme = scheme
        self._host = host
        self.path = ""

    def build_absolute_uri(self, location: str) -> str:
        return f"{self.scheme}://{self._host}{location}"

    def get_full_path(self) -> str:
        return self.path


def load_info(table_id: int, rev: str = "") -> TableInfo | None:
    from .models import Table
    from .replay import current_state, remember_state
    from .selectors import Viewer, seat_rows, seats_of, table_notices

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seats = seats_of(table)
    # What every view's render of this change reads alike, read once here for all of
    # them: the state (one snapshot decode), the seats' vacations, the table's notices.
    if table.status != Table.Status.OPEN:
        remember_state(table, current_state(table))
        seat_rows(table, Viewer())
        table_notices(table, [])
    return TableInfo(table=table, seq=table.seq, status=table.status,
                     seat_of_user={s.user_id: s.position for s in seats if s.user_id}, rev=rev)


def render_push(info: TableInfo, key: str, user, language: str, log_after: int | None,
                host: str, scheme: str) -> Rendered:
    """The push for one view: board, prompt, seats; the log from `log_after` (None: all)."""
    from .views import table_context

    render_user = user if key != "spectator" and key != "anon" else AnonymousUser()
    request = _RenderRequest(render_user, host, scheme)
    with translation.override(language):
        if log_after is None:
            context = table_context(request, info.table, oob=True)
        else:
            context = table_context(request, info.table, oob=True, log_after=log_after,
                                    log_last=None)
        html = render_to_string("tables/_push.html", {
            **context, "full_log": log_after is None,
            "include_turn_count": key.startswith("s"),
            "push_rev": info.rev,  # a redraw at the same seq: the page applies it (site.js)
        }, request)
    return Rendered(html=html, seq=info.seq, log_total=context["tv"].log_total)


class SharedRenders:
    """A small per-process cache of in-flight and recent renders, keyed by view."""

    def __init__(self, size: int = 512, ttl: float = 30.0):
        self.size = size
        self.ttl = ttl
        self._items: OrderedDict[tuple, tuple[float, asyncio.Future]] = OrderedDict()
        self.renders = 0  # renders actually done (for tests and the bench)

    def _get(self, key: tuple, make: Callable[[], Any]) -> asyncio.Future:
        now = time.monotonic()
        hit = self._items.get(key)
        if hit is not None and now - hit[0] < self.ttl:
            future = hit[1]
            if not (future.done() and future.exception() is not None):
                return future
        future = asyncio.ensure_future(make())
        self._items[key] = (now, future)
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return future

    async def info(self, table_id: int, seq: int | None, rev: str = "") -> TableInfo | None:
        """The table as of at least `seq`, read once for every socket that needs it."""
        if seq is None:
            return await run(load_info, table_id, rev)
        return await asyncio.shield(self._get(("info", table_id, seq, rev),
                                              lambda: run(load_info, table_id, rev)))

    async def render(self, info: TableInfo, key: str, user, language: str,
                     log_after: int | None, host: str, scheme: str) -> Rendered:
        async def make():
            self.renders += 1
            return await run(render_push, info, key, user, language, log_after, host, scheme)

        cache_key = ("render", info.table.pk, info.seq, info.rev, key, language, log_after)
        return await asyncio.shield(self._get(cache_key, make))


_shared: dict[int, SharedRenders] = {}


def shared_renders() -> SharedRenders:
    """The cache of the running event loop (one per process in production)."""
    loop = asyncio.get_running_loop()
    cache = _shared.get(id(loop))
    if cache is None or getattr(cache, "_loop", None) is not loop:
        cache = SharedRenders()
        cache._loop = loop
        _shared.clear()
        _shared[id(loop)] = cache
    return cache


def personalise(html: str, csrf_token: str | None) -> str:
    """Put the connection's own CSRF token into a shared render's forms."""
    if not csrf_token:
        return html
    return CSRF_FIELD.sub(lambda m: m.group(1) + csrf_token + m.group(2), html)


# -- anonymous socket limits ------------------------------------------------------

class AnonymousLimits:
    """Anonymous sockets open per client address and per table, in this process."""

    def __init__(self):
        self.by_address: dict[str, int] = {}
        self.by_table: dict[int, int] = {}

    def admit(self, address: str, table_id: int) -> bool:
        if (self.by_address.get(address, 0) >= settings.WS_ANON_PER_ADDRESS
                or self.by_table.get(table_id, 0) >= settings.WS_ANON_PER_TABLE):
            return False
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.by_table[table_id] = self.by_table.get(table_id, 0) + 1
        return True

    def release(self, address: str, table_id: int) -> None:
        for counts, key in ((self.by_address, address), (self.by_table, table_id)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)


anonymous_limits = AnonymousLimits()
