"""Fold a table's events through its game's rules.

The event log is the truth; `Table.snapshot` is a cache of the state after
event `snapshot_seq`, used to skip the fold's prefix.
"""

from __future__ import annotations

from typing import Any, Iterable

from games.engine import get_rules

from .models import Table, TableEvent


class ReplayError(Exception):
    """The events do not fold into a state (a corrupt log or a changed game)."""


def apply_event(rules, state: Any, event: TableEvent, *, table: Table) -> Any:
    """The state after one event (None before the game starts)."""
    kind = event.kind
    if kind == TableEvent.Kind.START:
        return rules.new_game(players=table.players, seed=table.seed, options=table.options)
    if state is None:
        return None
    if kind == TableEvent.Kind.MOVE:
        return rules.apply(state, event.seat, event.data["move"])
    if kind == TableEvent.Kind.RESIGN:
        after = rules.resign(state, event.seat)
        return state if after is None else after
    if kind in ("timeout", "takeover", "reclaim"):
        drop = event.data.get("drop")
        if drop:
            after = rules.resign(state, event.seat)
            return state if after is None else after
        return state
    return state


def rules_for(table) -> Any:
    """The rules the table was started under (its recorded rules version)."""
    return get_rules(table.game).for_version(getattr(table, "rules_version", None)
                                             or get_rules(table.game).rules_version)


def fold(table: Table, events: Iterable[TableEvent], state: Any = None) -> Any:
    """Apply `events` (in seq order) to `state`."""
    rules = rules_for(table)
    for event in events:
        try:
            state = apply_event(rules, state, event, table=table)
        except Exception as exc:  # noqa: BLE001 - reported with the event that broke
            raise ReplayError(f"table {table.pk} event {event.seq} ({event.kind}): {exc}") from exc
    return state


def state_from_events(table: Table) -> Any:
    """The state rebuilt from the whole log, ignoring the snapshot."""
    return fold(table, table.events.order_by("seq"))


def current_state(table: Table) -> Any:
    """The state after the table's last event: snapshot plus later events."""
    rules = rules_for(table)
    if table.snapshot is not None:
        state = rules.load(table.snapshot)
        if table.snapshot_seq >= table.seq:
            return state  # nothing after the snapshot: no query
        later = table.events.filter(seq__gt=table.snapshot_seq).order_by("seq")
        return fold(table, later, state)
    return state_from_events(table)
