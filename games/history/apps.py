from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HistoryConfig(AppConfig):
    """What a finished game leaves: results, ratings, replays, records, profiles."""

    name = "games.history"
    label = "history"
    verbose_name = _("History and ratings")

    def ready(self):
        from games.tables.signals import table_finished

        from . import hooks

        table_finished.connect(hooks.on_table_finished, dispatch_uid="history-finished")
