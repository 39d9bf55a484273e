"""axe-core on every kind of page, at desktop size in English and at phone size in Spanish:
no serious or critical violation.

axe-core is vendored for the tests only (tests/browser/vendor/, from the npm package) and
injected by Playwright before the page's own scripts (an init script is not subject to the
page's Content Security Policy), so users never download it."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, sign_in, verified_user

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').slice(0, 160))}));
}"""
# AXE_ALL=1 lists the moderate and minor findings too (to look at, not a gate).
BLOCKING = {"serious", "critical"} | ({"moderate", "minor"} if os.environ.get("AXE_ALL") else set())


def setup_tables():
    """Tables of every state for ana (seated), run in a thread without an event loop."""
    from games.tables import actions
    from games.tables.models import Table

    ana, bo = verified_user("ana"), verified_user("bo")
    verified_user("cy")
    seeds = {"powerhouse": 1030, "gizmos": 21, "flaming-pyramids": 5}
    running, finished = {}, {}
    for game, seed in seeds.items():
        with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: seed):
            table = actions.check_create_table(creator=ana, game=game, players=2,
                                               bots={1: "fast"})
        running[game] = table.pk
        table = actions.check_create_table(creator=ana, game=game, players=2)
        actions.check_join_table(table_id=table.pk, user=bo)
        actions.check_resign(table_id=table.pk, user=bo)
        finished[game] = table.pk
    # A finished game that ended by its own rules, with the results panel: Powerhouse's
    # seeded game, both seats played like the fast bot.
    from tests.browser.helpers import bot_move
    with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: 1030):
        table = actions.check_create_table(creator=ana, game="powerhouse", players=2,
                                           bots={1: "fast"})
    for _ in range(200):
        table.refresh_from_db()
        if table.status != "running":
            break
        actions.check_submit_move(table_id=table.pk, seat=0, move=bot_move("powerhouse", table, 0),
                                  based_on=table.seq, actor=ana)
    finished["powerhouse-won"] = table.pk
    open_table = actions.check_create_table(creator=ana, game="gizmos", players=3).pk
    from django.db import connections
    connections.close_all()
    return running, finished, open_table


def pages_to_check(running, finished, open_table):
    seated = ["/", "/tables/", "/tables/new/", "/profile/", "/vacation/"]
    seated += [f"/tables/new/?game={g}" for g in running]
    seated += [f"/tables/{pk}/" for pk in running.values()]
    seated += [f"/tables/{pk}/" for pk in finished.values()]
    seated += [f"/tables/{open_table}/", f"/tables/{running['gizmos']}/resign"]
    spectator = [f"/tables/{pk}/" for pk in running.values()] + [f"/tables/{finished['powerhouse-won']}/"]
    anonymous = ["/", "/tables/", "/accounts/login/", "/accounts/signup/"]
    return seated, spectator, anonymous


def violations(page, url: str) -> list[str]:
    page.goto(url)
    expect(page.locator("main")).to_be_visible()
    found = page.evaluate(RUN_AXE)
    return [f"{url} [{v['impact']}] {v['id']}: {v['help']} {v['nodes']}"
            for v in found if v["impact"] in BLOCKING]


def switch_to_spanish(page):
    page.goto("/tables/")
    page.locator("#language-select").select_option("es")
    page.locator(".language-form button").click()
    expect(page.locator("html")).to_have_attribute("lang", "es")


@pytest.mark.slow
@pytest.mark.parametrize("size", ["desktop", "phone-es"])
def test_no_serious_axe_violation_on_any_page_kind(new_context, live_server_asgi, shots_dir,
                                                   size):
    with ThreadPoolExecutor(max_workers=1) as worker:
        running, finished, open_table = worker.submit(setup_tables).result()
    seated, spectator, anonymous = pages_to_check(running, finished, open_table)
    options = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if size != "desktop" else {}
    problems = []
    checked = 0
    for login, urls in (("ana", seated), ("cy", spectator), (None, anonymous)):
        context = new_context(**options)
        context.add_init_script(path=str(AXE))
        page = context.new_page()
        if login:
            sign_in(page, login=login)
        if size == "phone-es":
            switch_to_spanish(page)
        for url in urls:
            problems += violations(page, url)
            checked += 1
        if size == "phone-es" and login == "ana":
            for game in running:  # who fills the other seat: on the first screen of the form,
                page.goto(f"/tables/new/?game={game}")   # above the bot levels' descriptions
                box = page.locator("#id_seat_1").bounding_box()
                assert box["y"] + box["height"] <= PHONE["height"], (game, box)
            for game, pk in [*running.items(), ("won", finished["powerhouse-won"])]:
                page.goto(f"/tables/{pk}/")
                page.screenshot(path=str(shots_dir / f"phone-es-{game}.png"), full_page=True)
    assert checked >= 22
    assert not problems, "\n".join(problems)
