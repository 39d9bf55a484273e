"""Phone first: at 390x844, for every kind of decision of every game, the prompt and the
first control the player must use are on the first screen, without scrolling.

The kinds (from each game's legal_moves; tests/browser/decisions.py KINDS):

- Powerhouse: draw; reaction (fire, battery, Major Dump or end); give; take (or vapor);
  discard and transform (the two steps of a battery); major-dump (the next colour, or
  stop); meltdown (which piece to discard).
- Gizmos: main (file, pick, build, research); pay; research (the drawn cards); return
  (what goes under the deck); triggers (armed gizmos); and the gizmo effects pick, file
  (file a card), research_level (research: choose a level, then the drawn cards are the
  research kind) and free_build.
- Flaming Pyramids: place (tile and spot); fall (which way a tile falls).

Each case is a table between people (no bot: nothing moves but what the test records),
created with a seed and a sequence of legal moves that `decisions.find_path` searched for
with the pure rules, so that one seat then owes a decision of that kind. The moves are
recorded through the site's own action (check_submit_move) for each seat's player; the
deciding player's page is then loaded fresh on a phone and measured in Chromium: the
prompt, and the first control of the decision's own moves (not its way out: stop, end
the turn, decline, call off), must lie within the first 844 px. Every kind in English;
one kind of each game in Spanish. axe-core runs on every one of these pages too (no
serious or critical violation)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from unittest import mock

import pytest
from playwright.sync_api import Page, expect

from tests.browser.decisions import KINDS, decision_kind, find_path
from tests.browser.helpers import PHONE, sign_in, verified_user

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
}"""

# The controls of a decision: move buttons, and Flaming Pyramids' tile and spot pickers.
# A way out of the decision (stop, end the turn, decline, call off, pass, fire all,
# automatic on/off) is a control too, but not the one the decision is about: the first
# control the player must use is the first of the others. (Powerhouse's vapor, taking
# nothing back, counts as a way out: the pyramids to take must be on the first screen.)
WAYS_OUT = ("stop", "end_turn", "end", "decline", "cancel", "pass", "use_all", "auto", "vapor")
CONTROLS = """(waysOut) => {
  const sel = '#board form.move-form button, #board label.fp-spot-label, #board label.fp-hand-tile,'
            + ' #play-area form.move-form button';
  const found = {first: null, action: null, count: 0};
  for (const el of document.querySelectorAll(sel)) {
    if (!el.checkVisibility({visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const input = el.form && el.form.querySelector('input[name=move]');
    const move = input ? JSON.parse(input.value) : null;
    const box = {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                 type: move ? move.type : el.className,
                 text: (el.innerText || el.getAttribute('title') || '').trim().slice(0, 60)};
    found.count += 1;
    if (!found.first) found.first = box;
    if (!found.action && !(move && waysOut.includes(move.type))) found.action = box;
  }
  return found;
}"""
PROMPT = """() => {
  const el = document.querySelector('[data-testid$="-prompt"]');
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, text: el.innerText.trim().slice(0, 120)};
}"""

PLAYERS = {"powerhouse": 2, "gizmos": 2, "flaming-pyramids": 3}
NAMES = ("ana", "bo", "cy")
CASES = [(game, kind) for game, kinds in KINDS.items() for kind in kinds]
SPANISH = [("powerhouse", "major-dump"), ("gizmos", "free_build"), ("flaming-pyramids", "fall")]


def table_at(game: str, kind: str) -> tuple[int, str]:
    """A running table whose next decision is of `kind`: (table id, the decider's name).

    Runs in a thread without an event loop (the pushes after each move need one)."""
    from django.db import connections

    from games.tables import actions
    from games.tables.models import Table
    from games.tables.replay import current_state

    path = find_path(game, kind, players=PLAYERS[game])
    try:
        users = [verified_user(name) for name in NAMES[:path.players]]
        with mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: path.seed):
            table = actions.check_create_table(creator=users[0], game=game, players=path.players)
        for user in users[1:]:
            table = actions.check_join_table(table_id=table.pk, user=user)
        table.refresh_from_db()
        assert table.status == "running" and table.seed == path.seed
        by_seat = {s.position: s.user for s in table.seats.select_related("user")}
        for seat, move in path.moves:
            table = actions.check_submit_move(table_id=table.pk, seat=seat, move=move,
                                              based_on=table.seq, actor=by_seat[seat])
        table.refresh_from_db()
        assert path.seat in table.to_move
        assert decision_kind(game, current_state(table), path.seat) == kind
        return table.pk, by_seat[path.seat].username
    finally:
        connections.close_all()


