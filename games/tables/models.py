"""Tables, seats and the append-only event log."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


def new_seed() -> int:
    """A table's secret seed: all chance in its game comes from it."""
    return secrets.randbits(62)


def new_token() -> str:
    """The secret part of a private table's invitation link."""
    return secrets.token_urlsafe(16)


def default_time_control() -> dict:
    """Three days per move (see games/tables/clocks.py)."""
    return {"kind": "move", "days": 3}


class Table(models.Model):
    """One game being set up, played or finished."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        ABORTED = "aborted", _("Aborted")

    class TimeoutPolicy(models.TextChoices):
        BOT = "bot", _("A bot takes over the seat")
        DROP = "drop", _("The player is dropped")

    game = models.CharField(_("game"), max_length=40)
    options = models.JSONField(_("options"), default=dict)
    players = models.PositiveSmallIntegerField(_("seats"))
    seed = models.BigIntegerField(default=new_seed, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    is_private = models.BooleanField(_("invite only"), default=False)
    invite_token = models.CharField(max_length=40, default=new_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                                   related_name="created_tables")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_event_at = models.DateTimeField(auto_now_add=True)
    # The number of the last event; a move must name it (optimistic concurrency).
    seq = models.PositiveIntegerField(default=0)
    # A cache of the game state after event `snapshot_seq`; the events are the truth.
    snapshot = models.JSONField(null=True, blank=True)
    snapshot_seq = models.PositiveIntegerField(default=0)
    to_move = models.JSONField(default=list, blank=True)
    outcome = models.JSONField(null=True, blank=True)
    # Clocks in days, chosen at creation (games/tables/clocks.py).
    time_control = models.JSONField(_("time control"), default=default_time_control)
    timeout_policy = models.CharField(_("when a clock runs out"), max_length=8,
                                      choices=TimeoutPolicy.choices, default=TimeoutPolicy.BOT)
    # Rated tables change ratings when they end (games/history); chosen at creation.
    rated = models.BooleanField(_("rated"), default=False)
    # The game's rules version when the table was created (old logs stay replayable).
    rules_version = models.PositiveIntegerField(default=1)
    # Optional seating at the start instead of a draw from the seed (a rematch
    # rotates the seats): one {"user": id} or {"bot": level} per position.
    seating = models.JSONField(null=True, blank=True)
    # An open table that never started was announced to its creator as soon to be
    # abandoned (clocks.ABANDON_WARNING before the end).
    abandon_warned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-last_event_at"]
        indexes = [models.Index(fields=["status", "is_private"])]

    def __str__(self) -> str:
        return f"{self.game} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("tables:table", args=[self.pk])

    @property
    def group_name(self) -> str:
        return f"table-{self.pk}"

    @property
    def is_over(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)


class SeatKind:
    """Who sits in a seat, read alike from a Seat row and from the records lists draw
    (games.history.people.ListedSeat): both have user_id and bot_level."""

    __slots__ = ()

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.bot_level


class Seat(SeatKind, models.Model):
    """A place at a table, taken by a person or a bot."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.SmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="seats")
    bot_level = models.CharField(max_length=20, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    resigned = models.BooleanField(default=False)
    # When this seat started to owe its current decision (None: owes nothing).
    owes_since = models.DateTimeField(null=True, blank=True)
    # The clock of the current decision: a deadline, not a counter (vacations
    # booked later push it back when read, see clocks.effective_deadline).
    deadline = models.DateTimeField(null=True, blank=True)
    # Time bank left when the current clock started (time-bank tables only).
    bank = models.DurationField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    # A bot plays the seat since its player ran out of time; they may reclaim it.
    taken_over = models.BooleanField(default=False)
    # The clock ran out while no other human plays here: the table waits for this
    # player (no bot plays a seat for nobody) until they return or the pause ends.
    paused_at = models.DateTimeField(null=True, blank=True)
    # Turn e-mails: per-table mute, last page visit, last mail, live socket heartbeat.
    muted = models.BooleanField(default=False)
    visited_at = models.DateTimeField(null=True, blank=True)
    turn_mailed_at = models.DateTimeField(null=True, blank=True)
    socket_seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["table", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}"


class Invitation(models.Model):
    """An invitation of a user, by name, to a table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="invitations")
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["table", "user"], name="invitation_unique")]


class TableEvent(models.Model):
    """One thing that happened at a table. Append-only: never updated or deleted."""

    class Kind(models.TextChoices):
        JOIN = "join", _("joined")
        LEAVE = "leave", pgettext_lazy("table event", "left")
        START = "start", _("started")
        MOVE = "move", _("moved")
        RESIGN = "resign", _("resigned")
        ABORT = "abort", _("aborted")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    seat = models.SmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    # The client's key of the submission that wrote this event: a retry with the
    # same key is answered with this event instead of writing another.
    submission_key = models.CharField(max_length=64, null=True, blank=True, editable=False)

    class Meta:
        ordering = ["table", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_unique_seq"),
            models.UniqueConstraint(fields=["table", "submission_key"], name="event_unique_submission",
                                    condition=models.Q(submission_key__isnull=False)),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.seq} {self.kind}"


class Vacation(models.Model):
    """Days off for a player: every clock of theirs is frozen from start to end."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="vacations")
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    days = models.PositiveSmallIntegerField()
    # Spent automatically when a clock ran out (rather than booked ahead).
    auto = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user", "starts_at"]
        indexes = [models.Index(fields=["user", "ends_at"])]

    def __str__(self) -> str:
        return f"{self.user} {self.starts_at:%Y-%m-%d}+{self.days}d"


class OutgoingMail(models.Model):
    """A mail decided and rendered, waiting to be (or already) handed to the SMTP server.

    Rows make delivery retryable across worker and mail-server failures; `key`
    makes a decision idempotent (one digest per user and day, one invitation).
    """

    # None for mails to an address without an account (sign-up, the operators' mails).
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    kind = models.CharField(max_length=16)
    key = models.CharField(max_length=80, null=True, blank=True, unique=True)
    to = models.EmailField()
    subject = models.CharField(max_length=200)
    body = models.TextField()
    html = models.TextField(blank=True)
    from_email = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=8)
    unsubscribe_url = models.CharField(max_length=400, blank=True)
    # Our own Message-ID; a table's later mails to a user refer to its first (threading).
    message_id = models.CharField(max_length=200, blank=True)
    thread_id = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    # Given up after retrying for MAIL_RETRY_HOURS (logged at error level, see the admin).
    failed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["sent_at", "next_attempt_at"]),
                   models.Index(fields=["user", "table", "created_at"])]

    def __str__(self) -> str:
        return f"{self.kind} to {self.to}"


