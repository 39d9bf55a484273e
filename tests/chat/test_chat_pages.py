"""The chat on the table page, without JavaScript and with htmx: who reads what, and how."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine
from django.test import override_settings

from games.chat.models import ChatMessage, ChatReport
from games.tables import actions
from tests.pages import client_for, page

from .helpers import chat_html, post_chat, texts

pytestmark = pytest.mark.django_db


def test_each_reader_sees_the_channels_it_may_read(trio):
    table, ana, bo, cy = trio
    assert post_chat(ana, table, "hola bo").status_code == 303
    assert post_chat(bo, table, "hi ana").status_code == 303
    assert post_chat(cy, table, "nice opening").status_code == 303
    a, b = (table.seats.get(user=u).position for u in (ana, bo))
    rows = list(ChatMessage.objects.order_by("id").values_list("channel", "seat", "body"))
    assert rows == [("players", a, "hola bo"), ("players", b, "hi ana"),
                    ("spectators", None, "nice opening")]
    # Players read both channels (spectators shown by default); spectators only theirs.
    assert texts(chat_html(page(client_for(ana), table))) == ["hola bo", "hi ana", "nice opening"]
    assert texts(chat_html(page(client_for(cy), table))) == ["nice opening"]
    assert texts(chat_html(page(client_for(), table))) == ["nice opening"]
    # bo hides the spectators: only bo stops seeing them.
    response = client_for(bo).post(f"/tables/{table.pk}/chat/spectators", {"show": "0"})
    assert response.status_code == 302 or response.status_code == 303
    assert texts(chat_html(page(client_for(bo), table))) == ["hola bo", "hi ana"]
    assert texts(chat_html(page(client_for(ana), table)))[-1] == "nice opening"
    # A spectator cannot write into the players' channel by any field.
    client_for(cy).post(f"/tables/{table.pk}/chat/post", {"body": "x", "channel": "players"})
    assert ChatMessage.objects.filter(author=cy, channel="players").count() == 0


def test_a_message_is_shown_with_name_seat_mark_and_the_readers_time(trio):
    table, ana, bo, cy = trio
    with time_machine.travel(datetime(2027, 3, 1, 12, 0, tzinfo=dt_timezone.utc), tick=False):
        post_chat(ana, table, "good luck")
    # 12:00 UTC: 06:00 in Mexico City, 21:00 in Tokyo (bo reads in Spanish).
    html_ana = chat_html(page(client_for(ana), table))
    html_bo = chat_html(page(client_for(bo), table))
    a = table.seats.get(user=ana).position
    assert "1 Mar, 06:00" in html_ana and f"chat-seat-{a}" in html_ana and "ana" in html_ana
    assert "1 Mar, 21:00" in html_bo
    assert f"seat {a + 1}" in html_ana and f"plaza {a + 1}" in html_bo, "the seat in words too"
    assert f'class="chat-mark" aria-hidden="true">{"●▲"[a]}<' in html_ana


def test_htmx_post_answers_with_an_empty_form_and_the_new_message(trio):
    table, ana, bo, cy = trio
    response = post_chat(ana, table, "live one", htmx=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert '<form id="chat-form"' in html and "></textarea>" in html
    assert 'hx-swap-oob="beforeend:#chat-log-players"' in html and "live one" in html
    # A refusal keeps what was typed and says why.
    response = post_chat(ana, table, "x" * 501, htmx=True)
    html = response.content.decode()
    assert response.status_code == 200 and 'role="alert"' in html and "500" in html
    assert "x" * 501 in html and ChatMessage.objects.count() == 1


def test_html_scripts_and_long_words_render_as_text_and_links_are_the_only_markup(trio):
    table, ana, bo, cy = trio
    evil = ('<script>alert(1)</script> <b>bold</b> <img src=x onerror=alert(2)> '
            '"quoted" & ' + "W" * 300 + ' see https://example.org/rules?a=1&b=2 '
            'javascript:alert(3) {{ table.seed }} {% csrf_token %}')
    assert post_chat(ana, table, evil[:500]).status_code == 303
    html = chat_html(page(client_for(bo), table))
    [text] = texts(html)
    assert "<script" not in text and "<b>" not in text and "<img" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text and "&lt;b&gt;bold&lt;/b&gt;" in text
    assert "&quot;quoted&quot; &amp;" in text and "W" * 300 in text
    assert "{{ table.seed }}" in text and "{% csrf_token %}" in text
    # The only element inside the text is the link, with rel=nofollow.
    tags = re.findall(r"<(\w+)", text)
    assert tags == ["a"]
    assert '<a href="https://example.org/rules?a=1&amp;b=2" rel="nofollow">' in text
    assert 'href="javascript' not in text
    # Long unbroken words wrap instead of widening the page (see chat.css).
    from django.contrib.staticfiles import finders

    css = open(finders.find("chat/chat.css")).read()
    assert re.search(r"\.chat-text \{[^}]*overflow-wrap: anywhere", css)


def test_bad_input_is_refused_and_changes_nothing(trio, make_user):
    table, ana, bo, cy = trio
    client = client_for(ana)
    for body, says in (("", "Write something first."), ("   \n ", "Write something first."),
                       ("y" * 501, "at most 500 characters (this one has 501)")):
        response = client.post(f"/tables/{table.pk}/chat/post", {"body": body})
        assert response.status_code == 303
        assert says in page(client, table)
    assert ChatMessage.objects.count() == 0
    # Anonymous: sent to sign in; a GET is not allowed.
    response = client_for().post(f"/tables/{table.pk}/chat/post", {"body": "hi"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert client_for(ana).get(f"/tables/{table.pk}/chat/post").status_code == 405
    assert client_for(ana).post("/tables/999999/chat/post", {"body": "x"}).status_code == 404
    # A private table: a stranger can neither read nor write.
    eve = make_user("eve")
    private = actions.check_create_table(creator=ana, game="high-card", players=2,
                                         is_private=True)
    assert client_for(eve).post(f"/tables/{private.pk}/chat/post",
                                {"body": "hi"}).status_code == 404
    assert ChatMessage.objects.count() == 0
    # Exactly 500 characters is fine.
    assert post_chat(ana, table, "z" * 500).status_code == 303
    assert ChatMessage.objects.get().body == "z" * 500


def test_chat_stays_readable_after_the_end_and_closes_for_writing_after_some_days(trio, settings):
    settings.CHAT_CLOSE_AFTER_DAYS = 3
    table, ana, bo, cy = trio
    post_chat(ana, table, "before the end")
    actions.check_resign(table_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.status == "finished"
    assert post_chat(bo, table, "gg").status_code == 303
    end = table.finished_at
    with time_machine.travel(end + timedelta(days=3, minutes=1), tick=False):
        post_chat(ana, table, "too late")
        html = page(client_for(ana), table)
        assert "This chat is closed" in html and '<form id="chat-form"' not in html
        assert texts(chat_html(html)) == ["before the end", "gg"]
    assert not ChatMessage.objects.filter(body="too late").exists()


@override_settings(RATELIMIT_ENABLE=True, CHAT_RATE_LIMITS={"chat.post": ("3/m",)})
def test_chat_is_rate_limited_per_user_with_a_clear_message(trio):
    table, ana, bo, cy = trio
    with time_machine.travel(datetime(2027, 3, 1, 12, 0, 30, tzinfo=dt_timezone.utc), tick=False):
        for i in range(3):
            post_chat(ana, table, f"m{i}")
        response = post_chat(ana, table, "one too many", htmx=True)
        assert "You are sending messages too fast" in response.content.decode()
        post_chat(bo, table, "bo is not limited by ana")
    assert list(ChatMessage.objects.values_list("body", flat=True)) == [
        "m0", "m1", "m2", "bo is not limited by ana"]
    with time_machine.travel(datetime(2027, 3, 1, 12, 2, 0, tzinfo=dt_timezone.utc), tick=False):
        post_chat(ana, table, "later")
    assert ChatMessage.objects.filter(body="later").exists()


def test_limits_are_off_under_the_test_settings(trio):
    table, ana, bo, cy = trio
    for i in range(15):
        post_chat(ana, table, f"m{i}")
    assert ChatMessage.objects.count() == 15


def test_a_muted_user_is_never_shown_at_any_table(trio, make_user):
    table, ana, bo, cy = trio
    post_chat(cy, table, "spoiler from cy")
    other = actions.check_create_table(creator=cy, game="high-card", players=2)
    actions.check_join_table(table_id=other.pk, user=ana)
    post_chat(cy, other, "cy at another table")
    response = client_for(ana).post(f"/chat/mute/{cy.pk}",
                                    {"muted": "1", "next": f"/tables/{table.pk}/#chat"})
    assert response.status_code == 302 and response["Location"] == f"/tables/{table.pk}/#chat"
    assert texts(chat_html(page(client_for(ana), table))) == []
    assert texts(chat_html(page(client_for(ana), other))) == []
    assert texts(chat_html(page(client_for(bo), table))) == ["spoiler from cy"]
    settings_page = client_for(ana).get("/chat/settings/").content.decode()
    assert "Unmute cy" in settings_page
    client_for(ana).post(f"/chat/mute/{cy.pk}", {"muted": "0"})
    assert texts(chat_html(page(client_for(ana), table))) == ["spoiler from cy"]
    # No open redirect, and nobody mutes themself.
    response = client_for(ana).post(f"/chat/mute/{cy.pk}", {"muted": "1",
                                                            "next": "https://evil.example/"})
    assert response["Location"] == "/chat/settings/"
    client_for(ana).post(f"/chat/mute/{ana.pk}", {"muted": "1"})
    from games.chat.models import ChatMute

    assert not ChatMute.objects.filter(user=ana, muted=ana).exists()


def test_a_report_reaches_the_admin(trio, make_user):
    table, ana, bo, cy = trio
    post_chat(bo, table, "rude words here")
    message = ChatMessage.objects.get()
    form = client_for(ana).get(f"/chat/report/{message.pk}")
    assert form.status_code == 200 and "rude words here" in form.content.decode()
    response = client_for(ana).post(f"/chat/report/{message.pk}", {"reason": "insults"})
    assert response.status_code == 303
    report = ChatReport.objects.get()
    assert (report.reporter, report.message, report.reason) == (ana, message, "insults")
    # Someone who cannot read the message cannot report it (players' channel).
    assert client_for(cy).post(f"/chat/report/{message.pk}", {"reason": "x"}).status_code == 404
    staff = make_user("staff", is_staff=True, is_superuser=True)
    admin = client_for(staff).get("/admin/chat/chatreport/").content.decode()
    assert "rude words here" in admin and "insults" in admin
    detail = client_for(staff).get(f"/admin/chat/chatreport/{report.pk}/change/")
    assert detail.status_code == 200 and "rude words here" in detail.content.decode()


@pytest.mark.django_db(transaction=True)
def test_bots_greet_and_say_good_game_translated_and_can_be_switched_off(make_user):
    ana = make_user("ana")
    luis = make_user("luis", language="es")
    table = actions.check_create_table(creator=ana, game="high-card", players=4,
                                       bots={1: "random", 2: "random"})
    assert not ChatMessage.objects.exists(), "bots greet when the game starts, not before"
    actions.check_join_table(table_id=table.pk, user=luis)
    table.refresh_from_db()
    bots = sorted(table.seats.exclude(bot_level="").values_list("position", flat=True))
    phrases = list(ChatMessage.objects.filter(table=table).values_list("seat", "bot_phrase"))
    assert sorted(phrases) == [(bots[0], "hello"), (bots[1], "hello")]
    html = chat_html(page(client_for(ana), table))
    assert texts(html) == ["Hello! Have a good game."] * 2
    assert f"Bot {bots[0] + 1} (" in html and f"Bot {bots[1] + 1} (" in html
    actions.check_resign(table_id=table.pk, user=ana)
    actions.check_resign(table_id=table.pk, user=luis)  # the bots play on to the end
    table.refresh_from_db()
    assert table.is_over
    assert ChatMessage.objects.filter(table=table, bot_phrase="gg").count() == 2
    # Translated for each reader (luis reads in Spanish).
    spanish = chat_html(page(client_for(luis), table))
    assert "¡Hola! Buena partida." in spanish and "¡Bien jugado!" in spanish
    # Bots never chat otherwise: the phrases are said once however often the table changes.
    from games.chat import hooks

    hooks.table_moved(table.pk)
    assert ChatMessage.objects.filter(table=table).count() == 4
    client_for(ana).post("/chat/settings/", {"mail_chat": ""})  # bot greetings unticked
    assert texts(chat_html(page(client_for(ana), table))) == []


def test_the_panel_in_spanish(trio):
    table, ana, bo, cy = trio
    html = chat_html(page(client_for(bo), table))
    assert "Chat de los jugadores" in html and "Mensaje para los jugadores" in html
    assert "Enviar" in html
