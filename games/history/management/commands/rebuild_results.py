"""Write every finished table's seat results again from its event log.

Tables that finished before the history app existed get their results here;
running it again changes nothing (results are a projection of the log).
"""

from django.core.management.base import BaseCommand
from django.db import transaction

from games.history import results
from games.history.models import Result
from games.tables.models import Table
from games.tables.replay import state_from_events


class Command(BaseCommand):
    help = "Rebuild the seat results of finished tables from their event logs."

    def add_arguments(self, parser):
        parser.add_argument("--missing", action="store_true",
                            help="only tables that have no results yet")

    def handle(self, *args, missing=False, **options):
        tables = Table.objects.filter(status=Table.Status.FINISHED).order_by("finished_at", "pk")
        if missing:
            tables = tables.exclude(pk__in=Result.objects.values("table_id"))
        changed = count = 0
        for table in tables.iterator():
            count += 1
            with transaction.atomic():
                before = sorted(Result.objects.filter(table=table).values_list(
                    "position", "user_id", "bot_level", "place", "score", "outcome", "ended", "left"))
                rows = results.record(table, state_from_events(table))
                after = sorted((r.position, r.user_id, r.bot_level, r.place, r.score, r.outcome,
                                r.ended, r.left) for r in rows)
                changed += before != after
        self.stdout.write(f"{count} finished tables, {changed} with new or changed results")
