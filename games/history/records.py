"""Portable game records: a finished table as JSON, and back.

A record holds the game, its rules version, options, the seats (names, bots
with level), the seed (a finished game has no secrets left), every event in
order and the result. Importing folds the events again: the record says which
final state it must reach (a hash of the rules' dump), so a changed rules
engine cannot import an old record silently wrong.
"""

from __future__ import annotations

import hashlib
import json
from types import SimpleNamespace
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games.engine import get_rules
from games.tables.models import Seat, Table, TableEvent
from games.tables.replay import apply_event, current_state, rules_for

FORMAT = "pyramid-tables-record"
FORMAT_VERSION = 1


class RecordError(Exception):
    """A record that cannot be imported (bad shape, other game version, different result)."""


def state_hash(rules, state) -> str:
    """A stable fingerprint of a state: sha256 of the rules' dump as canonical JSON."""
    text = json.dumps(rules.dump(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _names_by_id(table: Table) -> dict[int, str]:
    ids = {s.user_id for s in table.seats.all() if s.user_id}
    ids |= set(table.events.exclude(actor=None).values_list("actor_id", flat=True))
    return dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "username"))


def _swap_users(data: Any, mapping: dict) -> Any:
    """`data` with every "user" value mapped (ids to names on export, names to ids on import)."""
    if isinstance(data, dict):
        return {k: (mapping.get(v) if k == "user" and v is not None else _swap_users(v, mapping))
                for k, v in data.items()}
    if isinstance(data, list):
        return [_swap_users(v, mapping) for v in data]
    return data


def export(table: Table) -> dict:
    """The record of a finished table (ValueError for any other table)."""
    if table.status != Table.Status.FINISHED:
        raise ValueError("only a finished table has a record")
    from .people import annotate

    rules = rules_for(table)
    names = _names_by_id(table)
    annotate([table])
    seats = {s.position: s for s in table.seats.all()}
    state = current_state(table)
    result = rules.result(state) if state is not None else None
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION,
        "game": table.game, "rules_version": table.rules_version, "options": table.options,
        "players": table.players, "seed": table.seed, "rated": table.rated,
        "time_control": table.time_control, "timeout_policy": table.timeout_policy,
        "started_at": table.started_at.isoformat() if table.started_at else None,
        "finished_at": table.finished_at.isoformat() if table.finished_at else None,
        "seats": [{"position": p["position"], "name": p["name"],
                   "username": p["user"].username if p["user"] else None,
                   "bot": seats[p["position"]].bot_level or None,
                   "taken_over": seats[p["position"]].taken_over}
                  for p in table.people],
        "events": [{"seq": e.seq, "kind": e.kind, "seat": e.seat,
                    "data": _swap_users(e.data, names),
                    "actor": names.get(e.actor_id) if e.actor_id else None,
                    "at": e.created_at.isoformat()} for e in table.events.order_by("seq")],
        "outcome": table.outcome,
        "result": result,
        "final_state_sha256": state_hash(rules, state) if state is not None else None,
    }


def replay_record(record: dict) -> Any:
    """The final state a record's events fold to (pure: no database)."""
    check_shape(record)
    rules = get_rules(record["game"]).for_version(record["rules_version"])
    table = SimpleNamespace(players=record["players"], seed=record["seed"],
                            options=record["options"], pk=None)
    state = None
    for raw in record["events"]:
        event = SimpleNamespace(kind=raw["kind"], seat=raw.get("seat"), data=raw.get("data") or {},
                                seq=raw["seq"])
        state = apply_event(rules, state, event, table=table)
    return state


def check_shape(record: Any) -> None:
    """Refuse anything that is not a record this site can read."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("not a game record")
    if record.get("format_version") != FORMAT_VERSION:
        raise RecordError(f"unknown record format version {record.get('format_version')}")
    try:
        rules = get_rules(record["game"])
    except KeyError:
        raise RecordError(f"unknown game {record.get('game')!r}") from None
    try:
        rules.for_version(record.get("rules_version"))
    except KeyError:
        raise RecordError(f"{record['game']} rules version {record.get('rules_version')} "
                          f"(this site plays version {rules.rules_version})") from None
    for key in ("players", "seed", "options", "seats", "events"):
        if key not in record:
            raise RecordError(f"the record has no {key}")
    seqs = [e.get("seq") for e in record["events"]]
    if seqs != list(range(1, len(seqs) + 1)):
        raise RecordError("events must be numbered 1, 2, 3... in order")


def verify(record: dict) -> Any:
    """The record's final state, checked against its hash and result."""
    state = replay_record(record)
    rules = get_rules(record["game"]).for_version(record["rules_version"])
    if state is None:
        raise RecordError("the record's game never started")
    if record.get("final_state_sha256") and state_hash(rules, state) != record["final_state_sha256"]:
        raise RecordError("the events do not fold to the record's final state")
    if record.get("result") is not None and rules.result(state) != record["result"]:
        raise RecordError("the events do not give the record's result")
    return state


