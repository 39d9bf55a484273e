"""Projections of finished tables: each seat's result, ratings and their history.

Like snapshots, these are caches of the event log: `manage.py rebuild_ratings`
folds the finished tables again and gives the same rows.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.tables.models import Table


class Result(models.Model):
    """How one seat of a finished table did."""

    class Outcome(models.TextChoices):
        WON = "won", _("won")
        SHARED = "shared", _("shared win")
        LOST = "lost", _("lost")
        NONE = "none", _("no result")

    class Ended(models.TextChoices):
        FINISHED = "finished", _("played to the end")
        RESIGN = "resign", _("a player resigned")
        TIMEOUT = "timeout", _("a player ran out of time")
        ABANDONED = "abandoned", _("abandoned")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    position = models.SmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="results")
    bot_level = models.CharField(max_length=20, blank=True)
    game = models.CharField(max_length=40)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    outcome = models.CharField(max_length=8, choices=Outcome.choices)
    ended = models.CharField(max_length=10, choices=Ended.choices)
    # This seat left before the end: "resign" or "timeout" (else empty).
    left = models.CharField(max_length=10, blank=True)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at", "table_id", "position"]
        constraints = [models.UniqueConstraint(fields=["table", "position"],
                                               name="result_unique_seat")]
        indexes = [models.Index(fields=["user", "-finished_at"]),
                   models.Index(fields=["game", "user"])]

    def __str__(self) -> str:
        return f"{self.table} seat {self.position}: {self.outcome}"


class Rating(models.Model):
    """A player's (or a bot level's) current OpenSkill rating in one game."""

    game = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="ratings")
    bot_level = models.CharField(max_length=20, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], condition=models.Q(user__isnull=False),
                                    name="rating_unique_user"),
            models.UniqueConstraint(fields=["game", "bot_level"],
                                    condition=models.Q(user__isnull=True),
                                    name="rating_unique_bot"),
        ]

    @property
    def ordinal(self) -> float:
        """The conservative rating shown to people: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        """The rating as a whole number (the ordinal scaled like a chess rating)."""
        return display_rating(self.mu, self.sigma)

    def __str__(self) -> str:
        return f"{self.game} {self.user_id or self.bot_level}: {self.display}"


def display_rating(mu: float, sigma: float) -> int:
    """Ordinal (mu - 3 sigma, 0 for a new player) scaled by 40 and shifted to 1500."""
    return round(1500 + 40 * (mu - 3 * sigma))


class RatingChange(models.Model):
    """One rated table's change to one rating (the chart's points, the rebuild's check)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rating_changes")
    position = models.SmallIntegerField()
    game = models.CharField(max_length=40)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="rating_changes")
    bot_level = models.CharField(max_length=20, blank=True)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "id"]
        constraints = [models.UniqueConstraint(fields=["table", "position"],
                                               name="rating_change_unique_seat")]
        indexes = [models.Index(fields=["user", "game", "at"])]

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def display_before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)


class ProfileSettings(models.Model):
    """A player's profile choices (kept here so the user model stays untouched)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="profile_settings")
    hide_from_anonymous = models.BooleanField(
        _("hide my profile from visitors who are not signed in"), default=False)

    def __str__(self) -> str:
        return f"profile settings of {self.user_id}"


class Rematch(models.Model):
    """The table that replays a finished one (at most one rematch per table)."""

    original = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="rematch")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rematch_of")
    created_at = models.DateTimeField(auto_now_add=True)
