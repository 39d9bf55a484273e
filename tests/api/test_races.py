"""Races through the API on PostgreSQL, with threads: one key twice writes one event; two
keys at once give one success and one "someone moved first"."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.engine import get_rules
from games.tables.models import TableEvent
from games.tables.replay import current_state

pytestmark = pytest.mark.django_db(transaction=True)


def race(calls):
    """Run the calls at once (a barrier), each in its own thread and connection."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            response = call()
            results[i] = (response.status_code, response.json())
        except Exception as exc:  # noqa: BLE001 - shown by the assertion
            results[i] = (0, repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


def setup(table, api_for):
    table.refresh_from_db()
    seat = table.to_move[0]
    user = table.seats.get(position=seat).user
    moves = get_rules(table.game).legal_moves(current_state(table), seat)
    return api_for(user), moves, table.seq


def test_the_same_key_racing_itself_writes_one_event(running_table, api_for):
    api, moves, seq = setup(running_table, api_for)
    body = {"move": moves[0], "based_on": seq, "key": "one-key-twice"}
    path = f"/tables/{running_table.pk}/moves"
    results = race([lambda: api.post(path, body), lambda: api.post(path, body)])
    assert [status for status, _b in results] == [200, 200], results
    assert sorted(b["recorded_earlier"] for _s, b in results) == [False, True]
    assert TableEvent.objects.filter(table=running_table, kind="move").count() == 1


def test_two_keys_racing_give_one_success_and_one_someone_moved_first(running_table, api_for):
    api, moves, seq = setup(running_table, api_for)
    path = f"/tables/{running_table.pk}/moves"
    results = race([
        lambda: api.post(path, {"move": moves[0], "based_on": seq, "key": "first-key-a"}),
        lambda: api.post(path, {"move": moves[-1], "based_on": seq, "key": "second-key-b"}),
    ])
    statuses = sorted(status for status, _b in results)
    assert statuses == [200, 409], results
    loser = next(b for s, b in results if s == 409)
    assert loser["code"] == "stale_move" and "Someone moved first" in loser["detail"]
    assert TableEvent.objects.filter(table=running_table, kind="move").count() == 1


def test_tokens_made_at_once_never_pass_the_cap(make_user, monkeypatch):
    """A user one short of the cap makes two tokens at once: the first is held between
    its check of the cap and its insert while the second runs; exactly one is made."""
    import secrets as real_secrets

    from api import tokens
    from api.models import ApiToken
    from games.tables.errors import ActionError

    ana = make_user("ana")
    for i in range(tokens.MAX_ACTIVE - 1):
        tokens.check_create_token(user=ana, name=f"t{i}", scopes=["read"])
    first_checked, go_on = threading.Event(), threading.Event()

    class Held:
        """secrets for tokens.py: the first caller (past the cap check) waits for go_on."""
        calls = 0

        def token_urlsafe(self, n):
            Held.calls += 1
            if Held.calls == 1:
                first_checked.set()
                go_on.wait(30)
            return real_secrets.token_urlsafe(n)

    monkeypatch.setattr(tokens, "secrets", Held())
    outcomes = {}

    def make(name):
        try:
            tokens.check_create_token(user=ana, name=name, scopes=["read"])
            outcomes[name] = "made"
        except ActionError:
            outcomes[name] = "refused"
        finally:
            connection.close()

    first = threading.Thread(target=make, args=("first",))
    first.start()
    assert first_checked.wait(30)
    second = threading.Thread(target=make, args=("second",))
    second.start()
    second.join(1.0)  # without a lock it is done by now; with one it waits for the first
    go_on.set()
    first.join(30)
    second.join(30)
    assert outcomes == {"first": "made", "second": "refused"}, outcomes
    assert ApiToken.objects.filter(user=ana, revoked_at__isnull=True).count() == tokens.MAX_ACTIVE
