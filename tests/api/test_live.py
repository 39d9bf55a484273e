"""Against a live server (our Daphne entry point on loopback, PostgreSQL and Redis):
the stream, the example bot of docs/api.md playing every game, and Schemathesis."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from games.tables import actions
from games.tables.models import Table
from tests.conftest import uses_postgres, uses_redis
from tests.live.test_two_processes import free_port

pytestmark = [
    pytest.mark.skipif(not (uses_postgres() and uses_redis()),
                       reason="the live server shares PostgreSQL and Redis with the tests"),
    pytest.mark.services,
    pytest.mark.django_db(transaction=True),
    pytest.mark.alone,  # keep-alive timings and a time-boxed fuzz: not beside another worker
]

ROOT = Path(settings.BASE_DIR)
BOT = ROOT / "docs" / "examples" / "api_bot.py"
GAMES = ["powerhouse", "gizmos", "flaming-pyramids"]


@pytest.fixture(scope="module")
def site(django_db_setup, django_db_blocker):
    """One process of our Daphne entry point on a free loopback port, on the test database
    (keep-alive lines every 2 s). It may take long to start on a busy machine."""
    db = settings.DATABASES["default"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "API_STREAM_KEEPALIVE": "2",
           "DATABASE_URL": f"postgres://{db['USER'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
           "DB_POOL_MIN": "1", "DB_POOL_MAX": "4", "DB_POOL_TIMEOUT": "10"}
    env.pop("TEST_DB_NAME", None)
    port = free_port()
    with django_db_blocker.unblock(), tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, "-m", "config.daphne_server", "-b", "127.0.0.1",
                                 "-p", str(port), "config.asgi:application"],
                                cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + 180
            while True:
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/openapi.json",
                                           timeout=10)
                    break
                except (urllib.error.URLError, ConnectionError, OSError):
                    if proc.poll() is not None or time.monotonic() > deadline:
                        log.seek(0)
                        raise RuntimeError(f"the server did not start: {log.read()[-2000:]!r}")
                    time.sleep(0.5)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()


def test_the_bot_in_the_docs_is_the_example_file():
    text = (ROOT / "docs" / "api.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert BOT.read_text() in blocks


def _stream(site: str, raw: str):
    response = urllib.request.urlopen(urllib.request.Request(
        site + "/api/v1/stream", headers={"Authorization": f"Bearer {raw}"}), timeout=20)
    assert response.headers["Content-Type"] == "application/x-ndjson"
    return response


def _until(response, predicate, seconds=20):
    deadline = time.monotonic() + seconds
    seen = []
    while time.monotonic() < deadline:
        line = json.loads(response.readline())
        seen.append(line)
        if predicate(line):
            return seen
    raise AssertionError(f"not seen in time: {seen}")


def test_the_stream_tells_of_changes_and_turns_and_keeps_alive(site, running_table, token_for):
    from games.engine import get_rules
    from games.tables.replay import current_state

    table = running_table
    table.refresh_from_db()
    seat = table.to_move[0]
    user = table.seats.get(position=seat).user
    other = table.seats.exclude(position=seat).get()
    mine = _stream(site, token_for(user))
    theirs = _stream(site, token_for(other.user))
    hello = json.loads(mine.readline())
    assert hello == {"type": "hello", "user": user.username, "tables": [table.pk]}
    _until(mine, lambda e: e == {"type": "turn", "table": table.pk, "seq": table.seq})
    _until(theirs, lambda e: e["type"] == "table" and e["your_turn"] is False)
    move = get_rules(table.game).legal_moves(current_state(table), seat)[0]
    actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                              actor=user)
    table.refresh_from_db()
    _until(mine, lambda e: e["type"] == "table" and e["seq"] == table.seq)
    if other.position in table.to_move:
        _until(theirs, lambda e: e == {"type": "turn", "table": table.pk, "seq": table.seq})
    _until(mine, lambda e: e == {"type": "keepalive"}, seconds=10)
    # A table joined later is followed too.
    fresh = actions.check_create_table(creator=user, game="high-card", players=2)
    _until(mine, lambda e: e.get("table") == fresh.pk, seconds=10)
    mine.close()
    theirs.close()
    assert urllib.request.urlopen(site + "/api/v1/openapi.json", timeout=10).status == 200


def test_the_stream_limit_counts_every_process_and_frees_a_dead_ones_slots(
        site, running_table, token_for, settings):
    """Slots held from this process (as by another web process) count against the limit on
    the site's; a slot nobody renews frees itself after its lease; an open stream renews."""
    from asgiref.sync import async_to_sync

    from api import stream

    settings.API_STREAM_KEEPALIVE = 2  # as the site's: leases of 6 s
    limit = settings.API_STREAMS_PER_USER
    user = running_table.seats.first().user
    raw = token_for(user)
    claim = async_to_sync(stream.claim_slot)
    held = [claim(user.pk) for _ in range(limit - 1)]
    assert all(held)
    first = _stream(site, raw)
    assert json.loads(first.readline())["type"] == "hello"
    with pytest.raises(urllib.error.HTTPError) as refused:
        _stream(site, raw)
    assert refused.value.code == 429 and refused.value.headers["Retry-After"]
    assert refused.value.headers["Content-Type"] == "application/problem+json"
    # Nobody renews the slots held here (a process that died): they lapse.
    time.sleep(stream._lease_seconds() + 1)
    second = _stream(site, raw)
    assert json.loads(second.readline())["type"] == "hello"
    # Both streams still hold a slot (the first renewed past its first lease).
    again = [claim(user.pk) for _ in range(limit - 2)]
    assert all(again)
    assert claim(user.pk) is None
    for slot in again:
        async_to_sync(stream.release_slot)(*slot)
    first.close()
    second.close()


