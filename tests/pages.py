"""Helpers for tests that read table pages and post their move forms like a browser."""

from __future__ import annotations

import html as htmllib
import json
import re
from unittest import mock

from django.test import Client

FORM_MOVE = re.compile(r'<input type="hidden" name="move" value="([^"]*)">'
                       r'<input type="hidden" name="based_on" value="(\d+)">')


def client_for(user=None, **extra) -> Client:
    """A test client on an allowed host, signed in as `user` if given."""
    client = Client(HTTP_HOST="localhost", **extra)
    if user is not None:
        client.force_login(user)
    return client


def page(client, table) -> str:
    """The table page's HTML (asserting it rendered)."""
    response = client.get(f"/tables/{table.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def forms_in(html: str) -> list[tuple[dict, int]]:
    """Every move form on a page: (move, based_on)."""
    return [(json.loads(htmllib.unescape(m)), int(b)) for m, b in FORM_MOVE.findall(html)]


def keys(moves) -> set[str]:
    """Moves as canonical JSON strings, to compare sets of moves."""
    return {json.dumps(m, sort_keys=True) for m in moves}


def post_form(client, table, move, based_on, **extra):
    """Post one move form as the page would."""
    return client.post(f"/tables/{table.pk}/move",
                       {"move": json.dumps(move), "based_on": based_on}, **extra)


def fixed_seed(seed: int):
    """Tables created inside `with fixed_seed(n):` get this seed (drawn when the row is made)."""
    from games.tables.models import Table

    return mock.patch.object(Table._meta.get_field("seed"), "_get_default", lambda: seed)
