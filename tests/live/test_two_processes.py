"""Two web processes (our Daphne entry point) against one PostgreSQL and one Redis."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from http.cookies import SimpleCookie

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.test import Client

from games.engine import get_rules
from games.tables.models import Table, TableEvent
from games.tables.replay import current_state
from tests.conftest import uses_postgres, uses_redis

websockets_client = pytest.importorskip("websockets.asyncio.client")

pytestmark = [
    pytest.mark.skipif(not (uses_postgres() and uses_redis()),
                       reason="several processes share PostgreSQL and Redis"),
    pytest.mark.services,
    pytest.mark.alone,  # two servers and timed pushes: not beside another worker
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def web_processes(count: int):
    """`count` Daphne processes of the site on loopback, on the test database."""
    db = settings.DATABASES["default"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings",
           "DATABASE_URL": f"postgres://{db['USER'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "DB_POOL_MIN": "1", "DB_POOL_MAX": "3", "DB_POOL_TIMEOUT": "5"}
    env.pop("TEST_DB_NAME", None)
    procs, ports = [], []
    log = tempfile.TemporaryFile()
    try:
        for _ in range(count):
            port = free_port()
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "config.daphne_server", "-b", "127.0.0.1", "-p", str(port),
                 "config.asgi:application"],
                cwd=settings.BASE_DIR, env=env, stdout=subprocess.DEVNULL,
                stderr=log))
            ports.append(port)
        deadline = time.monotonic() + 40
        for proc, port in zip(procs, ports):
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2)
                    break
                except (urllib.error.URLError, ConnectionError, OSError):
                    if proc.poll() is not None:
                        log.seek(0)
                        raise RuntimeError(f"server on {port} exited: {log.read()[-2000:]!r}")
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"server on {port} did not answer in time")
                    time.sleep(0.3)
        yield ports
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def post_move(port: int, table_id: int, session: str) -> int:
    """Load the page from this process and post the owed move as htmx does."""
    base = f"http://127.0.0.1:{port}"
    page = urllib.request.urlopen(urllib.request.Request(
        f"{base}/tables/{table_id}/", headers={"Cookie": f"sessionid={session}"}), timeout=10)
    cookies = SimpleCookie()
    for header in page.headers.get_all("Set-Cookie") or []:
        cookies.load(header)
    html = page.read().decode()
    token = re.search(r'"X-CSRFToken": "([^"]+)"', html).group(1)
    table = Table.objects.get(pk=table_id)
    seat = table.to_move[0]
    move = get_rules(table.game).legal_moves(current_state(table), seat)[0]
    body = f"move={urllib.request.quote(json.dumps(move))}&based_on={table.seq}".encode()
    request = urllib.request.Request(f"{base}/tables/{table_id}/move", data=body, headers={
        "Cookie": f"sessionid={session}; csrftoken={cookies['csrftoken'].value}",
        "X-CSRFToken": token, "HX-Request": "true",
        "Content-Type": "application/x-www-form-urlencoded"})
    return urllib.request.urlopen(request, timeout=10).status


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_viewer_on_either_process_gets_every_push(running_table):
    table = running_table
    players = await sync_to_async(lambda: {s.position: session_of(s.user)
                                           for s in table.seats.select_related("user")})()
    with web_processes(2) as ports:
        viewers = []
        for port in ports:
            ws = await websockets_client.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/",
                origin=f"http://127.0.0.1:{port}", open_timeout=10)
            # Our entry point turns on permessage-deflate when the client offers it.
            assert "permessage-deflate" in ws.response.headers.get("Sec-WebSocket-Extensions", "")
            await ws.send(json.dumps({"type": "hello", "seq": table.seq, "log": 0}))
            viewers.append(ws)
        await asyncio.sleep(0.5)
        seqs = []
        for port in (ports[0], ports[1], ports[0]):  # moves posted to either process
            owing = await sync_to_async(lambda: Table.objects.get(pk=table.pk).to_move[0])()
            status = await sync_to_async(post_move)(port, table.pk, players[owing])
            assert status == 200
            seq = await sync_to_async(lambda: Table.objects.get(pk=table.pk).seq)()
            seqs.append(seq)
            for ws in viewers:
                while True:  # a viewer may be behind by several events: wait for this one
                    html = await asyncio.wait_for(ws.recv(), timeout=15)
                    found = re.search(r'data-seq="(\d+)"', html)
                    if found and int(found.group(1)) >= seq:
                        break
        for ws in viewers:
            await ws.close()
    moves = await sync_to_async(lambda: TableEvent.objects.filter(table=table, kind="move").count())()
    assert moves == 3 and seqs == sorted(seqs)
