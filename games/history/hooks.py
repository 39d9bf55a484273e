"""The history app's part of the one write path: a table has just ended."""

from __future__ import annotations

from . import ratings, results


def on_table_finished(sender, *, table, state, **kwargs):
    """Record every seat's result, then change ratings if the table is rated.

    Runs inside the transaction that ends the table, so results and ratings
    change exactly once, together with the table's last event.
    """
    rows = results.record(table, state)
    ratings.apply_table(table, rows)
