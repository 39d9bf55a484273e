"""Every game ends on a results panel: the ranking, what each player had left, and why the
winner won; also when the table ends by a resignation."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from games.engine import get_rules
from games.tables import actions
from games.tables.models import Table
from games.tables.templatetags.tables import table_results
from tests.boards.positions import GAMES, bot_choice, playout, table_view
from tests.pages import client_for, page


def finished(game: str, players: int, seed: int) -> dict:
    state = playout(game, players=players, seed=seed, steps=(), choose=bot_choice(game))[-1][1]
    assert not get_rules(game).to_move(state), "the seeded game did not finish"
    return state


def panel(game, state, viewer=None, lang="en"):
    with translation.override(lang):
        tv = table_view(game, state, viewer)
        results = table_results(tv)
        html = render_to_string("tables/_results.html", {"results": results})
    return results, html


@pytest.mark.parametrize("players", [2, 3, 4])
def test_powerhouse_ranks_the_clean_powerhouse_first_and_counts_what_each_had(players):
    state = finished("powerhouse", players, 200 + players)
    view = get_rules("powerhouse").view(state, None)
    results, html = panel("powerhouse", state, viewer=0)
    winner = view["winner"]
    assert [r["position"] for r in results["rows"]][0] == winner
    assert results["rows"][0]["place"] == 1 and results["rows"][0]["winner"]
    assert all(r["place"] == 2 for r in results["rows"][1:]), "the others share second place"
    pieces = {n["seat"]: str(n["pieces"]) for n in view["networks"]}
    assert {r["position"]: r["columns"][0] for r in results["rows"]} == pieces
    assert "clean powerhouse" in results["why"] and results["rows"][0]["name"] in results["why"]
    assert html.count("<tr") == players + 1 and "Pyramids left" in html
    _, es = panel("powerhouse", state, viewer=None, lang="es")
    assert "Resultados" in es


@pytest.mark.parametrize("players", [2, 4])
def test_flaming_pyramids_ranks_by_tiles_left(players):
    state = finished("flaming-pyramids", players, 300 + players)
    view = get_rules("flaming-pyramids").view(state, None)
    results, html = panel("flaming-pyramids", state, viewer=1)
    left = [view["seats"][r["position"]]["tiles"] for r in results["rows"]]
    assert results["rows"][0]["position"] == view["winner"] and left[0] == 0
    assert left == sorted(left)
    for a, b in zip(results["rows"], results["rows"][1:]):
        assert a["place"] <= b["place"]
        assert (a["place"] == b["place"]) == (view["seats"][a["position"]]["tiles"]
                                              == view["seats"][b["position"]]["tiles"])
    assert "0 tiles" in html and "last tile" in results["why"]


@pytest.mark.parametrize("players", [2, 3])
def test_gizmos_ranks_by_victory_points_and_says_why(players):
    state = finished("gizmos", players, 400 + players)
    view = get_rules("gizmos").view(state, None)
    results, html = panel("gizmos", state, viewer=0)
    assert [r["position"] for r in results["rows"]] == view["outcome"]["ranking"]
    vps = [int(r["columns"][0]) for r in results["rows"]]
    assert vps == sorted(vps, reverse=True)
    assert str(vps[0]) in results["why"] and results["rows"][0]["name"] in results["why"]
    assert html.count('class="is-winner"') == 1


@pytest.mark.django_db
@pytest.mark.parametrize("game", GAMES)
def test_a_resignation_ends_on_the_results_panel(make_user, game):
    ana, bo = make_user("ana"), make_user("bo")
    table = actions.check_create_table(creator=ana, game=game, players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    actions.check_resign(table_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    for user in (ana, bo, None):
        html = page(client_for(user), table)
        assert 'data-testid="results"' in html
        start = html.index('data-testid="results"')
        results = html[start:html.index("</section>", start)]
        assert "ana wins: the other players resigned." in results
        rows = results.split("<tr")[2:]
        assert "ana" in rows[0] and "winner" in rows[0]
        assert "bo" in rows[1] and "resigned" in rows[1]
    # The "to move" mark is gone once the table is over.
    assert "to move" not in html
