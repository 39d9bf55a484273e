"""Finish a game in the browser, step through its replay with the keyboard, then rematch."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, sign_in, verified_user

pytestmark = pytest.mark.browser


def _last_play_is_anas(table, ana):
    """High Card's last decision: round 3, both to play; the other seat plays first."""
    from games.tables.replay import current_state

    state = current_state(table)
    return state["round"] == 3 and state["phase"] == "play" and len(table.to_move) == 2


def test_finish_replay_with_the_keyboard_then_rematch(new_context, live_server_asgi, shots_dir):
    from games.history.models import Rematch
    from games.tables import actions
    from games.tables.models import Table
    from tests.history.helpers import new_table, play

    ana, bo = verified_user("ana"), verified_user("bo")
    table = new_table([ana, bo], "high-card", seed=4242)
    play(table, until=lambda t: _last_play_is_anas(t, ana))
    bo_seat = table.seats.get(user=bo).position
    from games.tables.replay import current_state
    card = current_state(table)["hands"][bo_seat][0]
    actions.check_submit_move(table_id=table.pk, seat=bo_seat, move={"type": "play", "card": card},
                              based_on=table.seq, actor=bo)

    page = new_context().new_page()
    sign_in(page, login="ana")
    page.goto(f"/tables/{table.pk}/")
    # 1. Ana makes the last decision on the board: the game ends.
    page.locator("form.move-form button").first.click()
    expect(page.locator("#status .outcome")).to_be_visible()
    assert Table.objects.get(pk=table.pk).status == Table.Status.FINISHED

    # 2. The replay opens at the end; the keyboard steps through it.
    page.get_by_role("link", name="Replay the game step by step").click()
    page.wait_for_load_state("load")  # the keys below need the replay's script (failed on a busy run)
    position = page.get_by_test_id("replay-position")
    last = Table.objects.get(pk=table.pk).events.filter(
        kind__in=("start", "move", "resign", "timeout", "abandon")).count() - 1
    expect(position).to_have_text(f"{last} of {last}")
    page.keyboard.press("Home")
    expect(position).to_have_text(f"0 of {last}")
    expect(page.get_by_test_id("replay-now")).to_have_text("The start of the game.")
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"1 of {last}")
    expect(page).to_have_url(re.compile(r"step=1"))
    expect(page.locator("[data-testid=replay-log] li.current")).not_to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"2 of {last}")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"1 of {last}")
    page.keyboard.press("End")
    expect(position).to_have_text(f"{last} of {last}")
    # Everybody's hands after the end: one board per seat.
    page.get_by_label("Seen by").select_option("all")
    expect(page.locator(".replay-board")).to_have_count(2)
    page.screenshot(path=str(shots_dir / "replay-desktop.png"), full_page=True)

    # 3. Rematch from the table page: Bo is invited and accepts by joining, on a phone.
    page.get_by_role("link", name="Back to the table").click()
    page.get_by_role("button", name="Rematch").click()
    expect(page.locator(".messages")).to_contain_text("Rematch!")
    rematch = Rematch.objects.get(original_id=table.pk).table
    expect(page).to_have_url(re.compile(rf"/tables/{rematch.pk}/$"))
    phone = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sign_in(phone, login="bo")
    phone.goto("/")
    phone.get_by_role("link", name=re.compile(rf"#{rematch.pk}")).first.click()
    phone.get_by_role("button", name="Join this table").click()
    expect(phone.locator("#status")).to_contain_text("Running")
    rematch.refresh_from_db()
    assert rematch.status == Table.Status.RUNNING
    before = {s.position: s.user_id for s in table.seats.all()}
    assert {s.position: s.user_id for s in rematch.seats.all()} == {
        (p + 1) % 2: u for p, u in before.items()}
    phone.screenshot(path=str(shots_dir / "rematch-phone.png"), full_page=True)


def test_replay_steps_without_javascript_on_a_phone_in_spanish(new_context, live_server_asgi):
    from tests.history.helpers import new_table, play

    ana, bo = verified_user("ana"), verified_user("bo")
    table = play(new_table([ana, bo], "high-card", seed=4343))
    page = new_context(java_script_enabled=False, viewport=PHONE, is_mobile=True,
                       locale="es-ES").new_page()
    page.goto(f"/tables/{table.pk}/replay/?step=0")  # readable without signing in
    position = page.get_by_test_id("replay-position")
    expect(position).to_contain_text("0 de")
    expect(page.get_by_test_id("replay-now")).to_have_text("El comienzo de la partida.")
    page.get_by_role("link", name="Siguiente").click()
    expect(position).to_contain_text("1 de")
    page.get_by_label("Decisión").fill("5")
    page.get_by_role("button", name="Mostrar").click()
    expect(position).to_contain_text("5 de")
    page.get_by_label("Visto por").select_option("public")
    page.get_by_role("button", name="Mostrar").click()
    expect(page.get_by_test_id("replay-board-public")).to_be_visible()
