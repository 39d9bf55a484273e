"""A board that draws every move: in Chromium, the generic list is out of sight, yet a
keyboard or screen reader user reaches the same moves as labelled buttons (the list shows
when focus enters it), plays one with and without JavaScript, and axe finds nothing serious."""

from __future__ import annotations

from unittest import mock

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import AXE, BLOCKING, RUN_AXE
from tests.browser.test_table_page import page_for

pytestmark = pytest.mark.browser


@pytest.fixture
def powerhouse_table(make_user):
    from games.tables import actions
    from games.tables.models import Table

    ana = make_user("ana")
    with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: 1030):
        table = actions.check_create_table(creator=ana, game="powerhouse", players=2,
                                           bots={1: "fast"})
    table.refresh_from_db()
    assert table.seats.get(user=ana).position in table.to_move
    return ana, table


def first_move_label(table, user) -> str:
    from games.tables.selectors import table_view_for, viewer_for

    return table_view_for(table, viewer_for(table, user)).moves[0]["label"]


@pytest.mark.parametrize("javascript", [True, False])
def test_the_listed_moves_are_out_of_sight_until_the_keyboard_reaches_them(
        new_context, live_url, powerhouse_table, javascript):
    from games.tables.models import Table

    ana, table = powerhouse_table
    page = page_for(new_context, live_url, ana, java_script_enabled=javascript)
    if javascript:
        page.context.add_init_script(path=str(AXE))
    page.set_default_timeout(60_000)  # a Powerhouse page on a busy machine
    page.goto(f"/tables/{table.pk}/")
    listed = page.locator("#play-area .moves-for-screen-readers")
    expect(listed).to_have_count(1)
    assert listed.bounding_box()["width"] <= 1, "the list under the board is out of sight"
    expect(page.locator("#play-area details")).to_have_count(0)
    # A screen reader finds the move by its full label, in a list.
    label = first_move_label(table, ana)
    button = page.locator("#play-area").get_by_role("listitem").first.get_by_role("button",
                                                                                  name=label)
    expect(button).to_have_count(1)
    # Keyboard: focus in the list shows it where it is.
    button.focus()
    assert listed.bounding_box()["width"] > 100, "a focused move is seen"
    expect(button).to_be_visible()
    if javascript:
        found = [v for v in page.evaluate(RUN_AXE) if v["impact"] in BLOCKING]
        assert not found, found
    before = table.seq
    page.keyboard.press("Enter")
    for _ in range(300):
        table.refresh_from_db()
        if table.seq > before:
            break
        page.wait_for_timeout(100)
    assert table.seq > before, "the move was played"
    assert table.status in (Table.Status.RUNNING, Table.Status.FINISHED)
    assert table.events.filter(kind="move", actor=ana).count() == 1
