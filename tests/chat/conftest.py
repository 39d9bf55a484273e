"""Fixtures of the chat tests: two players and a spectator at a running table."""

from __future__ import annotations

import pytest


@pytest.fixture
def trio(make_user):
    """ana (seat 0, English, Mexico City), bo (seat 1, Spanish, Tokyo), cy (a spectator)."""
    from games.tables import actions

    ana = make_user("ana", timezone="America/Mexico_City", language="en")
    bo = make_user("bo", timezone="Asia/Tokyo", language="es")
    cy = make_user("cy", timezone="Europe/Madrid", language="en")
    table = actions.check_create_table(creator=ana, game="high-card", players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    assert table.status == "running"
    return table, ana, bo, cy
