"""Step-through replay: every step of a finished game renders, the last is the final table;
while a game runs a seat's replay holds only what that seat saw then."""

from __future__ import annotations

import re

import pytest

from games.engine import get_rules
from games.engine.testing import check_view
from games.history import timeline
from games.tables.models import Table, TableEvent
from games.tables.replay import apply_event, current_state
from tests.pages import client_for

from .helpers import GAMES, end_by, new_table, play

pytestmark = pytest.mark.django_db


def states_by_step(table):
    """Every step's state by a plain fold of the whole log (the test's own reference)."""
    rules = get_rules(table.game)
    state, out = None, []
    for event in table.events.order_by("seq"):
        state = apply_event(rules, state, event, table=table)
        if event.kind in timeline.STEP_KINDS and state is not None:
            out.append(state)
    return out


def public(view):
    """A view without the keys a game's display caches on it while drawing (e.g. "_log_index")."""
    return {k: v for k, v in view.items() if not k.startswith("_")}


def frame(client, table, step, eyes=None):
    url = f"/tables/{table.pk}/replay/?step={step}" + (f"&as={eyes}" if eyes is not None else "")
    response = client.get(url)
    assert response.status_code == 200, (step, eyes)
    return response


@pytest.mark.parametrize("game", GAMES)
def test_every_step_of_a_finished_game_renders_and_the_last_is_the_final_table(
        game, make_user, django_assert_max_num_queries):
    ana, bo = make_user("ana"), make_user("bo")
    table = end_by(new_table([ana, bo], game), "finish")
    assert table.status == Table.Status.FINISHED
    rules = get_rules(game)
    reference = states_by_step(table)
    client = client_for(ana)
    seat = table.seats.get(user=ana).position
    last = len(reference) - 1
    for step in range(last + 1):  # every position
        response = frame(client, table, step, seat)
        boards = response.context["boards"]
        assert public(boards[0]["tv"].view) == rules.view(reference[step], seat)
        html = response.content.decode()
        assert html.count('aria-current="step"') == len(response.context["log"]) - sum(
            1 for line in response.context["log"] if not line["current"])
    # The last step is the final table: same state, same view as the table page.
    assert rules.dump(reference[-1]) == table.snapshot
    final = frame(client, table, last, seat)
    page = client.get(f"/tables/{table.pk}/")
    assert public(final.context["boards"][0]["tv"].view) == public(page.context["tv"].view)
    # Everybody's eyes and a spectator's, after the end.
    everyone = frame(client, table, last, "all")
    assert [b["seat"] for b in everyone.context["boards"]] == list(range(table.players))
    assert public(frame(client, table, last, "public").context["boards"][0]["tv"].view) == rules.view(
        reference[-1], None)
    # A step costs a bounded number of queries once the timeline is built.
    with django_assert_max_num_queries(12):
        frame(client, table, last // 2, seat)


def test_a_timeout_mid_game_is_a_step_and_the_others_play_on(make_user, settings):
    settings.VACATION_DAYS_PER_YEAR = 0
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    table = new_table([ana, bo, cy], "high-card", timeout_policy="drop")
    end_by(table, "timeout", seat=table.seats.get(user=cy).position)
    table = play(table)
    assert table.status == Table.Status.FINISHED
    line = timeline.build(table)
    assert [s.kind for s in line.steps].count("timeout") == 1
    reference = states_by_step(table)
    client = client_for(ana)
    for step in range(line.last + 1):
        response = frame(client, table, step, "all")
        assert len(response.context["boards"]) == 3
    at = next(s.index for s in line.steps if s.kind == "timeout")
    assert "cy ran out of time." in frame(client, table, at, "public").content.decode()
    assert get_rules("high-card").dump(reference[-1]) == table.snapshot


def test_replay_never_writes(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    table = end_by(new_table([ana, bo], "high-card"), "finish")
    before = (Table.objects.filter(pk=table.pk).values().get(), TableEvent.objects.count())
    for step in range(0, 14):
        frame(client_for(), table, step, "all")
    assert (Table.objects.filter(pk=table.pk).values().get(), TableEvent.objects.count()) == before


def test_steps_fold_from_checkpoints_not_the_whole_log(make_user, monkeypatch):
    ana, bo = make_user("ana"), make_user("bo")
    table = end_by(new_table([ana, bo], "gizmos"), "finish")
    line = timeline.build(table)
    assert line.last > 2 * timeline.CHECKPOINT_EVERY
    applied = []
    real = timeline.apply_event
    monkeypatch.setattr(timeline, "apply_event", lambda *a, **k: applied.append(1) or real(*a, **k))
    for step in (line.last, line.last - 1, line.last // 2, 5):
        applied.clear()
        timeline.states_at(table, line, step)
        assert len(applied) < 2 * timeline.CHECKPOINT_EVERY


def test_a_cached_timeline_is_never_another_logs(make_user):
    """The timeline cache names the log as it stands, not only the table's id and seq: the
    same id and seq in another database on the same Redis, or a move written again after a
    backup was restored, is another key (CI once showed one stage's High Card table the
    timeline of another stage's table with the same id and seq: a 500)."""
    from datetime import timedelta

    ana, bo = make_user("ana"), make_user("bo")
    table = end_by(new_table([ana, bo], "high-card"), "finish")
    line = timeline.build(table)
    assert timeline.build(Table.objects.get(pk=table.pk)).steps == line.steps  # cached
    other = Table.objects.get(pk=table.pk)
    other.created_at += timedelta(microseconds=1)
    rewritten = Table.objects.get(pk=table.pk)
    rewritten.last_event_at += timedelta(microseconds=1)
    keys = {timeline._cache_key(t) for t in (Table.objects.get(pk=table.pk), other, rewritten)}
    assert len(keys) == 3
    # The other table (same id and seq) is folded from its own log, not read from the cache
    # where the first one's timeline sits.
    from django.core.cache import cache
    cache.set(timeline._cache_key(Table.objects.get(pk=table.pk)), "the first table's", 60)
    assert timeline.build(other).steps == line.steps
    assert timeline.build(rewritten).steps == line.steps


# Per-response CSRF tokens and the language form's "come back here" address differ.
TOKEN = re.compile(rb'("X-CSRFToken": "|name="csrfmiddlewaretoken" value="|name="next" type="hidden" value=")[^"]*')


def without_tokens(content: bytes) -> bytes:
    return TOKEN.sub(rb"\1", content)


CARD = re.compile(r'class="hc-card">(\d+)<')


@pytest.mark.parametrize("game", GAMES)
def test_while_a_game_runs_a_seat_replays_only_its_own_view_of_then(game, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    table = new_table([ana, bo], game)
    # Few decisions: the fast bots' moves depend on the table's id, and a Powerhouse
    # game between them can end within 30 (the replay here is of a running game).
    play(table, decisions={"high-card": 8, "powerhouse": 12}.get(game, 30))
    table.refresh_from_db()
    assert table.status == Table.Status.RUNNING
    rules = get_rules(game)
    reference = states_by_step(table)
    for user in (ana, bo):
        seat = table.seats.get(user=user).position
        other = 1 - seat
        client = client_for(user)
        for step, state in enumerate(reference):
            response = frame(client, table, step)
            board = response.context["boards"][0]
            assert board["seat"] == seat
            view = check_view(rules, state, seat, seed=table.seed)
            assert public(board["tv"].view) == view
            # Asking for the other seat's eyes or everything changes nothing while it runs.
            for eyes in (other, "all") if step % 5 == 0 or step == len(reference) - 1 else ():
                assert without_tokens(frame(client, table, step, eyes).content) == without_tokens(
                    response.content)
            html = response.content.decode()
            assert str(table.seed) not in html
            if game == "high-card":
                assert sorted(int(c) for c in CARD.findall(html)) == sorted(state["hands"][seat])
            if game == "flaming-pyramids":
                from tests.flaming_pyramids.test_view_secrecy import check_secrecy
                check_secrecy(state)
    # A spectator sees the spectator's view of the past, and no record exists yet.
    response = frame(client_for(), table, 3, 0)
    assert response.context["boards"][0]["seat"] is None
    assert client_for(ana).get(f"/tables/{table.pk}/record.json").status_code == 404


def test_no_replay_before_the_start_and_for_private_tables(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    open_table = new_table([ana], "high-card", players=2)
    assert client_for(ana).get(f"/tables/{open_table.pk}/replay/").status_code == 404
    private = end_by(new_table([ana, bo], "high-card", is_private=True), "finish")
    assert client_for(cy).get(f"/tables/{private.pk}/replay/").status_code == 404
    assert client_for(bo).get(f"/tables/{private.pk}/replay/").status_code == 200
    assert current_state(private) is not None
