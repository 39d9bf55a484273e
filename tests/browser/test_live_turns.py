"""A live "your turn" everywhere (issue 9), in Chromium against the real server.

Ana has two tables open in two tabs (and her dashboard in a third). When the second
table becomes her turn, every tab's header count and title update at once, the
dashboard lists it, and the tab showing the other table shows a browser
notification linking to it (she allowed notifications in her profile; the
permission is granted to the browser context, and an init script records each
notification, since headless Chromium displays none).
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from games.engine import get_rules
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state
from tests.browser.helpers import PHONE, sign_in, verified_user

pytestmark = pytest.mark.browser

RECORD_NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  window.__notices = [];
  function Recorded(title, options) {
    window.__notices.push({title: title, body: (options || {}).body || "", tag: (options || {}).tag || ""});
    try { return new Real(title, options); } catch (e) { return {}; }
  }
  Object.defineProperty(Recorded, "permission", {get: () => Real ? Real.permission : "denied"});
  Recorded.requestPermission = (...args) => Real.requestPermission(...args);
  window.Notification = Recorded;
})();
"""
PLAYER_LIVE = 'body[data-player-live="1"]'


def keep(table_id: int, user) -> None:
    table = Table.objects.get(pk=table_id)
    seat = table.seats.get(user=user).position
    move = next(m for m in get_rules(table.game).legal_moves(current_state(table), seat)
                if m["type"] == "keep")
    actions.check_submit_move(table_id=table_id, seat=seat, move=move, based_on=table.seq,
                              actor=user)


def move_elsewhere(table_id: int, user) -> None:
    from django.db import connection

    try:
        keep(table_id, user)
    finally:
        connection.close()


def bos_turn_table(ana, bo) -> Table:
    """A running High Card table between them that waits on bo only."""
    table = actions.check_create_table(creator=bo, game="high-card", players=2)
    actions.check_join_table(table_id=table.pk, user=ana)
    table.refresh_from_db()
    if table.seats.get(user=ana).position in table.to_move:
        keep(table.pk, ana)
        table.refresh_from_db()
    assert table.to_move == [table.seats.get(user=bo).position]
    return table


WORDS = {
    "en": {"none": "No table is waiting on you.", "table": "table {id}",
           "kept": "bo kept their hand.", "waiting": "Waiting for"},
    "es": {"none": "Ninguna mesa te está esperando.", "table": "mesa {id}",
           "kept": "bo se quedó con su mano.", "waiting": "Esperando a"},
}


@pytest.mark.parametrize("language, size", [("en", None), ("es", PHONE)], ids=["desktop-en", "phone-es"])
def test_the_second_table_becoming_my_turn_updates_every_tab_and_notifies(
        new_context, language, size):
    words = WORDS[language]
    ana, bo = verified_user("ana"), verified_user("bo")
    ana.notify_browser = True
    ana.save(update_fields=["notify_browser"])
    one, two = bos_turn_table(ana, bo), bos_turn_table(ana, bo)
    options = {"viewport": size, "is_mobile": True, "has_touch": True} if size else {}
    context = new_context(permissions=["notifications"], **options)
    context.add_init_script(RECORD_NOTIFICATIONS)
    first = context.new_page()
    sign_in(first, login="ana")
    ana.language = language  # her profile's language, from the next page on
    ana.save(update_fields=["language"])
    first.goto(f"/tables/{one.pk}/")
    second = context.new_page()
    second.goto(f"/tables/{two.pk}/")
    home = context.new_page()
    home.goto("/")
    for page in (first, second, home):
        expect(page.locator(PLAYER_LIVE)).to_have_count(1)
        expect(page.locator("#turn-count")).to_have_attribute("data-count", "0")
        assert not page.title().startswith("(")
    assert first.evaluate("Notification.permission") == "granted"
    expect(home.locator("#home-turns")).to_contain_text(words["none"])

    # The second table now waits on ana. Bo moves from another thread: Playwright's event
    # loop runs in this one, where the channel layer's async_to_sync cannot.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(move_elsewhere, two.pk, bo).result(timeout=30)

    for page in (first, second, home):
        expect(page.locator("#turn-count")).to_have_attribute("data-count", "1")
        expect(page).to_have_title(re.compile(r"^\(1\) "))
    expect(home.locator(f'#home-turns a[href="/tables/{two.pk}/"]')).to_have_count(1)
    first.wait_for_function("window.__notices.length > 0")
    [notice] = first.evaluate("window.__notices")
    assert words["table"].format(id=two.pk) in notice["title"], notice
    assert notice["tag"] == f"table-{two.pk}"
    assert words["kept"] in notice["body"], notice
    # The tab that shows the second table needs no notification; nor does table one change.
    assert second.evaluate("window.__notices") == []
    expect(first.locator("#status")).to_contain_text(words["waiting"])