class BotIncident(models.Model):
    """A bot decision the table could not take: the bot failed, or its move was refused.

    The seat played a uniformly random legal move instead, so the table went on.
    Only what staff need to fix the bot is kept: the move and the error, never
    the game state (see games/tables/admin.py).
    """

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="bot_incidents")
    # The table's version the bot decided at.
    seq = models.PositiveIntegerField()
    seat = models.SmallIntegerField()
    level = models.CharField(_("bot level"), max_length=20)
    # What the bot returned (None when its choose raised before returning a move).
    move = models.JSONField(null=True, blank=True)
    error = models.TextField(_("error"))
    traceback = models.TextField(_("traceback"), blank=True)
    # Whether the random move played instead was taken (False: the table still waits).
    fell_back = models.BooleanField(_("a random move was played instead"), default=False)
    # Tries of this same decision that failed (a re-queued turn, e.g. after broken rules
    # refused the random move too); the error and traceback are the last try's.
    attempts = models.PositiveIntegerField(_("failed tries"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    last_at = models.DateTimeField(_("last failed try"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["table", "seq"])]
        verbose_name = _("bot incident")
        verbose_name_plural = _("bot incidents")

    def __str__(self) -> str:
        return f"{self.table} #{self.seq} seat {self.seat} ({self.level})"
