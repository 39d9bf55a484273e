"""Personal API tokens: stored as a SHA-256 digest, shown once at creation."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ApiToken(models.Model):
    """One personal token of a user, with its scopes; revoked tokens stay for the record."""

    class Scope(models.TextChoices):
        READ = "read", _("read: see your tables, views and events")
        PLAY = "play", _("play: make moves, create, join, leave and resign tables")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="api_tokens")
    name = models.CharField(_("name"), max_length=60)
    # The first characters of the token, shown on the profile page to tell tokens apart.
    prefix = models.CharField(max_length=12, editable=False)
    # hex SHA-256 of the whole token: a leaked database does not give working tokens.
    digest = models.CharField(max_length=64, unique=True, editable=False)
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["user", "-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}… {self.name}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def allows(self, scope: str) -> bool:
        return scope in (self.scopes or [])
