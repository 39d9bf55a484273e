"""Rematch: same game, options, players and bots, seats rotated; the next-table button."""

from __future__ import annotations

import pytest

from games.history.models import Rematch
from games.tables import actions
from games.tables.models import Invitation, Table
from tests.pages import client_for

from .helpers import end_by, new_table

pytestmark = pytest.mark.django_db


def test_rematch_rotates_the_seats_and_invites_the_people(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    old = end_by(new_table([ana, bo, cy], "high-card", bots={3: "greedy"}, players=4, rated=True,
                           options={"double_last": True}), "finish")
    before = {s.position: (s.user_id, s.bot_level) for s in old.seats.all()}
    page = client_for(bo).get(f"/tables/{old.pk}/").content.decode()
    assert f'action="/tables/{old.pk}/rematch"' in page
    response = client_for(bo).post(f"/tables/{old.pk}/rematch")
    assert response.status_code == 302
    new = Rematch.objects.get(original=old).table
    assert response["Location"] == new.get_absolute_url()
    assert (new.game, new.options, new.players, new.rated) == (old.game, old.options, 4, True)
    assert new.is_private and new.status == Table.Status.OPEN
    assert set(Invitation.objects.filter(table=new).values_list("user__username", flat=True)) == {
        "ana", "cy"}
    # Asking again, by anyone at the table, leads to the same rematch.
    assert client_for(ana).post(f"/tables/{old.pk}/rematch")["Location"] == new.get_absolute_url()
    assert Table.objects.count() == 2
    for user in (ana, cy):  # the invited accept by joining
        actions.check_join_table(table_id=new.pk, user=user)
    new.refresh_from_db()
    assert new.status == Table.Status.RUNNING
    after = {s.position: (s.user_id, s.bot_level) for s in new.seats.all()}
    assert after == {(p + 1) % 4: who for p, who in before.items()}


def test_only_players_of_a_finished_table_can_ask_for_a_rematch(make_user):
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    running = new_table([ana, bo], "high-card")
    client_for(ana).post(f"/tables/{running.pk}/rematch")
    old = end_by(new_table([ana, bo], "high-card"), "finish")
    client_for(cy).post(f"/tables/{old.pk}/rematch")
    assert not Rematch.objects.exists()
    assert client_for().post(f"/tables/{old.pk}/rematch").status_code == 302  # to sign in
    assert client_for(ana).get(f"/tables/{old.pk}/rematch").status_code == 405
    assert not Rematch.objects.exists()


def test_next_table_button_once_the_viewer_owes_nothing_here(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    finished = end_by(new_table([ana, bo], "high-card"), "finish")
    waiting = new_table([ana, bo], "high-card")
    client = client_for(ana)
    owes = waiting.to_move[0]
    owner = waiting.seats.get(position=owes).user
    other = bo if owner == ana else ana
    button = 'data-testid="next-table"'
    html = client.get(f"/tables/{finished.pk}/").content.decode()
    if owner == ana:
        assert button in html and f"/tables/next/?after={finished.pk}" in html
        # Without JavaScript it is a plain link: following it lands on the waiting table.
        response = client.get(f"/tables/next/?after={finished.pk}")
        assert response["Location"] == waiting.get_absolute_url()
        assert button not in client.get(f"/tables/{waiting.pk}/").content.decode()
    else:
        assert button not in html
    html = client_for(other).get(f"/tables/{waiting.pk}/").content.decode()
    assert button not in html  # they owe nothing anywhere
    html = client_for(owner).get(f"/tables/{finished.pk}/").content.decode()
    assert button in html
