"""End-to-end journeys in Chromium against a real Daphne server.

A: sign up, verify the e-mail from the outbox, create a High Card table against a
second user, play every move from two browser contexts, and see the other side's
page update over the WebSocket without a reload.
B: with JavaScript off, a move is a plain form POST followed by a redirect.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PASSWORD, PHONE, seq_of, sign_in, verified_user

from .conftest import mail_text

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
MOVE_BUTTONS = "form.move-form button"
LIVE = '#ws-status[data-connected="1"]'


def sign_up_and_verify(page: Page, server, *, username: str, email: str) -> None:
    """The whole allauth flow: form, mail, link, confirm, signed in."""
    page.goto("/accounts/signup/")
    form = page.locator("main form").filter(has=page.locator("input[name=password1]"))
    form.locator("input[name=email]").fill(email)
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password1]").fill(PASSWORD)
    form.locator("input[name=password2]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    # Mandatory verification: not signed in yet.
    expect(page.get_by_role("button", name="Sign out")).to_have_count(0)

    text = mail_text(server.wait_for_mail(email))
    match = re.search(r"https?://\S+/accounts/confirm-email/[^\s/]+/", text)
    assert match, f"no confirmation link in the mail:\n{text}"
    link = match.group(0)
    assert link.startswith(server.url), link
    page.goto(link)
    page.locator("main form button[type=submit]").click()  # ACCOUNT_CONFIRM_EMAIL_ON_GET off
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    expect(page.locator("header nav")).to_contain_text(username)


def mark_page(page: Page) -> None:
    """A flag that a reload or a navigation would wipe out."""
    page.evaluate("window.__sameDocument = true")


def assert_not_reloaded(page: Page) -> None:
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"


def log_lines(page: Page) -> list[str]:
    return page.locator("#move-list li").all_inner_texts()


def shoot(pages: dict[str, Page], shots_dir, stage: str) -> None:
    for size, page in pages.items():
        page.screenshot(path=str(shots_dir / f"table-{size}-{stage}.png"), full_page=True)


def test_sign_up_verify_create_join_and_play_live(new_context, live_server_asgi, shots_dir):
    from allauth.account.models import EmailAddress
    from games.tables.models import Table

    server = live_server_asgi
    # Player 1 on a desktop, player 2 on a phone.
    ana = new_context(viewport=DESKTOP, timezone_id="Europe/Madrid").new_page()
    bo = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()

    # 1. Ana signs up and verifies her address from the mail the server wrote.
    sign_up_and_verify(ana, server, username="ana", email="ana@example.org")
    assert EmailAddress.objects.get(email="ana@example.org").verified
    # Her account took her browser's time zone at sign-up (static/js/forms.js).
    assert EmailAddress.objects.get(email="ana@example.org").user.timezone == "Europe/Madrid"

    # 2. Bo is a verified user already; he signs in through the login form.
    verified_user("bo")
    sign_in(bo, login="bo")

    # 3. Ana creates a 2-player High Card table with an open seat.
    ana.goto("/tables/new/?game=high-card")
    form = ana.locator("main form.stacked")
    form.locator("select[name=players]").select_option("2")
    form.locator("select[name=seat_1]").select_option("")
    form.get_by_role("button", name="Create table").click()
    expect(ana).to_have_url(re.compile(r"/tables/\d+/$"))
    table_id = int(re.search(r"/tables/(\d+)/$", ana.url).group(1))
    table_path = f"/tables/{table_id}/"
    expect(ana.locator(LIVE)).to_have_count(1)
    mark_page(ana)
    expect(ana.locator("#board")).to_contain_text("The game starts when every seat is taken.")

    # 4. Bo finds it in the lobby and joins; Ana's page fills in by itself.
    bo.goto("/tables/")
    bo.get_by_role("link", name=f"High Card #{table_id}").click()
    expect(bo).to_have_url(re.compile(re.escape(table_path) + "$"))
    # Click the Join form the socket pushed (not the one the page was served with):
    # pushed forms need the viewer's `user` and a CSRF token matching the cookie.
    expect(bo.locator(LIVE)).to_have_count(1)
    bo.get_by_role("button", name="Join this table").click()
    expect(bo.locator(".messages")).to_contain_text("You joined the table.")
    expect(bo.locator(LIVE)).to_have_count(1)
    mark_page(bo)
    expect(ana.locator("#seats")).to_contain_text("bo")
    expect(ana.locator("#board .hc-board")).to_be_visible()
    expect(ana.locator("#move-list")).to_contain_text("The game starts.")
    assert_not_reloaded(ana)
    assert Table.objects.get(pk=table_id).status == Table.Status.RUNNING

    shoot({"desktop": ana, "phone": bo}, shots_dir, "start")

    # 5. Play the whole game by clicking; after every move the other page catches up.
    players = {"ana": ana, "bo": bo}
    moves = 0
    turn = 0
    while ana.locator(".outcome").count() == 0:
        assert moves < 40, "the game did not end"
        names = [n for n in ("ana", "bo") if players[n].locator(MOVE_BUTTONS).count() > 0]
        assert names, "nobody has a move and the game is not over"
        mover_name = names[turn % len(names)]
        other_name = "bo" if mover_name == "ana" else "ana"
        mover, other = players[mover_name], players[other_name]
        before = seq_of(mover)
        assert seq_of(other) == before
        other_lines = len(log_lines(other))

        mover.locator(MOVE_BUTTONS).first.click()
        expect(mover.locator("#ws-status")).not_to_have_attribute("data-seq", str(before))
        after = seq_of(mover)
        lines = len(log_lines(mover))
        assert lines > other_lines

        # The other side: a pushed redraw, same version and same log length, no reload.
        pushed = other.locator(f'#ws-status[data-seq="{after}"][data-connected="1"]')
        expect(pushed).to_have_count(1)
        expect(other.locator("#move-list li")).to_have_count(lines)
        assert_not_reloaded(other)
        moves += 1
        turn += 1
        if moves == 6:
            shoot({"desktop": ana, "phone": bo}, shots_dir, "middle")

    # 6. Both pages show the result; nobody has anything left to click.
    for page in (ana, bo):
        expect(page.locator(".outcome")).to_have_text(
            re.compile(r"(won!|Shared win|nobody won)"))
        expect(page.locator("#move-list")).to_contain_text("The game is over.")
        expect(page.locator(MOVE_BUTTONS)).to_have_count(0)
        assert_not_reloaded(page)
    assert moves == 12  # 3 rounds x (2 draw-or-keep + 2 plays)
    table = Table.objects.get(pk=table_id)
    assert table.status == Table.Status.FINISHED
    assert table.seq == seq_of(ana) == seq_of(bo)
    shoot({"desktop": ana, "phone": bo}, shots_dir, "end")


def test_move_without_javascript(new_context, running_table, live_url):
    from django.test import Client
    table = running_table
    # Seat 0 decides first (who sits where is the table's business, not the test's).
    first = table.seats.get(position=0).user
    second = table.seats.get(position=1).user
    client = Client()
    client.force_login(first)
    context = new_context(java_script_enabled=False)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_url}])
    page = context.new_page()

    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#ws-status")).to_have_attribute("data-connected", "0")
    expect(page.locator("#status")).to_contain_text("Your decision")
    page.get_by_role("button", name="Keep your hand").click()

    # The form posted, the server answered 303 and the browser loaded the table again.
    expect(page).to_have_url(f"{live_url}/tables/{table.pk}/")
    expect(page.locator("#move-list li").first).to_have_text(f"{first.name} kept their hand.")
    expect(page.locator("#status")).to_contain_text(f"Waiting for {second.name}")
    expect(page.get_by_role("button", name="Keep your hand")).to_have_count(0)
    table.refresh_from_db()
    assert table.seq == seq_of(page)
    assert table.events.filter(kind="move").count() == 1


def test_idle_table_page_keeps_its_socket(new_context, running_table, live_url):
    """A page left alone keeps one socket: no drop-and-reconnect cycle.
    With REDIS_URL this catches redis-py >= 8's default 5 s socket_timeout racing
    channels-redis' 5 s BZPOPMIN: every idle consumer then dies with
    "Timeout reading from ...:6379" and the page reconnects every few seconds.
    """
    from django.test import Client

    client = Client()
    client.force_login(running_table.seats.get(position=1).user)
    context = new_context()
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_url}])
    page = context.new_page()
    page.add_init_script("""
        window.__wsOpens = 0; window.__wsCloses = 0;
        document.addEventListener("htmx:wsOpen", () => window.__wsOpens++);
        document.addEventListener("htmx:wsClose", () => window.__wsCloses++);
    """)
    page.goto(f"/tables/{running_table.pk}/")
    expect(page.locator(LIVE)).to_have_count(1)
    page.wait_for_timeout(6_500)  # longer than channels-redis' 5 s blocking receive
    counts = page.evaluate("[window.__wsOpens, window.__wsCloses]")
    assert counts == [1, 0], (
        f"socket opened {counts[0]} times and closed {counts[1]} times while idle; with "
        "Redis give the layer a socket_timeout above channels-redis' brpop_timeout (5 s), "
        "e.g. hosts=[{'address': REDIS_URL, 'socket_timeout': 10}] in config/settings.py "
        "(django/channels_redis#422)")
    expect(page.locator(LIVE)).to_have_count(1)
