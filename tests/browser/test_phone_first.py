"""Phone first: at 390x844, for every kind of decision of every game, the prompt and the
first control the player must use are on the first screen, without scrolling.

Each game is a seeded table against the fast bot. Our seat plays like the bot too, the
moves recorded server-side (bots answer at once: tasks are eager here); the page is
loaded fresh at the first decision of each kind and measured in Chromium."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from unittest import mock

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import PHONE, phone_player

pytestmark = pytest.mark.browser

# What counts as a control: move buttons, and Flaming Pyramids' tile and spot pickers.
FIRST_CONTROL = """() => {
  const sel = '#board form.move-form button, #board label.fp-spot-label, #board label.fp-hand-tile,'
            + ' #play-area form.move-form button';
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            text: (el.innerText || el.getAttribute('title') || '').trim().slice(0, 60)};
  }
  return null;
}"""
PROMPT = """() => {
  const el = document.querySelector('[data-testid$="-prompt"]');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom};
}"""


def decision_kind(game: str, state: dict, seat: int) -> str:
    """The kind of decision `seat` faces, in the game's own terms."""
    if game == "powerhouse":
        if state["phase"] in ("draw", "meltdown"):
            return state["phase"]
        pending = state.get("pending") or {}
        if pending.get("action") == "dump":
            return "major-dump"
        return pending.get("stage") or "reaction"
    if game == "gizmos":
        return state["phase"]
    return "fall" if state.get("pending") else "place"


def bot_move(game: str, table, seat: int, *, level: str = "fast") -> dict:
    """Our seat's move: like the fast bot, or uniformly at random (seeded by the table's
    version) with level="random" (it researches and files, which the bot seldom does)."""
    from games.engine import Rng, get_rules
    from games.tables.plugins import game_config
    from games.tables.replay import current_state

    rules, config = get_rules(game), game_config(game)
    state = current_state(table)
    legal = rules.legal_moves(state, seat)
    rng = Rng.from_seed(table.seq)
    if level == "random":
        return rng.choice(legal)
    return config.choose_bot_move(rules.view(state, seat), legal, level=level, rng=rng)


def wait_for_turn(table, seat: int, timeout: float = 20.0) -> bool:
    """True when `seat` owes a decision; False when the table is over."""
    deadline = time.monotonic() + timeout
    while True:
        table.refresh_from_db()
        if table.status != "running":
            return False
        if seat in (table.to_move or []):
            return True
        assert time.monotonic() < deadline, "the bot did not answer"
        time.sleep(0.05)


def measure(page: Page, table, kind: str, shots_dir, game: str) -> dict:
    page.goto(f"/tables/{table.pk}/")
    expect(page.locator("#board")).to_be_visible()
    assert page.evaluate("window.scrollY") == 0
    control = page.evaluate(FIRST_CONTROL)
    prompt = page.evaluate(PROMPT)
    page.screenshot(path=str(shots_dir / f"phone-{game}-{kind}.png"))
    assert control is not None, f"{game} {kind}: no control on the page"
    assert prompt is not None, f"{game} {kind}: no prompt"
    assert 0 <= prompt["top"] and prompt["top"] < PHONE["height"], (game, kind, prompt)
    assert 0 <= control["top"] and control["bottom"] <= PHONE["height"], (
        f"{game} {kind}: the first control ({control['text']!r}) is at "
        f"y={control['top']:.0f}-{control['bottom']:.0f}, below the first screen")
    assert control["right"] <= PHONE["width"] + 1, (game, kind, control)
    return control


def play_and_measure(new_context, shots_dir, *, game: str, seed: int, players: int,
                     username: str, level: str = "fast",
                     max_decisions: int = 400) -> dict[str, dict]:
    from games.tables import actions
    from games.tables.models import Table
    from django.db import connections

    from games.tables.replay import current_state

    user, page = phone_player(new_context, username)
    with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: seed):
        table = actions.check_create_table(creator=user, game=game, players=players,
                                           bots={p: "fast" for p in range(1, players)})
    seat = table.seats.get(user=user).position
    seen: dict[str, dict] = {}
    # Moves are recorded from a thread of their own: Playwright's event loop runs in this
    # one, and the pushes after a move need a thread without a loop.
    with ThreadPoolExecutor(max_workers=1) as mover:
        try:
            for _ in range(max_decisions):
                if not wait_for_turn(table, seat):
                    break
                kind = decision_kind(game, current_state(table), seat)
                if kind not in seen:
                    seen[kind] = measure(page, table, kind, shots_dir, game)
                move = bot_move(game, table, seat, level=level)
                mover.submit(actions.check_submit_move, table_id=table.pk, seat=seat, move=move,
                             based_on=table.seq, actor=user).result()
        finally:
            mover.submit(connections.close_all).result()
    return seen


def test_powerhouse_first_control_on_the_first_screen(new_context, live_server_asgi, shots_dir):
    # Seed 1030 (see test_powerhouse.py): reactors fired with takes and vapor, a battery,
    # and a meltdown.
    seen = play_and_measure(new_context, shots_dir, game="powerhouse", seed=1030, players=2,
                            username="ana")
    assert {"draw", "reaction", "give", "take", "meltdown"} <= set(seen), seen


def test_gizmos_first_control_on_the_first_screen(new_context, live_server_asgi, shots_dir):
    # Our seat plays at random: it researches (and chooses what goes back under the deck).
    seen = play_and_measure(new_context, shots_dir, game="gizmos", seed=21, players=2,
                            username="bea", level="random")
    assert {"main", "pay", "research", "return"} <= set(seen), seen


def test_flaming_pyramids_first_control_on_the_first_screen(new_context, live_server_asgi,
                                                            shots_dir):
    seen = play_and_measure(new_context, shots_dir, game="flaming-pyramids", seed=5, players=3,
                            username="cas")
    assert {"place", "fall"} <= set(seen), seen
