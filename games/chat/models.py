"""Chat messages (stored with the table, never as game events), mutes, reports, notes."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

MAX_LENGTH = 500
NOTES_MAX_LENGTH = 10_000


class ChatMessage(models.Model):
    """One line of chat at a table, in the players' or the spectators' channel."""

    class Channel(models.TextChoices):
        PLAYERS = "players", _("Players")
        SPECTATORS = "spectators", _("Spectators")

    class BotPhrase(models.TextChoices):
        NONE = "", _("(written by a person)")
        HELLO = "hello", _("greeting")
        GOOD_GAME = "gg", _("good game")

    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE,
                              related_name="chat_messages", verbose_name=_("table"))
    channel = models.CharField(_("channel"), max_length=12, choices=Channel.choices)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.CASCADE, related_name="chat_messages",
                               verbose_name=_("author"))
    # The author's seat when written (None: a spectator). Bots have a seat and no author.
    seat = models.SmallIntegerField(_("seat"), null=True, blank=True)
    # A bot's canned phrase, translated for each reader when shown.
    bot_phrase = models.CharField(max_length=8, blank=True, choices=BotPhrase.choices)
    body = models.TextField(_("message"), max_length=MAX_LENGTH)
    created_at = models.DateTimeField(_("written at"), default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [models.Index(fields=["table", "channel", "created_at"])]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat", "bot_phrase"],
                                    condition=~Q(bot_phrase=""), name="chat_bot_phrase_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.channel}: {self.body[:40]}"


class ChatMute(models.Model):
    """`user` never sees chat by `muted`, at any table (page, push or mail)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+", verbose_name=_("muted user"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once")]
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")

    def __str__(self) -> str:
        return f"{self.user} mutes {self.muted}"


class ChatReport(models.Model):
    """A message reported to the staff."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports",
                                verbose_name=_("message"))
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                 related_name="+", verbose_name=_("reported by"))
    reason = models.CharField(_("reason"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("reported at"), auto_now_add=True)
    resolved = models.BooleanField(_("resolved"), default=False)

    class Meta:
        ordering = ["resolved", "-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"],
                                               name="chat_report_once")]
        verbose_name = _("chat report")
        verbose_name_plural = _("chat reports")

    def __str__(self) -> str:
        return f"report #{self.pk} of message #{self.message_id}"


class ChatSettings(models.Model):
    """A user's chat preferences (a row only once they change a default)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="chat_settings")
    # Mail me chat written at my tables where it is not my turn (batched, hourly at most).
    mail_chat = models.BooleanField(_("e-mail me chat at tables where it is not my turn"),
                                    default=False)
    bot_greetings = models.BooleanField(_("show the greetings of bots"), default=True)


class SeatChat(models.Model):
    """One seat's choices about its table's chat."""

    seat = models.OneToOneField("tables.Seat", on_delete=models.CASCADE, related_name="chat")
    show_spectators = models.BooleanField(default=True)


class SeatNote(models.Model):
    """A seat's private notes: only the player of the seat ever reads them."""

    seat = models.OneToOneField("tables.Seat", on_delete=models.CASCADE, related_name="note")
    text = models.TextField(blank=True, max_length=NOTES_MAX_LENGTH)
    updated_at = models.DateTimeField(default=timezone.now)
