"""What the browser journeys share: a verified player, signing in, the page's version."""

from __future__ import annotations

from playwright.sync_api import Page, expect

PASSWORD = "a-Strong-pass-123"
PHONE = {"width": 390, "height": 844}


def verified_user(username: str):
    """A user whose e-mail address is verified (the journeys that sign up do it by hand)."""
    from allauth.account.models import EmailAddress

    from accounts.models import User

    user = User.objects.create_user(username, f"{username}@example.org", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def sign_in(page: Page, *, login: str) -> None:
    """Sign in through the login form and wait until the header says so."""
    page.goto("/accounts/login/")
    form = page.locator("main form").filter(has=page.locator("input[name=password]"))
    form.locator("input[name=login]").fill(login)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()


def phone_player(new_context, username: str):
    """A verified user signed in on a phone-sized page: (user, page)."""
    user = verified_user(username)
    page = new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    sign_in(page, login=username)
    return user, page


def seq_of(page: Page) -> int:
    """The table version the page was last drawn from."""
    return int(page.locator("#ws-status").get_attribute("data-seq"))


def bot_move(game: str, table, seat: int, *, level: str = "fast") -> dict:
    """`seat`'s move at `table` as the bot of `level` would choose it (seeded by the
    table's version), for tests that play a seat like a bot."""
    from games.engine import Rng, get_rules
    from games.tables.plugins import game_config
    from games.tables.replay import current_state

    rules, config = get_rules(game), game_config(game)
    state = current_state(table)
    legal = rules.legal_moves(state, seat)
    return config.choose_bot_move(rules.view(state, seat), legal, level=level,
                                  rng=Rng.from_seed(table.seq))
