from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "games.tables"
    label = "tables"
    verbose_name = _("Tables")

    def ready(self):
        from . import checks, dbpool  # noqa: F401
