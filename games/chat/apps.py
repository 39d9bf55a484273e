from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ChatConfig(AppConfig):
    """Talk at the table: chat per table, mutes and reports, private seat notes."""

    name = "games.chat"
    label = "chat"
    verbose_name = _("Chat")
    default_auto_field = "django.db.models.BigAutoField"
