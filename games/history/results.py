"""Each seat's result of a finished table, from the game's rules and how the table ended."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import places_from_keys
from games.tables.replay import rules_for
from games.tables.models import Seat, Table, TableEvent

from .models import Result


def leavers(table: Table) -> dict[int, str]:
    """Seats that left before the end: position -> "resign" or "timeout"."""
    out: dict[int, str] = {}
    for event in table.events.filter(kind__in=(TableEvent.Kind.RESIGN, "timeout")).order_by("seq"):
        if event.seat is not None:
            out.setdefault(event.seat, "resign" if event.kind == TableEvent.Kind.RESIGN else "timeout")
    return out


def compute(table: Table, state: Any, seats: list[Seat], left: dict[int, str]) -> list[Result]:
    """Unsaved Result rows, one per seat, for a finished `table` whose last state is `state`."""
    outcome = table.outcome or {}
    reason = outcome.get("reason")
    n = table.players
    scores: list = [None] * n
    if reason == "abandoned":
        ended, places, winners = Result.Ended.ABANDONED, [None] * n, []
    elif reason in ("resign", "timeout") and ("resigned" in outcome or "timed_out" in outcome):
        # The game could not go on without the seat that left: the others share the top.
        ended = Result.Ended.RESIGN if reason == "resign" else Result.Ended.TIMEOUT
        winners = list(outcome.get("winners", []))
        keys = [0 if p in left else 1 for p in range(n)]
        places = places_from_keys(keys)
        game_result = rules_for(table).result(state) if state is not None else None
        if game_result:
            scores = list(game_result["scores"])
    else:
        game_result = rules_for(table).result(state) if state is not None else None
        if game_result is None:  # a stored outcome without a final state (should not happen)
            winners = list(outcome.get("winners", []))
            places = places_from_keys([int(p in winners) for p in range(n)])
        else:
            winners, places, scores = (list(game_result["winners"]), list(game_result["places"]),
                                       list(game_result["scores"]))
        # Played to the end (a seat that left earlier has its own `left`).
        ended = Result.Ended.FINISHED
    rows = []
    for seat in seats:
        p = seat.position
        if ended == Result.Ended.ABANDONED:
            result = Result.Outcome.NONE
        elif p in winners:
            result = Result.Outcome.WON if len(winners) == 1 else Result.Outcome.SHARED
        elif ended != Result.Ended.FINISHED and p not in left:
            result = Result.Outcome.SHARED  # several stayed when the game had to end
        else:
            result = Result.Outcome.LOST
        score = scores[p] if p < len(scores) else None
        rows.append(Result(
            table=table, position=p, user_id=seat.user_id,
            bot_level="" if (seat.user_id and seat.taken_over) else seat.bot_level,
            game=table.game, place=places[p], score=float(score) if isinstance(score, (int, float))
            and not isinstance(score, bool) else None,
            outcome=result, ended=ended, left=left.get(p, ""),
            finished_at=table.finished_at or table.last_event_at))
    return rows


def record(table: Table, state: Any) -> list[Result]:
    """Write (or rewrite) the results of a finished table."""
    seats = list(table.seats.order_by("position"))
    rows = compute(table, state, seats, leavers(table))
    Result.objects.filter(table=table).delete()
    Result.objects.bulk_create(rows)
    return rows


# -- words -------------------------------------------------------------------------

def ordinal(place: int) -> str:
    """1st, 2nd... in the active language."""
    if place == 1:
        return _("1st")
    if place == 2:
        return _("2nd")
    if place == 3:
        return _("3rd")
    return _("%(n)sth") % {"n": place}


def score_text(score) -> str:
    if score is None:
        return ""
    value = int(score) if float(score).is_integer() else score
    return ngettext("%(n)s point", "%(n)s points", abs(int(value)) if isinstance(value, int) else 2) % {"n": value}


def how_it_ended(row: Result, names: dict[int, str], leavers_of_table: list[Result]) -> str:
    """How the table ended, seen from `row`'s seat."""
    if row.ended == Result.Ended.ABANDONED:
        return _("Abandoned: nobody moved for 30 days.")
    if row.left == "resign":
        return _("You resigned.")
    if row.left == "timeout":
        return _("You ran out of time.")
    others = [r for r in leavers_of_table if r.position != row.position and r.left]
    if others:
        who = others[0]
        name = names.get(who.position, "?")
        if who.left == "timeout":
            return _("%(name)s ran out of time.") % {"name": name}
        return _("%(name)s resigned.") % {"name": name}
    return _("Played to the end.")


def verdict(row: Result, players: int) -> str:
    """"Won", "2nd of 4", "Shared win"... from the seat's side."""
    if row.outcome == Result.Outcome.NONE:
        return _("No result")
    if row.outcome == Result.Outcome.WON:
        return _("Won")
    if row.outcome == Result.Outcome.SHARED:
        return _("Shared win")
    if row.place and players > 2:
        return _("%(place)s of %(n)s") % {"place": ordinal(row.place), "n": players}
    return _("Lost")
