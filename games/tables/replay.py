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


def remember_state(table: Table, state: Any) -> None:
    """Keep `state` on this table object as its state at its current seq.

    Rules are pure (states are never changed in place), so every render of one
    table object at one seq may share it: a push drawn for several views, or the
    htmx answer right after the move that made the state, decodes no snapshot.
    """
    table.__dict__["_state_memo"] = (table.seq, table.snapshot_seq, state)


def adopt(table: Table, source: Table) -> None:
    """Make `table` what `source` (the same row, just written under its lock) holds,
    without reading it again: its columns, its state if known; seats are read afresh."""
    for field in Table._meta.concrete_fields:
        setattr(table, field.attname, getattr(source, field.attname))
    table.__dict__.pop("_prefetched_objects_cache", None)
    table.__dict__.pop("_memos", None)
    memo = source.__dict__.get("_state_memo")
    if memo is not None:
        table.__dict__["_state_memo"] = memo


def current_state(table: Table) -> Any:
    """The state after the table's last event: snapshot plus later events."""
    memo = table.__dict__.get("_state_memo")
    if memo is not None and memo[0] == table.seq and memo[1] == table.snapshot_seq:
        return memo[2]
    rules = rules_for(table)
    if table.snapshot is not None:
        state = rules.load(table.snapshot)
        if table.snapshot_seq >= table.seq:
            return state  # nothing after the snapshot: no query
        later = table.events.filter(seq__gt=table.snapshot_seq).order_by("seq")
        return fold(table, later, state)
    return state_from_events(table)
