"""Clicks of a whole Gizmos game against a bot, played through the table page.

The same player plays the same game three times: it decides like the fast bot
(its choice of action, of payment and of gizmos to use), and only clicks forms that
are on its page. "before" uses only the controls the page had before whole payments
existed (Build, then sphere by sphere; each gizmo by its own button); "after" takes the
one-click payment and "use all automatic gizmos"; "auto" also sets its seat to fire
automatic gizmos by themselves. Each click is one posted form.
"""

from __future__ import annotations

import json

import pytest

from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state
from tests.pages import client_for, fixed_seed, forms_in, page

from .clicks import expand, intent

SEED = 424_242


def play_game(make_user, mode: str) -> tuple[int, int, dict]:
    """(clicks, decisions, outcome) of one game of `mode` against the fast bot."""
    user = make_user(f"clicker-{mode}")
    with fixed_seed(SEED):
        table = actions.check_create_table(creator=user, game="gizmos", players=2, bots={1: "fast"})
    table.refresh_from_db()
    me = table.seats.get(user=user).position
    client = client_for(user)
    html = page(client, table)
    clicks = decisions = 0
    while forms_in(html):
        assert decisions < 600, "the game did not end"
        table.refresh_from_db()
        state = current_state(table)
        decisions += 1
        for move in expand(state, me, intent(state, me, mode), mode):
            forms = forms_in(html)
            on_page = {json.dumps(m, sort_keys=True): b for m, b in forms}
            key = json.dumps(move, sort_keys=True)
            assert key in on_page, f"{mode}: {move} is not a control on the page"
            response = client.post(f"/tables/{table.pk}/move", {"move": json.dumps(move),
                                                                 "based_on": on_page[key]},
                                   HTTP_HX_REQUEST="true")
            assert response.status_code == 200
            html = response.content.decode()
            assert 'role="alert"' not in html, html[:400]
            clicks += 1
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return clicks, decisions, table.outcome


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_game_against_a_bot_takes_at_most_half_the_clicks(make_user, capsys):
    before, _d, out_before = play_game(make_user, "before")
    after, _d, out_after = play_game(make_user, "after")
    auto, _d, _out = play_game(make_user, "auto")
    # The same decisions: the same game, to the same end.
    assert out_before["scores"] == out_after["scores"]
    with capsys.disabled():
        print(f"\nGizmos, seed {SEED}, against the fast bot: {before} clicks before, {after} with "
              f"one-click payments and 'use all' ({after / before:.0%}), {auto} with automatic "
              f"gizmos set to fire by themselves ({auto / before:.0%})")
    assert auto <= before / 2 and after < before