def test_open_streams_do_not_hold_database_connections(site, running_table, token_for):
    """More open streams than the site's pool has connections (DB_POOL_MAX 4): each stream
    borrows a connection only while it reads, so every one says hello and keeps alive, and
    a page still answers (a stream used to keep its connection until it ended)."""
    users = [seat.user for seat in running_table.seats.all()]
    streams = [_stream(site, token_for(user)) for user in users for _ in range(3)]
    for response in streams:
        assert json.loads(response.readline())["type"] == "hello"
    for response in streams:
        _until(response, lambda e: e == {"type": "keepalive"}, seconds=10)
    page = urllib.request.urlopen(site + f"/tables/{running_table.pk}/", timeout=10)
    assert page.status == 200
    for response in streams:
        response.close()


def test_the_stream_refuses_without_a_token(site):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(site + "/api/v1/stream", timeout=10)
    assert refused.value.code == 401
    assert refused.value.headers["Content-Type"] == "application/problem+json"


@pytest.mark.timeout(900)
@pytest.mark.parametrize("game", GAMES)
def test_the_example_bot_plays_a_whole_game_against_a_site_bot(site, game, make_user,
                                                               token_for):
    bot = make_user(f"bot-{game}"[:30], is_bot_account=True)
    table = actions.check_create_table(creator=bot, game=game, players=2, bots={1: "fast"})
    env = {**os.environ, "API_TOKEN": token_for(bot), "BOT_SEED": "7"}
    done = subprocess.run([sys.executable, str(BOT), site, str(table.pk)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED, done.stdout[-2000:]
    lines = done.stdout.splitlines()
    assert lines[-1].startswith("over ") and json.loads(lines[-1][5:]) == table.outcome
    assert "winners" in table.outcome
    moves = table.events.filter(kind="move")
    mine = moves.filter(seat=table.seats.get(user=bot).position)
    assert mine.exists() and all(e.actor_id == bot.pk for e in mine)
    assert mine.count() == sum(1 for line in lines if line.endswith(" moved"))
    print(f"{game}: {moves.count()} moves, {mine.count()} by the example bot")


# Checks of every answer Schemathesis draws: no 5xx, documented status codes, content
# types, headers and bodies matching their schemas, invalid input refused with a 4xx,
# and no operation that answers without its token.
SCHEMATHESIS_CHECKS = ("not_a_server_error,status_code_conformance,content_type_conformance,"
                       "response_headers_conformance,response_schema_conformance,"
                       "negative_data_rejection,ignored_auth")


@pytest.mark.timeout(600)
def test_schemathesis_finds_no_failures_in_the_openapi_schema(site, make_user, token_for,
                                                              tmp_path):
    """Bounded: a fixed seed, at most 15 examples per operation and 35 s of fuzzing (60 s
    until 2026-12-07: on the slowest machine so far it ran to that cap, and the whole suite
    to 16 minutes)."""
    ana, bo = make_user("ana"), make_user("bo")
    actions.check_create_table(creator=ana, game="high-card", players=2)
    table = actions.check_create_table(creator=bo, game="gizmos", players=2, bots={1: "fast"})
    assert table.status == Table.Status.RUNNING
    st = Path(sys.executable).with_name("st")
    command = [str(st), "run", f"{site}/api/v1/openapi.json",
               "-H", f"Authorization: Bearer {token_for(ana)}",
               "--exclude-path", "/api/v1/stream",  # endless by design: tests above
               "--checks", SCHEMATHESIS_CHECKS, "--phases", "examples,coverage,fuzzing",
               "--max-examples", "15", "--max-time", "35", "--seed", "20261201",
               "--workers", "1", "--request-timeout", "30", "--generation-database", "none",
               "--no-color", "--report", "junit", "--report-dir", str(tmp_path)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=480,
                              cwd=tmp_path)
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"Schemathesis ran over its time: {exc.stdout!r:.4000}") from None
    print(done.stdout[-3000:])
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]
    assert "No issues found" in done.stdout or "passed" in done.stdout.lower()
