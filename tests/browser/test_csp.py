"""Under the Content-Security-Policy no page kind logs a violation in Chromium:
every page, the admin's, a live table of each game, an htmx move and a socket push."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.helpers import PHONE, sign_in, verified_user
from tests.hardening.pages_of_every_kind import ANONYMOUS_PATHS, page_paths, running_tables

pytestmark = pytest.mark.browser

LIVE = '#ws-status[data-connected="1"]'


def watch(page, violations: list[str]) -> None:
    def on_console(msg):
        if "Content Security Policy" in msg.text or "Content-Security-Policy" in msg.text:
            violations.append(f"{page.url}: {msg.text}")

    page.on("console", on_console)
    # The event fires for every blocked resource, inline or not, reported or not.
    page.add_init_script("""document.addEventListener("securitypolicyviolation", function (e) {
        console.error("Content Security Policy violation: " + e.violatedDirective + " " +
                      e.blockedURI + " " + (e.sample || ""));
    });""")


def test_no_page_kind_violates_the_csp(new_context, live_url):
    admin = verified_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    tables = running_tables(admin)
    violations: list[str] = []

    anonymous = new_context().new_page()
    watch(anonymous, violations)
    for path in ANONYMOUS_PATHS:
        anonymous.goto(path)
        anonymous.wait_for_load_state("load")

    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(page, violations)
    sign_in(page, login="root")
    for path in page_paths(tables, staff=True):
        page.goto(path)
        page.wait_for_load_state("load")
        if path.startswith("/tables/") and path.rstrip("/").split("/")[-1].isdigit():
            expect(page.locator(LIVE)).to_have_count(1)  # the socket's first push swapped in
    assert not violations, "\n".join(violations)


def test_an_htmx_move_and_a_push_violate_nothing(new_context, live_url):
    from games.tables import actions

    ana, bo = verified_user("ana"), verified_user("bo")
    table = actions.check_create_table(creator=ana, game="flaming-pyramids", players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    mover = ana if table.to_move == [table.seats.get(user=ana).position] else bo
    watcher = bo if mover == ana else ana
    violations: list[str] = []
    pages = {}
    for user in (mover, watcher):
        p = new_context().new_page()
        watch(p, violations)
        sign_in(p, login=user.username)
        p.goto(f"/tables/{table.pk}/")
        expect(p.locator(LIVE)).to_have_count(1)
        pages[user.username] = p
    p = pages[mover.username]
    # Choose a tile and a spot (pure CSS selection), then confirm with the htmx form.
    p.locator("label.fp-hand-tile").first.click()
    p.locator("label.fp-spot-label").first.click()
    confirm = p.locator(".fp-confirm-form button:visible").first
    expect(confirm).to_be_visible()
    before = table.seq
    confirm.click()
    watcher_page = pages[watcher.username]
    expect(watcher_page.locator(f'#ws-status[data-seq="{before + 1}"]')).to_have_count(1)
    assert not violations, "\n".join(violations)
