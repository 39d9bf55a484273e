"""The only writers of chat, mutes, reports and notes (HackSoft-style services).

Chat is not part of the game: nothing here touches the table's event log or seq.
Pushes go out after commit as their own `chat.message` event on the table's group.
"""

from __future__ import annotations

import logging
import unicodedata

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.tables import actions
from games.tables.broadcast import group_name
from games.tables.models import Seat, Table

from .models import (MAX_LENGTH, NOTES_MAX_LENGTH, ChatMessage, ChatMute, ChatReport,
                     ChatSettings, SeatChat, SeatNote)
from .selectors import Reader, reader_for, write_refusal

log = logging.getLogger(__name__)


class ChatError(Exception):
    """A refused chat action, with a translated message for the user."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _plain(text: str) -> str:
    """Text without control characters (line breaks and tabs kept)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch) != "Cc")


def clean_body(body) -> str:
    """The text of a message: trimmed; refused if empty or longer than allowed."""
    if not isinstance(body, str):
        raise ChatError(_("A message must be text."))
    body = _plain(body).strip()
    if not body:
        raise ChatError(_("Write something first."))
    if len(body) > MAX_LENGTH:
        raise ChatError(_("A message can have at most %(max)s characters (this one has %(n)s).")
                        % {"max": MAX_LENGTH, "n": len(body)})
    return body


def push_message(table_id: int, message_id: int) -> None:
    """Tell every open page of the table about one new message (each filters and renders)."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(table_id), {
            "type": "chat.message", "table_id": table_id, "message_id": message_id})
    except Exception:  # noqa: BLE001 - Redis down: the message is stored, pages show it on reload
        log.warning("chat push for table %s failed", table_id, exc_info=True)


def _push_after_commit(message: ChatMessage) -> None:
    table_id, message_id = message.table_id, message.pk
    transaction.on_commit(lambda: push_message(table_id, message_id))


def check_post_message(*, table: Table, user, body, token: str | None = None,
                       now=None) -> ChatMessage:
    """Validate and store a message by `user`; the channel follows from their seat."""
    if user is None or not user.is_authenticated:
        raise ChatError(_("Sign in to chat."))
    if not actions.can_see(table, user, token=token):
        raise ChatError(_("This table is by invitation only."))
    body = clean_body(body)
    reader = reader_for(table, user)
    refusal = write_refusal(reader, now=now)
    if refusal:
        raise ChatError(refusal)
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table=table, channel=reader.write_channel, author=user,
            seat=reader.seat.position if reader.seat else None, body=body,
            created_at=now or timezone.now())
        _push_after_commit(message)
    return message


def do_bot_phrase(*, table: Table, seat: Seat, phrase: str) -> ChatMessage | None:
    """A bot's greeting or good game, once per seat and table (a repeat is a no-op)."""
    from .selectors import bot_text

    try:
        with transaction.atomic():
            message = ChatMessage.objects.create(
                table=table, channel=ChatMessage.Channel.PLAYERS, seat=seat.position,
                bot_phrase=phrase, body=bot_text(phrase))
            _push_after_commit(message)
    except IntegrityError:
        return None
    return message


def set_show_spectators(*, table: Table, user, show: bool) -> SeatChat:
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise ChatError(_("Only the players of this table choose that."))
    prefs, _created = SeatChat.objects.update_or_create(seat=seat,
                                                        defaults={"show_spectators": show})
    return prefs


def set_muted(*, user, other, muted: bool) -> None:
    """Mute (or unmute) `other`'s chat for `user`, at every table."""
    if other.pk == user.pk:
        raise ChatError(_("You cannot mute yourself."))
    if muted:
        ChatMute.objects.get_or_create(user=user, muted=other)
    else:
        ChatMute.objects.filter(user=user, muted=other).delete()


def report_message(*, message: ChatMessage, reporter, reason: str = "") -> ChatReport:
    """Record a report for the staff; reporting the same message again updates the reason."""
    reader: Reader = reader_for(message.table, reporter)
    if not reader.may_read(message) or message.author_id == reporter.pk:
        raise ChatError(_("You cannot report this message."))
    report, _created = ChatReport.objects.update_or_create(
        message=message, reporter=reporter,
        defaults={"reason": (reason or "").strip()[:500], "resolved": False})
    return report


def update_settings(*, user, **values) -> ChatSettings:
    allowed = {k: bool(v) for k, v in values.items() if k in ("mail_chat", "bot_greetings")}
    options, _created = ChatSettings.objects.update_or_create(user=user, defaults=allowed)
    return options


def save_note(*, table: Table, user, text) -> SeatNote:
    """Store the private notes of `user`'s seat at `table` (kept after the game)."""
    if not isinstance(text, str):
        raise ChatError(_("Notes must be text."))
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is None:
        raise ChatError(_("Only the players of this table have notes here."))
    text = _plain(text)
    if len(text) > NOTES_MAX_LENGTH:
        raise ChatError(_("Notes can have at most %(max)s characters.") % {"max": NOTES_MAX_LENGTH})
    note, _created = SeatNote.objects.update_or_create(
        seat=seat, defaults={"text": text, "updated_at": timezone.now()})
    return note


def note_for(table: Table, user) -> SeatNote | None:
    """The private note of `user`'s own seat (never anyone else's)."""
    if user is None or not user.is_authenticated:
        return None
    return SeatNote.objects.filter(seat__table=table, seat__user=user).first()