def _user_for(username: str | None, name: str):
    """The site user called `username`, or a new inactive one standing for them."""
    User = get_user_model()
    if not username:
        return None
    user = User.objects.filter(username__iexact=username).first()
    if user is not None:
        return user
    user = User(username=username[:150], display_name=(name or username)[:40], is_active=False)
    user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def import_record(record: dict, *, creator=None) -> Table:
    """A new finished table from a record; it replays to the record's final state.

    Imported tables are unrated: an old game must not move today's ratings.
    """
    from . import results

    state = verify(record)
    rules = get_rules(record["game"])
    seats = sorted(record["seats"], key=lambda s: s["position"])
    users = {s["position"]: _user_for(s.get("username"), s.get("name", "")) for s in seats}
    owner = creator or next((u for u in users.values() if u is not None), None)
    if owner is None:
        raise RecordError("a record needs at least one person to own the table")
    finished_at = parse_datetime(record.get("finished_at") or "") or timezone.now()
    table = Table.objects.create(
        game=record["game"], options=record["options"], players=record["players"],
        seed=record["seed"], status=Table.Status.FINISHED, is_private=False, created_by=owner,
        rules_version=record["rules_version"], rated=False,
        time_control=record.get("time_control") or {"kind": "move", "days": 3},
        timeout_policy=record.get("timeout_policy") or Table.TimeoutPolicy.BOT,
        started_at=parse_datetime(record.get("started_at") or "") or finished_at,
        finished_at=finished_at, seq=len(record["events"]), snapshot=rules.dump(state),
        snapshot_seq=len(record["events"]), to_move=[], outcome=record.get("outcome")
        or rules.outcome(state))
    Table.objects.filter(pk=table.pk).update(last_event_at=finished_at)
    table.refresh_from_db()
    Seat.objects.bulk_create([
        Seat(table=table, position=s["position"], user=users[s["position"]],
             bot_level=((s.get("bot") or "") if s.get("taken_over") else "")
             if users[s["position"]] else (s.get("bot") or "random"),
             taken_over=bool(users[s["position"]] and s.get("taken_over")),
             joined_at=table.started_at,
             resigned=any(e["kind"] in ("resign", "timeout") and e.get("seat") == s["position"]
                          for e in record["events"]))
        for s in seats])
    by_name = {u.username: u.pk for u in users.values() if u is not None}
    TableEvent.objects.bulk_create([
        TableEvent(table=table, seq=e["seq"], kind=e["kind"], seat=e.get("seat"),
                   data=_swap_users(e.get("data") or {}, by_name),
                   actor_id=by_name.get(e.get("actor")) if e.get("actor") else None)
        for e in record["events"]])
    results.record(table, state)
    return table


def record_from_moves(*, game: str, players: int, seed: int, options: dict, seats: list[dict],
                      moves: list[tuple[int, dict]]) -> dict:
    """A record of a game played outside any table (the golden records' generator)."""
    rules = get_rules(game)
    options = rules.clean_options(options)
    state = rules.new_game(players=players, seed=seed, options=options)
    events = [{"seq": 1, "kind": "start", "seat": None,
               "data": {"seats": [{"user": s.get("username"), "bot": s.get("bot") or ""}
                                  for s in seats]}, "actor": None, "at": None}]
    for seat, move in moves:
        state = rules.apply(state, seat, move)
        events.append({"seq": len(events) + 1, "kind": "move", "seat": seat,
                       "data": {"move": move}, "actor": None, "at": None})
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "game": game,
        "rules_version": rules.rules_version, "options": options, "players": players,
        "seed": seed, "rated": False, "started_at": None, "finished_at": None,
        "seats": seats, "events": events, "outcome": rules.outcome(state),
        "result": rules.result(state), "final_state_sha256": state_hash(rules, state),
    }
