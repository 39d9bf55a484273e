"""Fuzzing every form of the site and the table socket: never a 5xx, and a refusal changes nothing.

Hypothesis draws junk (NUL and other control characters, huge and deeply nested JSON,
absurd numbers and dates, non-UTF-8 bodies) for every field each view reads.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.tables.models import Invitation, Seat, Table, TableEvent, Vacation
from tests.pages import client_for

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=30, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

junk_text = st.one_of(
    st.text(max_size=60),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=300),
    st.sampled_from(["\x00", "²", "9999-12-31", "0000-00-00", "-1", "1e400", "NaN", "[" * 2000,
                     '{"a":' * 500, "9" * 40, "", " ", "true", "null", "%00", "\ud7ff"]),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.dates().map(lambda d: d.isoformat()),
)
json_junk = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                         | st.text(max_size=10),
                         lambda children: st.lists(children, max_size=3)
                         | st.dictionaries(st.text(max_size=5), children, max_size=3),
                         max_leaves=20).map(json.dumps)


def world():
    """What a refused request must leave alone."""
    return (list(Table.objects.order_by("pk").values_list("pk", "seq", "status", "snapshot",
                                                          "invite_token")),
            TableEvent.objects.count(), Invitation.objects.count(), Vacation.objects.count(),
            list(Seat.objects.order_by("pk").values_list("user_id", "bot_level", "muted",
                                                         "resigned")))


def not_a_real_move(text: str) -> bool:
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return True
    return not (isinstance(value, dict) and value.get("type") in {"keep", "draw", "play"})


def test_move_posts_never_5xx_and_junk_changes_nothing(running_table):
    table = running_table
    table.refresh_from_db()
    player = table.seats.get(position=table.to_move[0]).user
    client = client_for(player)

    @FUZZ
    @given(move=st.one_of(junk_text, json_junk).filter(not_a_real_move), based_on=junk_text,
           key=junk_text, htmx=st.booleans())
    def check(move, based_on, key, htmx):
        before = world()
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        response = client.post(f"/tables/{table.pk}/move",
                               {"move": move, "based_on": based_on, "key": key}, **headers)
        assert response.status_code < 500, (move, based_on, key)
        assert world() == before

    check()


def test_table_actions_never_5xx_and_refusals_change_nothing(running_table, make_user):
    table = running_table
    stranger = client_for(make_user("eve"))
    paths = ["invite", "invite-link", "join", "leave", "abort", "resign", "mute", "reclaim"]

    @FUZZ
    @given(path=st.sampled_from(paths), fields=st.dictionaries(
        st.sampled_from(["username", "muted", "invite", "next", "x\x00"]), junk_text, max_size=3))
    def check(path, fields):
        before = world()
        response = stranger.post(f"/tables/{table.pk}/{path}", fields)
        assert response.status_code < 500, (path, fields)
        assert world() == before

    check()


def test_pages_with_junk_parameters_never_5xx(running_table):
    table = running_table
    player = client_for(table.seats.get(position=0).user)
    anonymous = client_for()

    @FUZZ
    @given(path=st.sampled_from(["/", "/tables/", "/tables/next/", f"/tables/{table.pk}/",
                                 "/tables/new/", "/vacation/", "/profile/", "/accounts/login/"]),
           params=st.dictionaries(st.sampled_from(["after", "invite", "game", "next", "page", "q"]),
                                  junk_text, max_size=3),
           signed_in=st.booleans())
    def check(path, params, signed_in):
        before = world()
        response = (player if signed_in else anonymous).get(path, params)
        assert response.status_code < 500, (path, params)
        assert world() == before

    check()


def test_forms_never_5xx_and_refusals_change_nothing(make_user):
    ana = make_user("ana")
    make_user("bo")
    client = client_for(ana)
    new_table_fields = ["players", "is_private", "invitees", "clock", "bank_initial",
                        "bank_increment", "bank_cap", "timeout_policy", "seat_1", "seat_2",
                        "option_double_last", "option_variant"]

    @FUZZ
    @given(form=st.sampled_from(["new", "vacation", "profile", "login"]), game=st.sampled_from(
        ["high-card", "gizmos", "powerhouse", "flaming-pyramids", "nope", "\x00"]),
        fields=st.dictionaries(st.sampled_from(new_table_fields + [
            "first_day", "last_day", "display_name", "language", "timezone", "turn_mail",
            "digest_hour", "login", "password"]), junk_text, max_size=6))
    def check(form, game, fields):
        before = world()
        path = {"new": "/tables/new/", "vacation": "/vacation/", "profile": "/profile/",
                "login": "/accounts/login/"}[form]
        data = {**fields, "game": game} if form == "new" else fields
        response = client.post(path, data)
        assert response.status_code < 500, (path, data)
        if response.status_code >= 400 or response.status_code == 200:
            assert world() == before, (path, data)

    check()


def test_broken_bodies_never_5xx(running_table):
    client = client_for(running_table.seats.get(position=0).user)

    @FUZZ
    @given(body=st.binary(max_size=300), content_type=st.sampled_from([
        "application/x-www-form-urlencoded", "multipart/form-data; boundary=xyz",
        "multipart/form-data", "application/json", "text/plain; charset=latin-1"]))
    def check(body, content_type):
        before = world()
        for path in (f"/tables/{running_table.pk}/move", "/tables/new/", "/vacation/"):
            response = client.generic("POST", path, body, content_type=content_type)
            assert response.status_code < 500, (path, body)
        assert world() == before

    check()


@pytest.mark.django_db(transaction=True)
def test_socket_frames_never_break_the_socket_or_change_the_table(running_table):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.tables.test_consumers import HOST, ORIGIN, session_cookie

    table = running_table
    user = table.seats.get(position=0).user
    cookie = session_cookie(user)

    async def run(frames):
        comm = WebsocketCommunicator(application, f"/ws/tables/{table.pk}/",
                                     headers=[HOST, ORIGIN, (b"cookie", cookie)])
        connected, _ = await comm.connect(timeout=10)
        assert connected
        await comm.send_to(text_data='{"type": "hello", "seq": null}')
        await comm.receive_from(timeout=10)  # the page says it shows nothing: a full push
        before = await sync_to_async(world)()
        for frame in frames:
            key = "bytes" if isinstance(frame, bytes) else "text"
            await comm.send_input({"type": "websocket.receive", key: frame})
        # Nothing comes back for junk, and the socket stays open.
        assert await comm.receive_nothing(timeout=0.2)
        assert await sync_to_async(world)() == before
        await comm.disconnect()

    @settings(max_examples=25, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
    @given(frames=st.lists(st.one_of(junk_text, json_junk, st.binary(max_size=200),
                                     st.just('{"type": "heartbeat"}')), max_size=15))
    def check(frames):
        async_to_sync(run)(frames)

    check()
