"""Page weight: gzip on the wire, a table page that does not grow with the game's log."""

from __future__ import annotations

import gzip
import re

import pytest

from games.engine import get_rules
from games.tables import actions
from games.tables.models import Table
from games.tables.replay import current_state
from tests.pages import client_for


def make_move(table_id: int) -> None:
    """Any legal move of the first seat that owes one."""
    table = Table.objects.get(pk=table_id)
    rules = get_rules(table.game)
    state = current_state(table)
    seat = sorted(rules.to_move(state))[0]
    actions.check_submit_move(table_id=table_id, seat=seat, move=rules.legal_moves(state, seat)[0],
                              based_on=table.seq, actor=table.seats.get(position=seat).user)

pytestmark = pytest.mark.django_db


def log_numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<li data-n="(\d+)"', html)]


def test_html_is_gzipped_for_clients_that_accept_it(running_table):
    client = client_for()
    plain = client.get(f"/tables/{running_table.pk}/")
    zipped = client.get(f"/tables/{running_table.pk}/", HTTP_ACCEPT_ENCODING="gzip, br")
    assert "Content-Encoding" not in plain
    assert zipped["Content-Encoding"] == "gzip"
    body = gzip.decompress(zipped.content).decode()
    assert 'id="move-list"' in body and len(zipped.content) < len(plain.content) / 2


def test_the_table_page_shows_the_latest_log_entries_and_links_the_rest(running_table, settings):
    settings.TABLE_LOG_SHOWN = 3
    client = client_for()
    url = f"/tables/{running_table.pk}/"
    sizes = []
    for _ in range(2):
        for _ in range(3):
            make_move(running_table.pk)
        html = client.get(url).content.decode()
        numbers = log_numbers(html)
        assert len(numbers) == 3 and numbers == sorted(numbers, reverse=True)
        total = numbers[0]
        assert f'href="{url}?log=all#move-list"' in html
        hidden = total - 3
        assert f"({hidden} earlier {'entry' if hidden == 1 else 'entries'})" in html
        sizes.append(len(html))
    # More game, same page: only the numbers in it change.
    assert abs(sizes[1] - sizes[0]) < 200, sizes
    # The whole log is a plain link away (no script needed).
    everything = client.get(url + "?log=all").content.decode()
    assert log_numbers(everything) == list(range(total, 0, -1))
    assert "Show the whole log" not in everything
