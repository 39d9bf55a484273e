"""Rebuild tables' states from their events alone and report disagreeing snapshots."""

from django.core.management.base import BaseCommand

from games.tables import actions
from games.tables.models import Table
from games.tables.replay import ReplayError


class Command(BaseCommand):
    help = "Fold every table's events and compare with its cached snapshot."

    def add_arguments(self, parser):
        parser.add_argument("table_ids", nargs="*", type=int, help="only these tables")
        parser.add_argument("--repair", action="store_true",
                            help="replace disagreeing snapshots with the rebuilt state")

    def handle(self, *args, table_ids=(), repair=False, **options):
        tables = Table.objects.exclude(status=Table.Status.OPEN)
        if table_ids:
            tables = tables.filter(pk__in=table_ids)
        bad = 0
        checked = 0
        for table_id in tables.values_list("pk", flat=True).order_by("pk"):
            checked += 1
            try:
                agrees = actions.check_rebuild_snapshot(table_id=table_id, repair=repair)
            except ReplayError as exc:
                bad += 1
                self.stdout.write(self.style.ERROR(f"table {table_id}: events do not replay: {exc}"))
                continue
            if not agrees:
                bad += 1
                verb = "repaired" if repair else "disagrees"
                self.stdout.write(self.style.WARNING(f"table {table_id}: snapshot {verb}"))
        self.stdout.write(f"{checked} tables checked, {bad} with a problem")
        if bad and not repair:
            raise SystemExit(1)
