"""Reads: who may read and write which channel of a table's chat, and what they see."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from games.tables.models import Seat, Table

from .models import ChatMessage, ChatMute, ChatSettings, SeatChat

Channel = ChatMessage.Channel

# Seat colours come with a shape and the seat number, so colour is never the only cue.
SEAT_MARKS = ("●", "▲", "■", "◆", "★", "✚", "⬟", "⬢")


def close_after_days() -> int:
    """Days after a table ends during which its chat still takes messages."""
    return getattr(settings, "CHAT_CLOSE_AFTER_DAYS", 7)


@dataclass
class Reader:
    """One person (or nobody) looking at a table's chat."""

    table: Table
    user: object = None
    seat: Seat | None = None
    show_spectators: bool = True
    muted_ids: frozenset = field(default_factory=frozenset)
    bot_greetings: bool = True

    @property
    def is_player(self) -> bool:
        return self.seat is not None

    @property
    def channels(self) -> list[str]:
        """The channels this reader may read."""
        if self.is_player:
            return [Channel.PLAYERS] + ([Channel.SPECTATORS] if self.show_spectators else [])
        return [Channel.SPECTATORS]

    @property
    def write_channel(self) -> str | None:
        """Where this reader's messages go: players among players, spectators apart."""
        if self.user is None or not self.user.is_authenticated:
            return None
        return Channel.PLAYERS if self.is_player else Channel.SPECTATORS

    def may_read(self, message: ChatMessage) -> bool:
        if message.channel not in self.channels:
            return False
        if message.author_id is not None and message.author_id in self.muted_ids:
            return False
        if message.bot_phrase and not self.bot_greetings:
            return False
        return True


def chat_settings(user) -> ChatSettings:
    """The user's settings (defaults if they never changed one)."""
    if user is None or not user.is_authenticated:
        return ChatSettings()
    return ChatSettings.objects.filter(user=user).first() or ChatSettings(user=user)


def muted_ids(user) -> frozenset:
    if user is None or not user.is_authenticated:
        return frozenset()
    return frozenset(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def reader_for(table: Table, user) -> Reader:
    """The reader `user` is at `table`: a human seat makes a player, else a spectator."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Reader(table=table)
    seat = Seat.objects.filter(table=table, user=user).first()
    prefs = SeatChat.objects.filter(seat=seat).first() if seat else None
    options = chat_settings(user)
    return Reader(table=table, user=user, seat=seat,
                  show_spectators=prefs.show_spectators if prefs else True,
                  muted_ids=muted_ids(user), bot_greetings=options.bot_greetings)


def readable(reader: Reader, *, since=None, limit: int = 200) -> list[ChatMessage]:
    """The messages `reader` may read at its table, oldest first (the newest `limit`)."""
    qs = (ChatMessage.objects.filter(table=reader.table, channel__in=reader.channels)
          .select_related("author"))
    if reader.muted_ids:
        qs = qs.exclude(author_id__in=reader.muted_ids)
    if not reader.bot_greetings:
        qs = qs.filter(bot_phrase="")
    if since is not None:
        qs = qs.filter(created_at__gt=since)
    rows = list(qs.order_by("-created_at", "-id")[:limit])
    rows.reverse()
    return rows


def closes_at(table: Table):
    """When the chat of an ended table stops taking messages (None while it runs)."""
    if not table.is_over:
        return None
    ended = table.finished_at or table.last_event_at
    return ended + timedelta(days=close_after_days())


def write_refusal(reader: Reader, *, now=None) -> str | None:
    """Why `reader` may not write now (translated), or None."""
    if reader.write_channel is None:
        return _("Sign in to chat.")
    end = closes_at(reader.table)
    if end is not None and (now or timezone.now()) >= end:
        return _("This chat is closed: the table ended more than %(days)s days ago.") % {
            "days": close_after_days()}
    return None


def seat_names(table: Table) -> dict[int, str]:
    """Seat position → the name the table page shows (bots named like the seats list)."""
    from games.tables.selectors import Viewer, seat_rows

    return {row["position"]: row["name"] for row in seat_rows(table, Viewer())}


def bot_text(phrase: str) -> str:
    """A bot's canned phrase in the active language."""
    if phrase == ChatMessage.BotPhrase.HELLO:
        return _("Hello! Have a good game.")
    if phrase == ChatMessage.BotPhrase.GOOD_GAME:
        return _("Good game!")
    return ""


def display(message: ChatMessage, names: dict[int, str]) -> dict:
    """What a message shows, in the active language: author, seat mark, text."""
    seat = message.seat
    if message.bot_phrase:
        name = names.get(seat, _("Bot"))
        text = bot_text(message.bot_phrase)
    else:
        name = message.author.name if message.author_id else _("(deleted)")
        text = message.body
    return {
        "message": message, "name": name, "text": text, "seat": seat,
        "seat_number": seat + 1 if seat is not None else None,
        "mark": SEAT_MARKS[seat % len(SEAT_MARKS)] if seat is not None else "◌",
        "seat_class": f"chat-seat-{seat % len(SEAT_MARKS)}" if seat is not None
        else "chat-spectator",
        "is_bot": bool(message.bot_phrase),
    }
