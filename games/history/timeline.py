"""Step-through replay: fold a table's log once, keep a checkpoint every N steps.

A step is a decision (the start, a move, a resignation, a timeout, the end of an
abandoned table). The timeline of a table at a given `seq` is built by one fold
of its events and cached; a position is then one checkpoint plus at most N-1
events, so stepping never replays the whole log. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache

from games.tables.models import Table, TableEvent
from games.tables.replay import apply_event, fold, rules_for

CHECKPOINT_EVERY = 16
STEP_KINDS = (TableEvent.Kind.START, TableEvent.Kind.MOVE, TableEvent.Kind.RESIGN, "timeout",
              "abandon")


@dataclass
class Step:
    index: int
    seq: int
    kind: str
    seat: int | None


@dataclass
class Timeline:
    table_id: int
    seq: int
    steps: list[Step] = field(default_factory=list)
    # step index -> rules.dump(state after that step)
    checkpoints: dict[int, Any] = field(default_factory=dict)

    @property
    def last(self) -> int:
        return len(self.steps) - 1


def _cache_key(table: Table) -> str:
    """The table's log as it stands: id and seq name it only within one database's life,
    so the key also holds when the table was created and when its last event was written
    (a backup restored under a running cache, or another database on the same Redis, has
    another table 30 at seq 14, or another move 14)."""
    created = int(table.created_at.timestamp() * 1_000_000)
    last = int(table.last_event_at.timestamp() * 1_000_000)
    return f"history:timeline:v2:{table.pk}:{created}:{table.seq}:{last}:{table.rules_version}"


def build(table: Table) -> Timeline:
    """One fold of the whole log, keeping every N-th state (cached per table version)."""
    key = _cache_key(table)
    cached = cache.get(key)
    if cached is not None:
        return cached
    rules = rules_for(table)
    timeline = Timeline(table_id=table.pk, seq=table.seq)
    state = None
    started = False
    for event in table.events.filter(seq__lte=table.seq).order_by("seq").iterator():
        if event.kind == TableEvent.Kind.START:
            started = True
        if not started:
            continue
        state = fold(table, [event], state)
        if event.kind in STEP_KINDS:
            index = len(timeline.steps)
            timeline.steps.append(Step(index=index, seq=event.seq, kind=event.kind, seat=event.seat))
            if index % CHECKPOINT_EVERY == 0:
                timeline.checkpoints[index] = rules.dump(state)
    cache.set(key, timeline, 60 * 60)
    return timeline


def states_at(table: Table, timeline: Timeline, index: int) -> tuple[Any, Any]:
    """(state after step `index`, state after the step before, or None)."""
    rules = rules_for(table)
    index = max(0, min(index, timeline.last))
    base = index - index % CHECKPOINT_EVERY
    state = rules.load(timeline.checkpoints[base])
    previous = None
    if base == index:
        if index == 0:
            return state, None
        # The step before lies in the previous stretch: fold it from its checkpoint.
        previous, _unused = states_at(table, timeline, index - 1)
        return state, previous
    first_seq = timeline.steps[base].seq
    last_seq = timeline.steps[index].seq
    events = list(table.events.filter(seq__gt=first_seq, seq__lte=last_seq).order_by("seq"))
    boundary = timeline.steps[index - 1].seq
    for event in events:
        if event.seq > boundary and previous is None:
            previous = state
        state = apply_event(rules, state, event, table=table)
    return state, previous
