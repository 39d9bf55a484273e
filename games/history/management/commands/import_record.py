"""Recreate a finished table from a JSON game record."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.history.records import RecordError, import_record


class Command(BaseCommand):
    help = "Recreate a finished table from a game record (JSON); it replays to the same final state."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the record, as downloaded from a finished table")

    def handle(self, *args, file, **options):
        try:
            with open(file, encoding="utf-8") as fh:
                record = json.load(fh)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        try:
            table = import_record(record)
        except RecordError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"table {table.pk}: {table.game}, {table.players} players, "
                          f"{table.seq} events, replays to the record's final state")
