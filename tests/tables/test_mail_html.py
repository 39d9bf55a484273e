"""Multipart mails that thread by table (issue 9): plain text plus an HTML card,
Message-IDs on the site's domain, a table's later mails replying to its first,
and a digest that lists each waiting table with its opponents, what happened
and the deadline in the player's time zone. A real SMTP server receives them."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine

from games.tables import actions, tasks
from games.tables.models import OutgoingMail, Table
from tests.tables.test_notify import body, owing, play, smtp, smtp_port  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def html_of(message) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def at(hours: float):
    return time_machine.travel(datetime(2027, 2, 1, 9, 0, tzinfo=dt_timezone.utc)
                               + timedelta(hours=hours), tick=False)


@pytest.fixture
def site(settings):
    settings.SITE_URL = "https://tables.example.org"
    return settings.SITE_URL


def test_turn_mails_are_multipart_cards_threaded_per_table(smtp, site, make_user):
    ana, bo = make_user("ana", timezone="Europe/Madrid"), make_user("bo")
    with at(0):
        one = actions.check_create_table(creator=ana, game="high-card", players=2)
        two = actions.check_create_table(creator=ana, game="high-card", players=2)
    with at(1):
        actions.check_join_table(table_id=one.pk, user=bo)
        actions.check_join_table(table_id=two.pk, user=bo)
    # Play both tables until ana has had two turn mails of each.
    hour = 2
    for _ in range(40):
        mine = {t: [m for m in smtp.to(ana) if f"table {t.pk}" in m["Subject"]] for t in (one, two)}
        if all(len(v) >= 2 for v in mine.values()):
            break
        for table in (one, two):
            table.refresh_from_db()
            if table.status != Table.Status.RUNNING:
                continue
            hour += 1
            with at(hour):
                play(table.pk, owing(table.pk)[0])
    for table in (one, two):
        mails = [m for m in smtp.to(ana) if f"table {table.pk}" in m["Subject"]]
        assert len(mails) >= 2, [m["Subject"] for m in smtp.to(ana)]
        first, later = mails[0], mails[1:]
        for message in mails:
            assert message.get_content_type() == "multipart/alternative"
            assert message["Message-ID"].strip().endswith("@tables.example.org>")
            text, html = body(message), html_of(message)
            assert "<style" not in html and 'style="' in html, "CSS not inlined"
            assert f"https://tables.example.org/tables/{table.pk}/" in html
            assert "High Card" in html and ("CET" in html or "CEST" in html)
            for line in text.split("Since your last move:")[-1].splitlines()[1:]:
                if not line.startswith("  - "):
                    break
                assert line[4:].replace("'", "&#x27;") in html, line
        assert first["In-Reply-To"] is None
        for message in later:
            assert message["In-Reply-To"].strip() == first["Message-ID"].strip()
            assert first["Message-ID"].strip() in message["References"]
    ids = {m["Message-ID"] for m in smtp.to(ana)}
    assert len(ids) == len(smtp.to(ana)), "Message-IDs must be unique"
    firsts = {[m for m in smtp.to(ana) if f"table {t.pk}" in m["Subject"]][0]["Message-ID"]
              for t in (one, two)}
    assert len(firsts) == 2, "two tables must not share a thread"


def test_digest_lists_each_table_with_opponents_what_happened_and_the_deadline(
        smtp, site, make_user):
    ana = make_user("ana", turn_mail="digest", digest_hour=8, timezone="America/New_York")
    bo, cy = make_user("bo"), make_user("cy")
    with at(0):
        tables = [actions.check_create_table(creator=ana, game="high-card", players=2,
                                             bots={1: "random"})]
        open_table = actions.check_create_table(creator=bo, game="high-card", players=3,
                                                bots={2: "random"})
    with at(0.5):
        actions.check_join_table(table_id=open_table.pk, user=ana)
    tables.append(open_table)
    hour = 1
    for _ in range(20):
        t = Table.objects.get(pk=open_table.pk)
        if t.seats.get(user=ana).position in t.to_move:
            break
        hour += 0.1
        with at(hour):
            seat = owing(t.pk)[0]
            play(t.pk, seat)
    for table in tables:
        table.refresh_from_db()
        assert table.seats.get(user=ana).position in table.to_move
    with time_machine.travel(datetime(2027, 2, 1, 13, 5, tzinfo=dt_timezone.utc), tick=False):
        tasks.send_digests()  # 08:05 in New York
    [digest] = smtp.to(ana)
    text, html = body(digest), html_of(digest)
    assert "2 tables are waiting on you" in digest["Subject"]
    assert text.count("(EST)") == 2 and html.count("(EST)") == 2
    assert "with bo, Bot (random)" in text or "with Bot (random), bo" in text, text
    assert "Bot (random)" in text
    assert text.count("Since your last move:") == 2, text
    for table in tables:
        assert f"https://tables.example.org/tables/{table.pk}/" in text
        assert f"https://tables.example.org/tables/{table.pk}/" in html
    assert html.count('class="button"') == 2 or html.count("Play now") == 2


def test_a_kind_with_only_a_text_template_gets_the_generic_card(smtp, site, make_user):
    """The vacation mail has no HTML template: it is multipart all the same."""
    from games.tables import notify
    from games.tables.models import Vacation

    ana, bo = make_user("ana"), make_user("bo")
    with at(0):
        table = actions.check_create_table(creator=ana, game="high-card", players=2)
    with at(1):
        actions.check_join_table(table_id=table.pk, user=bo)
        vacation = Vacation.objects.create(user=ana, starts_at=datetime(2027, 2, 1, 10, tzinfo=dt_timezone.utc),
                                           ends_at=datetime(2027, 2, 2, 10, tzinfo=dt_timezone.utc),
                                           days=1, auto=True)
        notify.vacation_mail(user_id=ana.pk, vacation_id=vacation.pk, table_ids=[table.pk])
    [mail] = smtp.to(ana, subject="vacation day")
    html = html_of(mail)
    assert mail.get_content_type() == "multipart/alternative"
    assert "one vacation day was spent" in html
    assert f"https://tables.example.org/tables/{table.pk}/" in html and 'class="button"' in html
    stored = OutgoingMail.objects.get(kind="vacation")
    assert stored.html and stored.message_id.endswith("@tables.example.org>")


def test_mails_in_spanish_have_a_spanish_card(smtp, site, make_user):
    ana, bo = make_user("ana", language="es", timezone="Europe/Madrid"), make_user("bo")
    with at(0):
        table = actions.check_create_table(creator=ana, game="high-card", players=2)
    with at(1):
        actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    if table.seats.get(user=bo).position == 0:
        with at(2):
            play(table.pk, 0)
    [mail] = smtp.to(ana)
    html = html_of(mail)
    assert mail["Subject"].startswith("[Pyramid Tables] Te toca:"), mail["Subject"]
    assert '<html lang="es">' in html and "Jugar ahora" in html and "Turno de:" in html
    assert "Hola, ana:" in html and "mesa" in html and "Darse de baja" in html