def measure(page: Page, table_pk: int, game: str, kind: str, lang: str, shots_dir) -> dict:
    page.goto(f"/tables/{table_pk}/")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert page.evaluate("window.scrollY") == 0
    found = page.evaluate(CONTROLS, list(WAYS_OUT))
    prompt = page.evaluate(PROMPT)
    page.screenshot(path=str(shots_dir / f"phone-{lang}-{game}-{kind}.png"))
    where = f"{game} {kind} ({lang})"
    assert prompt is not None, f"{where}: no prompt"
    assert 0 <= prompt["top"] < prompt["bottom"] <= PHONE["height"], (where, prompt)
    control = found["action"]
    assert control is not None, f"{where}: no control of the decision on the page {found}"
    assert 0 <= control["top"] and control["bottom"] <= PHONE["height"], (
        f"{where}: the first control ({control['type']} {control['text']!r}) is at "
        f"y={control['top']:.0f}-{control['bottom']:.0f}, below the first screen")
    assert 0 <= control["left"] and control["right"] <= PHONE["width"] + 1, (where, control)
    problems = page.evaluate(RUN_AXE)
    assert not problems, f"{where}: axe-core: {problems}"
    return {"prompt": prompt, **found}


def run_case(new_context, shots_dir, game: str, kind: str, lang: str) -> dict:
    with ThreadPoolExecutor(max_workers=1) as worker:
        table_pk, username = worker.submit(table_at, game, kind).result()
    from accounts.models import User

    # Reduced motion: the board skips its replay of the last cascade, so axe-core judges the
    # page as it rests, not a line halfway through fading in.
    context = new_context(viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion="reduce")
    context.set_default_timeout(30_000)  # a page at the end of a long log, on a busy machine
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    sign_in(page, login=username)  # in English: it waits for "Sign out"
    User.objects.filter(username=username).update(language=lang)
    return measure(page, table_pk, game, kind, lang, shots_dir)


# Up to ~190 moves recorded through the site before the page is loaded.
@pytest.mark.timeout(900)
@pytest.mark.parametrize(("game", "kind"), CASES, ids=[f"{g}-{k}" for g, k in CASES])
def test_first_control_on_the_first_screen(new_context, live_server_asgi, shots_dir, game, kind):
    found = run_case(new_context, shots_dir, game, kind, "en")
    print(game, kind, found)


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("game", "kind"), SPANISH, ids=[f"{g}-{k}" for g, k in SPANISH])
def test_first_control_on_the_first_screen_in_spanish(new_context, live_server_asgi, shots_dir,
                                                      game, kind):
    found = run_case(new_context, shots_dir, game, kind, "es")
    print(game, kind, found)


def test_every_decision_kind_is_listed():
    """KINDS names all that the rules ask: Gizmos' phases are its _legal_* methods, and
    seeded random play of every game meets no kind outside KINDS (a new phase or stage
    has to be added there, and so to the browser cases above)."""
    import inspect

    from games.engine import Rng, get_rules

    gizmos = get_rules("gizmos")
    phases = {name[len("_legal_"):] for name, _ in inspect.getmembers(gizmos)
              if name.startswith("_legal_")} - {"over"}
    assert phases == set(KINDS["gizmos"])
    for game, players in PLAYERS.items():
        rules, met = get_rules(game), set()
        for seed in range(20):
            state, rng = rules.new_game(players=players, seed=seed), Rng.from_seed(seed)
            for _ in range(300):
                deciding = sorted(rules.to_move(state))
                if not deciding:
                    break
                met |= {decision_kind(game, state, seat) for seat in deciding}
                seat = deciding[0]
                state = rules.apply(state, seat, rng.choice(rules.legal_moves(state, seat)))
        assert met <= set(KINDS[game]), (game, met - set(KINDS[game]))
        assert len(met) >= 2, (game, met)
