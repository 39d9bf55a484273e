"""Ratings per game with OpenSkill (Plackett-Luce): free-for-all games of any size.

`openskill` is the library made for this: Elo and Glicko rate pairs, while a
Plackett-Luce model rates a finished 2-6 player ranking in one update. Ratings
change once, when a rated table ends (hooks.on_table_finished), and
`rebuild` folds every finished rated table in the same order to the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from django.db import transaction
from openskill.models import PlackettLuce

from games.tables.models import Table

from .models import Rating, RatingChange, Result

MODEL = PlackettLuce()


def player_key(row: Result) -> tuple:
    """Who a seat's rating belongs to: the person, or the bot level."""
    return ("u", row.user_id) if row.user_id else ("b", row.bot_level)


def rated_rows(table: Table, results: list[Result]) -> list[Result]:
    """Seats whose rating this table changes (none for unrated or abandoned tables).

    A bot level seated twice at one table is rated through its first seat only;
    its other seats still count as opponents.
    """
    if not table.rated or not results or any(r.outcome == Result.Outcome.NONE for r in results):
        return []
    seen, rows = set(), []
    for row in sorted(results, key=lambda r: r.position):
        key = player_key(row)
        if key in seen or (not row.user_id and not row.bot_level):
            continue
        seen.add(key)
        rows.append(row)
    return rows


def updates(results: list[Result], priors: dict[tuple, tuple[float, float]]
            ) -> list[tuple[Result, tuple[float, float], tuple[float, float]]]:
    """(row, (mu, sigma) before, after) for every seat, from the seats' places."""
    start = MODEL.rating()
    ordered = sorted(results, key=lambda r: r.position)
    teams, ranks = [], []
    for row in ordered:
        mu, sigma = priors.get(player_key(row), (start.mu, start.sigma))
        teams.append([MODEL.create_rating([mu, sigma])])
        ranks.append(row.place or len(ordered))
    rated = MODEL.rate(teams, ranks=ranks)
    return [(row, priors.get(player_key(row), (start.mu, start.sigma)),
             (team[0].mu, team[0].sigma)) for row, team in zip(ordered, rated)]


def apply_table(table: Table, results: list[Result]) -> list[RatingChange]:
    """Change the ratings for a rated table that just ended (inside its transaction)."""
    everyone = sorted(results, key=lambda r: r.position)
    rows = rated_rows(table, everyone)
    if not rows:
        return []
    at = table.finished_at
    start = MODEL.rating()
    keys = {player_key(r) for r in rows}
    locked = {}
    for kind, ident in sorted(keys, key=str):
        lookup = {"user_id": ident} if kind == "u" else {"user": None, "bot_level": ident}
        Rating.objects.get_or_create(game=table.game, **lookup, defaults={
            "mu": start.mu, "sigma": start.sigma, "updated_at": at,
            "bot_level": "" if kind == "u" else ident})
        locked[(kind, ident)] = Rating.objects.select_for_update().get(game=table.game, **lookup)
    # Every seat takes part in the update (also a bot level's second seat, at its prior).
    priors = {}
    for row in everyone:
        key = player_key(row)
        if key in locked:
            priors[key] = (locked[key].mu, locked[key].sigma)
    changes = []
    rated_positions = {r.position for r in rows}
    for row, before, after in updates(everyone, priors):
        if row.position not in rated_positions:
            continue
        rating = locked[player_key(row)]
        rating.mu, rating.sigma = after
        rating.games += 1
        rating.wins += int(row.outcome == Result.Outcome.WON)
        rating.updated_at = at
        rating.save(update_fields=["mu", "sigma", "games", "wins", "updated_at"])
        changes.append(RatingChange(
            table=table, position=row.position, game=table.game, user_id=row.user_id,
            bot_level="" if row.user_id else row.bot_level, mu_before=before[0],
            sigma_before=before[1], mu=after[0], sigma=after[1], at=at))
    RatingChange.objects.bulk_create(changes)
    return changes


@dataclass
class Rebuilt:
    ratings: dict[tuple, dict]
    changes: list[dict]


def fold(tables: Iterable[tuple[Table, list[Result]]]) -> Rebuilt:
    """Ratings from finished tables in order, in memory."""
    start = MODEL.rating()
    current: dict[tuple, dict] = {}
    changes = []
    for table, results in tables:
        everyone = sorted(results, key=lambda r: r.position)
        rows = rated_rows(table, everyone)
        if not rows:
            continue
        rated_positions = {r.position for r in rows}
        priors = {}
        for row in everyone:
            key = (table.game, *player_key(row))
            if key in current:
                priors[player_key(row)] = (current[key]["mu"], current[key]["sigma"])
        for row, before, after in updates(everyone, priors):
            if row.position not in rated_positions:
                continue
            key = (table.game, *player_key(row))
            entry = current.setdefault(key, {"mu": start.mu, "sigma": start.sigma,
                                             "games": 0, "wins": 0})
            entry["mu"], entry["sigma"] = after
            entry["games"] += 1
            entry["wins"] += int(row.outcome == Result.Outcome.WON)
            changes.append({"table": table.pk, "position": row.position, "key": key,
                            "mu_before": before[0], "sigma_before": before[1],
                            "mu": after[0], "sigma": after[1]})
    return Rebuilt(ratings=current, changes=changes)


def stored() -> Rebuilt:
    """The stored ratings and changes in the shape `fold` returns."""
    ratings = {}
    for r in Rating.objects.all():
        key = (r.game, "u", r.user_id) if r.user_id else (r.game, "b", r.bot_level)
        ratings[key] = {"mu": r.mu, "sigma": r.sigma, "games": r.games, "wins": r.wins}
    changes = []
    for c in RatingChange.objects.order_by("at", "table_id", "position"):
        key = (c.game, "u", c.user_id) if c.user_id else (c.game, "b", c.bot_level)
        changes.append({"table": c.table_id, "position": c.position, "key": key,
                        "mu_before": c.mu_before, "sigma_before": c.sigma_before,
                        "mu": c.mu, "sigma": c.sigma})
    return Rebuilt(ratings=ratings, changes=changes)


def finished_rated_tables():
    """Finished rated tables in the order their ratings changed."""
    return (Table.objects.filter(status=Table.Status.FINISHED, rated=True)
            .order_by("finished_at", "pk"))


def replace_all(rebuilt: Rebuilt, when_of: dict[int, object]) -> None:
    """Store `rebuilt` in place of every rating and change."""
    with transaction.atomic():
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        for (game, kind, ident), entry in rebuilt.ratings.items():
            Rating.objects.create(game=game, user_id=ident if kind == "u" else None,
                                  bot_level="" if kind == "u" else ident, mu=entry["mu"],
                                  sigma=entry["sigma"], games=entry["games"], wins=entry["wins"],
                                  updated_at=max(when_of[c["table"]] for c in rebuilt.changes
                                                 if c["key"] == (game, kind, ident)))
        RatingChange.objects.bulk_create([
            RatingChange(table_id=c["table"], position=c["position"], game=c["key"][0],
                         user_id=c["key"][2] if c["key"][1] == "u" else None,
                         bot_level="" if c["key"][1] == "u" else c["key"][2],
                         mu_before=c["mu_before"], sigma_before=c["sigma_before"], mu=c["mu"],
                         sigma=c["sigma"], at=when_of[c["table"]])
            for c in rebuilt.changes])
