"""The API in one process on the real database: reads, writes, refusals, tokens, bot accounts."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
import time_machine
from django.test import Client, override_settings

from games.engine import get_rules
from games.tables import actions
from games.tables.models import Table, TableEvent
from games.tables.replay import current_state

from .conftest import ApiClient

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def owing(table):
    table.refresh_from_db()
    seat = table.to_move[0]
    return seat, table.seats.get(position=seat).user


def test_without_a_token_or_with_a_bad_one_the_answer_is_a_401_problem(make_user):
    for raw in (None, "pt_nonsense", "nonsense"):
        response = ApiClient(raw).get("/me")
        assert response.status_code == 401
        assert response["Content-Type"] == PROBLEM
        body = response.json()
        assert body["code"] == "unauthorized" and body["status"] == 401 and body["detail"]
        assert response["WWW-Authenticate"].startswith("Bearer")


def test_the_session_of_the_site_is_never_accepted(running_table):
    """A signed-in browser (session cookie and CSRF token) cannot call the API."""
    seat, user = owing(running_table)
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    assert client.get("/api/v1/me").status_code == 401
    move = {"move": {"type": "keep"}, "based_on": running_table.seq, "key": "session-key-1"}
    response = client.post(f"/api/v1/tables/{running_table.pk}/moves", move,
                           content_type="application/json")
    assert response.status_code == 401
    assert not running_table.events.filter(kind="move").exists()


def test_me_and_games(make_user, api_for):
    ana = make_user("ana")
    api = api_for(ana, ["read"])
    me = api.get("/me").json()
    assert me == {"id": ana.pk, "username": "ana", "name": "ana", "bot_account": False,
                  "scopes": ["read"]}
    games = {g["slug"]: g for g in api.get("/games").json()}
    assert {"powerhouse", "gizmos", "flaming-pyramids"} <= set(games)
    fp = games["flaming-pyramids"]
    assert fp["name"] == "Flaming Pyramids" and fp["min_players"] >= 2
    assert [b["level"] for b in fp["bot_levels"]] == ["random", "fast", "strong", "expert"]
    assert {o["key"] for o in fp["options"]} >= {"curse", "fire_die"}
    assert fp["rules_version"] == get_rules("flaming-pyramids").rules_version


def test_a_read_token_cannot_play(running_table, api_for):
    seat, user = owing(running_table)
    api = api_for(user, ["read"])
    response = api.post(f"/tables/{running_table.pk}/moves",
                        {"move": {"type": "keep"}, "based_on": running_table.seq, "key": "k" * 10})
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert not running_table.events.filter(kind="move").exists()


def test_the_table_shows_the_seats_view_and_the_legal_moves_with_labels(running_table, api_for):
    table = running_table
    seat, user = owing(table)
    api = api_for(user)
    body = api.get(f"/tables/{table.pk}").json()
    state = current_state(table)
    rules = get_rules(table.game)
    assert body["view"] == rules.view(state, seat)
    assert body["your_seat"] == seat and body["your_turn"] is True
    assert body["seq"] == table.seq and body["status"] == "running"
    assert [s["position"] for s in body["seats"]] == [0, 1]
    assert next(s for s in body["seats"] if s["you"])["to_move"] is True
    moves = api.get(f"/tables/{table.pk}/moves").json()
    assert [m["move"] for m in moves["moves"]] == rules.legal_moves(state, seat)
    assert all(m["label"] for m in moves["moves"])
    # A signed-in stranger sees the spectator's view and owes nothing.
    from accounts.models import User

    eve = User.objects.create_user("eve", "eve@example.org", "x-Strong-pass-1")
    spectator = ApiClient(api_for(eve).raw)
    assert spectator.get(f"/tables/{table.pk}").json()["view"] == rules.view(state, None)
    assert spectator.get(f"/tables/{table.pk}/moves").json()["moves"] == []


def test_a_move_is_recorded_and_the_pages_refusals_come_as_problems(running_table, api_for):
    table = running_table
    seat, user = owing(table)
    other = table.seats.exclude(position=seat).get().user
    api, other_api = api_for(user), api_for(other)
    based_on = table.seq
    move = get_rules(table.game).legal_moves(current_state(table), seat)[0]

    illegal = api.post(f"/tables/{table.pk}/moves",
                       {"move": {"type": "fly"}, "based_on": based_on, "key": "illegal-1"})
    assert illegal.status_code == 400 and illegal["Content-Type"] == PROBLEM
    assert illegal.json()["code"] == "illegal_move"

    not_theirs = other_api.post(f"/tables/{table.pk}/moves",
                                {"move": move, "based_on": based_on, "key": "other-key-1"})
    assert not_theirs.status_code == 409 and not_theirs.json()["code"] == "not_your_decision"

    ok = api.post(f"/tables/{table.pk}/moves", {"move": move, "based_on": based_on,
                                                "key": "first-move-1"})
    assert ok.status_code == 200, ok.content
    assert ok.json()["seq"] == based_on + 1 and ok.json()["recorded_earlier"] is False

    stale = api.post(f"/tables/{table.pk}/moves", {"move": move, "based_on": based_on,
                                                   "key": "second-try-2"})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_move"
    assert "Someone moved first" in stale.json()["detail"]
    assert table.events.filter(kind="move").count() == 1


def test_the_same_key_twice_writes_one_event(running_table, api_for):
    table = running_table
    seat, user = owing(table)
    api = api_for(user)
    move = get_rules(table.game).legal_moves(current_state(table), seat)[0]
    body = {"move": move, "based_on": table.seq, "key": "same-key-123"}
    first, again = (api.post(f"/tables/{table.pk}/moves", body) for _ in range(2))
    assert first.status_code == again.status_code == 200
    assert first.json()["recorded_earlier"] is False and again.json()["recorded_earlier"] is True
    assert table.events.filter(kind="move").count() == 1
    assert table.events.get(kind="move").submission_key == "same-key-123"


def test_bad_input_is_a_400_problem_and_changes_nothing(running_table, api_for):
    table = running_table
    seat, user = owing(table)
    api = api_for(user)
    before = TableEvent.objects.count()
    for body in ({}, {"move": "keep", "based_on": 0, "key": "abcdefgh"},
                 {"move": {}, "based_on": -1, "key": "abcdefgh"},
                 {"move": {}, "based_on": 0, "key": "short"},
                 {"move": {}, "based_on": 0, "key": "bad\x00key-123"}):
        response = api.post(f"/tables/{table.pk}/moves", body)
        assert response.status_code == 400, (body, response.content)
        assert response["Content-Type"] == PROBLEM and response.json()["code"] == "bad_request"
    assert api.get("/tables/0").status_code == 400
    assert api.get(f"/tables/{2**63}").status_code == 400
    assert api.get("/tables/999999").status_code == 404
    assert api.get(f"/tables/{table.pk}/events?since=-1").status_code == 400
    assert api.get(f"/tables/{table.pk}/events?since=a\x00").status_code == 400
    assert api.post("/tables", {"game": "chess", "players": 2}).json()["code"] == "refused"
    assert TableEvent.objects.count() == before


def test_private_tables_are_not_found_for_strangers(make_user, api_for):
    ana, eve = make_user("ana"), make_user("eve")
    table = actions.check_create_table(creator=ana, game="high-card", players=2, is_private=True)
    assert api_for(eve).get(f"/tables/{table.pk}").status_code == 404
    assert api_for(eve).post(f"/tables/{table.pk}/join").status_code == 404
    assert api_for(ana).get(f"/tables/{table.pk}").status_code == 200


def test_create_join_leave_resign_and_lists(make_user, api_for):
    ana, bo = make_user("ana"), make_user("bo")
    a, b = api_for(ana), api_for(bo)
    created = a.post("/tables", {"game": "high-card", "players": 3, "bots": {"2": "random"}})
    assert created.status_code == 201, created.content
    table_id = created.json()["id"]
    assert created.json()["status"] == "open" and created.json()["view"] is None
    assert table_id in [t["id"] for t in b.get("/tables/open").json()]
    assert b.post(f"/tables/{table_id}/join").json()["status"] == "running"
    mine = b.get("/tables/mine").json()
    listed = [t["id"] for t in mine["waiting"] + mine["running"]]
    assert table_id in listed
    table = Table.objects.get(pk=table_id)
    resigned = b.post(f"/tables/{table_id}/resign")
    assert resigned.status_code == 200
    assert table.seats.get(user=bo).resigned
    again = b.post(f"/tables/{table_id}/resign")
    assert again.status_code in (400, 409) and again["Content-Type"] == PROBLEM
    # Leaving works before the start only.
    other = a.post("/tables", {"game": "high-card", "players": 2}).json()["id"]
    assert b.post(f"/tables/{other}/join").status_code == 200
    assert b.post(f"/tables/{other}/leave").json()["code"] == "refused"


def test_events_since_carry_the_seats_log_and_only_its_own_moves(running_table, api_for):
    table = running_table
    rules = get_rules(table.game)
    api = {s.position: api_for(s.user) for s in table.seats.all()}
    for _ in range(4):
        seat, user = owing(table)
        move = rules.legal_moves(current_state(table), seat)[0]
        actions.check_submit_move(table_id=table.pk, seat=seat, move=move, based_on=table.seq,
                                  actor=user)
        table.refresh_from_db()
    for position, client in api.items():
        body = client.get(f"/tables/{table.pk}/events?since=0").json()
        assert body["seq"] == table.seq and [e["seq"] for e in body["events"]] == list(
            range(1, table.seq + 1))
        view = rules.view(current_state(table), position)
        written = [entry for e in body["events"] for entry in e["log"]]
        assert written == view["log"][-len(written):] if written else True
        for event in body["events"]:
            if event["move"] is not None:
                assert event["seat"] == position and event["kind"] == "move"
        later = client.get(f"/tables/{table.pk}/events?since={table.seq - 1}").json()
        assert [e["seq"] for e in later["events"]] == [table.seq]
        assert client.get(f"/tables/{table.pk}/events?since={table.seq}").json()["events"] == []


@override_settings(RATELIMIT_ENABLE=True, API_RATE="3/m", API_WRITE_RATE="2/m")
def test_rate_limits_per_token_answer_429_with_retry_after(make_user, api_for):
    from django.core.cache import cache

    cache.clear()
    ana = make_user("ana")
    first, second = api_for(ana), api_for(ana)
    # The clock stopped: the counts are per fixed minute, and calls that straddled its
    # end would start counting again (tests/hardening/test_throttles.py's one_moment).
    with time_machine.travel(datetime.now(timezone.utc), tick=False):
        answers = [first.get("/me").status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]
        limited = first.get("/me")
        assert limited["Content-Type"] == PROBLEM and limited.json()["code"] == "rate_limited"
        assert 1 <= int(limited["Retry-After"]) <= 60
        assert second.get("/me").status_code == 200  # per token


def test_tokens_are_made_shown_once_and_revoked_on_the_profile_page(make_user):
    from api.models import ApiToken

    ana = make_user("ana")
    client = Client(HTTP_HOST="localhost")
    client.force_login(ana)
    page = client.get("/profile/").content.decode()
    assert "API tokens" in page and "You have no API tokens." in page
    made = client.post("/profile/tokens/", {"name": "my bot", "scopes": ["read", "play"]})
    assert made.status_code == 200 and made["Cache-Control"] == "no-store"
    html = made.content.decode()
    token = ApiToken.objects.get(user=ana)
    import re

    raw = re.search(r'id="new-token-value" type="text" readonly size="50" value="([^"]+)"',
                    html).group(1)
    assert raw.startswith("pt_") and raw not in (token.digest, token.prefix)
    assert ApiClient(raw).get("/me").json()["username"] == "ana"
    assert raw not in client.get("/profile/").content.decode()  # shown once only
    assert client.post("/profile/tokens/", {"name": "", "scopes": []}).status_code == 400
    revoked = client.post(f"/profile/tokens/{token.pk}/revoke")
    assert revoked.status_code == 302
    assert ApiClient(raw).get("/me").status_code == 401
    # Another user cannot revoke it (nothing happens).
    bo = make_user("bo")
    other = Client(HTTP_HOST="localhost")
    other.force_login(bo)
    _t, raw2 = __import__("api.tokens", fromlist=["x"]).check_create_token(
        user=ana, name="two", scopes=["read"])
    other.post(f"/profile/tokens/{ApiToken.objects.get(name='two').pk}/revoke")
    assert ApiClient(raw2).get("/me").status_code == 200


def test_a_bot_account_has_a_badge_and_plays_only_through_the_api(running_table, api_for):
    from django.utils import translation

    table = running_table
    seat, user = owing(table)
    user.is_bot_account = True
    user.save()
    assert user.name == f"{user.username} [bot]"
    with translation.override("es"):
        assert "[bot]" in user.name
    client = Client(HTTP_HOST="localhost")
    client.force_login(user)
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert f"{user.username} [bot]" in page
    move = get_rules(table.game).legal_moves(current_state(table), seat)[0]
    import json

    refused = client.post(f"/tables/{table.pk}/move", {"move": json.dumps(move),
                                                       "based_on": table.seq})
    assert refused.status_code == 403
    assert "plays only through the API" in refused.content.decode()
    assert not table.events.filter(kind="move").exists()
    assert client.post("/tables/new/", {"game": "high-card"}).status_code == 403
    ok = api_for(user).post(f"/tables/{table.pk}/moves",
                            {"move": move, "based_on": table.seq, "key": "bot-move-1"})
    assert ok.status_code == 200
    assert api_for(user).get("/me").json()["bot_account"] is True
    other = table.seats.exclude(user=user).get().user
    other_client = Client(HTTP_HOST="localhost")
    other_client.force_login(other)
    assert f"{user.username} [bot]" in other_client.get(f"/tables/{table.pk}/").content.decode()


def test_the_openapi_document_and_the_docs_page(make_user):
    client = Client(HTTP_HOST="localhost")
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["info"]["title"] == "Pyramid Tables API"
    paths = schema["paths"]
    for path in ("/api/v1/games", "/api/v1/tables/{table_id}", "/api/v1/tables/{table_id}/moves",
                 "/api/v1/tables/{table_id}/events", "/api/v1/stream", "/api/v1/tables/mine"):
        assert path in paths
    errors = paths["/api/v1/tables/{table_id}/moves"]["post"]["responses"]["409"]["content"]
    assert list(errors) == [PROBLEM]
    docs = client.get("/api/v1/docs")
    html = docs.content.decode()
    assert docs.status_code == 200 and "swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower() and "<script>" not in html
    assert "script-src 'self'" in docs["Content-Security-Policy"]


def test_spanish_on_the_profile_page_and_in_problems(make_user):
    ana = make_user("ana", language="es")
    client = Client(HTTP_HOST="localhost")
    client.force_login(ana)
    page = client.get("/profile/").content.decode()
    assert "Tokens de la API" in page and "Crear un token" in page
    assert "sta cuenta es un bot" in page  # the label starts with a capital
    refused = ApiClient(None).get("/me", HTTP_ACCEPT_LANGUAGE="es")
    assert refused.json()["title"] == "Hace falta un token de la API válido"
    assert ApiClient(None).get("/me").json()["title"] == "A valid API token is needed"


def test_the_record_of_a_finished_table_is_the_pages_record(running_table, api_for):
    """Refused while the game is on (409 `not_finished`); once it ends, the same document
    as the page's record.json, which replays to the table's final state."""
    from games.history import records

    table = running_table
    seat, user = owing(table)
    api = api_for(user)
    early = api.get(f"/tables/{table.pk}/record")
    assert early.status_code == 409 and early["Content-Type"] == PROBLEM
    assert early.json()["code"] == "not_finished"
    for n in range(200):  # High Card ends in a few dozen decisions
        table.refresh_from_db()
        if table.status == Table.Status.FINISHED:
            break
        seat, user = owing(table)
        mover = api_for(user)
        move = mover.get(f"/tables/{table.pk}/moves").json()["moves"][0]["move"]
        answer = mover.post(f"/tables/{table.pk}/moves",
                            {"move": move, "based_on": table.seq, "key": f"record-{n:04d}"})
        assert answer.status_code == 200, answer.content
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    body = api.get(f"/tables/{table.pk}/record")
    assert body.status_code == 200, body.content
    record = body.json()
    assert record == json.loads(json.dumps(records.export(table)))
    assert record["outcome"] == table.outcome and len(record["events"]) == table.events.count()
    records.verify(record)  # replays to the stored final state, or raises
    # A stranger reads it exactly when the table's page is theirs to see.
    eve = make_stranger()
    expected = 200 if actions.can_see(table, eve) else 404
    assert api_for(eve).get(f"/tables/{table.pk}/record").status_code == expected


def make_stranger():
    from accounts.models import User

    return User.objects.create_user("rec-eve", "rec-eve@example.org", "x-Strong-pass-1")
