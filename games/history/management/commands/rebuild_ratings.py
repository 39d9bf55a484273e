"""Fold every finished rated table in order and compare with (or replace) the stored ratings."""

from django.core.management.base import BaseCommand

from games.history import ratings, results
from games.tables.replay import state_from_events


class Command(BaseCommand):
    help = ("Rebuild ratings from the event log: every finished rated table, in the order they "
            "ended. Prints whether the stored ratings agree; --write replaces them.")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="replace the stored ratings")

    def handle(self, *args, write=False, **options):
        folded = []
        when = {}
        for table in ratings.finished_rated_tables().iterator():
            state = state_from_events(table)  # the log, not the snapshot
            seats = list(table.seats.order_by("position"))
            rows = results.compute(table, state, seats, results.leavers(table))
            folded.append((table, rows))
            when[table.pk] = table.finished_at
        rebuilt = ratings.fold(folded)
        stored = ratings.stored()
        agree = rebuilt.ratings == stored.ratings and rebuilt.changes == stored.changes
        self.stdout.write(f"{len(folded)} rated tables, {len(rebuilt.ratings)} ratings: "
                          + ("the stored ratings agree" if agree else "the stored ratings DIFFER"))
        if write and not agree:
            ratings.replace_all(rebuilt, when)
            self.stdout.write("stored ratings replaced")
        return None

