"""The live stream of a token's owner: newline-delimited JSON over one long HTTP response.

An async view (served by Daphne) joins the channel layer's groups of the user
(`player-<id>`, fed by `broadcast.player_turns` after every move) and of each of
their open and running tables (`table-<id>`, fed by `broadcast.table_changed`,
also for joins and leaves). The layer carries ids and seqs only; each line is
read from the database for this user:

    {"type": "hello", "user": "ana", "tables": [12, 15]}
    {"type": "table", "table": 12, "seq": 40, "status": "running", "your_turn": false}
    {"type": "turn", "table": 12, "seq": 41}
    {"type": "keepalive"}

A `turn` line comes once per table and seq that waits on the user (also at
connect, for every table already waiting). Keep-alive lines come every
API_STREAM_KEEPALIVE seconds; every table is looked at again then too, so a
table joined elsewhere, or a push lost with the layer, costs one keep-alive.

A user may hold API_STREAMS_PER_USER streams at once across every web process: each
stream holds a slot in the shared cache (Redis in production), a lease renewed at
every keep-alive and freed when the stream ends, so a process that dies frees its
slots once their leases run out (three keep-alives).

Every database read runs through `database_sync_to_async`, which hands the connection
back to the pool after each read: an open stream holds no connection between its reads
(with plain `sync_to_async` a stream kept its connection until it ended, so a few open
streams emptied a web process's pool and its pages answered 503).
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import secrets
import time

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.http import StreamingHttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games.tables.broadcast import group_name
from games.tables.player_consumer import player_group

from .problems import Problem, from_problem

log = logging.getLogger(__name__)
CONTENT_TYPE = "application/x-ndjson"


# -- the streams a user holds, across processes ------------------------------------------

def _lease_seconds() -> int:
    """How long a slot stays taken without renewal: three keep-alives (whole seconds, as
    the cache counts them)."""
    return max(1, math.ceil(3 * settings.API_STREAM_KEEPALIVE))


def _slot_key(user_id: int, slot: int) -> str:
    return f"api:stream:{user_id}:{slot}"


async def claim_slot(user_id: int) -> tuple[str, str] | None:
    """Take a free one of the user's API_STREAMS_PER_USER slots: (key, lease), or None
    when every slot is held. `add` is atomic on the cache (SET NX on Redis)."""
    lease = secrets.token_hex(8)
    for slot in range(settings.API_STREAMS_PER_USER):
        key = _slot_key(user_id, slot)
        if await cache.aadd(key, lease, timeout=_lease_seconds()):
            return key, lease
    return None


async def renew_slot(key: str, lease: str) -> bool:
    """Keep the slot for another lease; False if it lapsed and another stream took it."""
    if await cache.aget(key) == lease:
        await cache.atouch(key, _lease_seconds())
        return True
    return await cache.aadd(key, lease, timeout=_lease_seconds())


async def release_slot(key: str, lease: str) -> None:
    if await cache.aget(key) == lease:
        await cache.adelete(key)


def _authenticate(request):
    """The token's owner (read scope), counted against its limits; or a Problem."""
    from . import auth

    header = request.headers.get("Authorization", "")
    scheme, _sep, raw = header.partition(" ")
    if scheme.lower() != "bearer" or not raw:
        raise Problem(401, "unauthorized", _(
            "Send a personal API token: Authorization: Bearer <token>. "
            "Tokens are made on your profile page."))
    return auth.read.authenticate(request, raw)


def followed_tables(user_id: int) -> list[int]:
    """The user's open and running tables, as the stream follows them at its start and at
    every keep-alive; an open stream counts as being at them, as a table page's socket
    does (turn mails wait while a client listens)."""
    from games.tables import presence
    from games.tables.models import Seat, Table

    seats = Seat.objects.filter(user_id=user_id,
                                table__status__in=[Table.Status.OPEN, Table.Status.RUNNING])
    table_ids = sorted(set(seats.values_list("table_id", flat=True)))
    presence.mark_present_at(table_ids=table_ids, user_id=user_id)
    return table_ids


def _table_line(user_id: int, table_id: int) -> dict | None:
    from games.tables.models import Table

    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        return None
    seat = table.seats.filter(user_id=user_id).first()
    if seat is None:
        return None
    your_turn = (table.status == Table.Status.RUNNING and not seat.is_bot
                 and seat.position in (table.to_move or []))
    return {"type": "table", "table": table.pk, "seq": table.seq, "status": table.status,
            "your_turn": your_turn}


def _line(data: dict) -> bytes:
    return (json.dumps(data, default=str) + "\n").encode()


async def _events(user_id: int, username: str, slot: tuple[str, str]):
    layer = get_channel_layer()
    channel = await layer.new_channel("api-stream")
    groups: set[str] = set()
    announced: set[tuple[int, int]] = set()
    last_seen: dict[int, tuple[int, str]] = {}

    async def follow() -> list[int]:
        table_ids = await database_sync_to_async(followed_tables)(user_id)
        # group_add also refreshes a membership before the layer's group expiry.
        for name in [player_group(user_id), *(group_name(t) for t in table_ids)]:
            await layer.group_add(name, channel)
            groups.add(name)
        return table_ids

    async def lines_for(table_id: int, *, force: bool = False):
        line = await database_sync_to_async(_table_line)(user_id, table_id)
        if line is None:
            return
        key = (line["seq"], line["status"])
        if force or last_seen.get(table_id) != key:
            last_seen[table_id] = key
            yield _line(line)
        if line["your_turn"] and (table_id, line["seq"]) not in announced:
            announced.add((table_id, line["seq"]))
            yield _line({"type": "turn", "table": table_id, "seq": line["seq"]})

    renewed = time.monotonic()
    try:
        table_ids = await follow()
        yield _line({"type": "hello", "user": username, "tables": table_ids})
        for table_id in table_ids:
            async for chunk in lines_for(table_id, force=True):
                yield chunk
        while True:
            if time.monotonic() - renewed >= settings.API_STREAM_KEEPALIVE:
                if not await renew_slot(*slot):
                    # Stalled past its lease, and another stream took the slot: this one
                    # ends (the client reconnects, and is told if it is over the limit).
                    log.warning("stream of user %s: its slot was taken, closing", user_id)
                    return
                renewed = time.monotonic()
            try:
                message = await asyncio.wait_for(layer.receive(channel),
                                                 timeout=settings.API_STREAM_KEEPALIVE)
            except asyncio.TimeoutError:
                yield _line({"type": "keepalive"})
                # A look at every table now and then: a push lost with the layer costs
                # at most one keep-alive, and new tables are followed.
                table_ids = await follow()
                for table_id in table_ids:
                    async for chunk in lines_for(table_id):
                        yield chunk
                continue
            table_id = message.get("table_id")
            if isinstance(table_id, int):
                if table_id not in table_ids:
                    table_ids = await follow()
                async for chunk in lines_for(table_id):
                    yield chunk
    finally:
        try:
            await release_slot(*slot)
        except Exception:  # noqa: BLE001 - the lease runs out by itself
            log.warning("stream of user %s: could not free its slot", user_id, exc_info=True)
        for name in groups:
            try:
                await layer.group_discard(name, channel)
            except Exception:  # noqa: BLE001 - the layer's expiry cleans up anyway
                log.warning("stream of user %s: could not leave %s", user_id, name, exc_info=True)


@csrf_exempt
async def stream(request):
    """GET /api/v1/stream: the token owner's live events, one JSON object a line."""
    if request.method != "GET":
        return from_problem(Problem(405, "bad_request", _("Use GET.")))
    try:
        token = await database_sync_to_async(_authenticate)(request)
    except Problem as exc:
        response = from_problem(exc)
        if exc.status == 401:
            response["WWW-Authenticate"] = 'Bearer realm="api"'
        return response
    user = token.user
    slot = await claim_slot(user.pk)
    if slot is None:
        return from_problem(Problem(429, "rate_limited", _(
            "You have %(n)s streams open already: close one first.")
            % {"n": settings.API_STREAMS_PER_USER}, retry_after=settings.API_STREAM_KEEPALIVE))
    response = StreamingHttpResponse(_events(user.pk, user.username, slot),
                                     content_type=CONTENT_TYPE)
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # proxies (nginx) pass each line on at once
    # No gzip: GZipMiddleware would hold small lines back in its compressor.
    response["Content-Encoding"] = "identity"
    return response


def openapi_path() -> dict:
    """The stream's entry in the OpenAPI document (it is not a ninja operation)."""
    problem = {"$ref": "#/components/schemas/ProblemOut"}
    return {"get": {
        "operationId": "api_stream", "summary": "Live events of your tables",
        "tags": ["stream"],
        "description": ("Newline-delimited JSON, one object a line, for as long as the "
                        "connection stays open: `hello`, `table` (a table of yours "
                        "changed), `turn` (it waits on you) and `keepalive`."),
        "security": [{"TokenAuth": []}],
        "responses": {
            "200": {"description": "The stream", "content": {CONTENT_TYPE: {"schema": {
                "type": "object", "required": ["type"], "properties": {
                    "type": {"type": "string", "enum": ["hello", "table", "turn", "keepalive"]},
                    "table": {"type": "integer"}, "seq": {"type": "integer"},
                    "status": {"type": "string"}, "your_turn": {"type": "boolean"},
                    "user": {"type": "string"},
                    "tables": {"type": "array", "items": {"type": "integer"}}}}}}},
            "401": {"description": "No valid token",
                    "content": {"application/problem+json": {"schema": problem}}},
            "403": {"description": "No read scope",
                    "content": {"application/problem+json": {"schema": problem}}},
            "429": {"description": "Too many streams or calls",
                    "content": {"application/problem+json": {"schema": problem}}},
        }}}
