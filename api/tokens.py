"""Creating, finding and revoking personal API tokens (the only writers of ApiToken)."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.tables.errors import ActionError

from .models import ApiToken

# Tokens look like "pt_<43 url-safe characters>"; the prefix helps secret scanners.
TOKEN_PREFIX = "pt_"
# Each user may hold this many active tokens.
MAX_ACTIVE = 20
# last_used_at is written at most this often per token.
TOUCH_EVERY = timedelta(minutes=1)


def digest_of(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def check_create_token(*, user, name: str, scopes: list[str]) -> tuple[ApiToken, str]:
    """A new token of `user`; returns the row and the token itself (never stored)."""
    name = (name or "").strip()[:60]
    if not name:
        raise ActionError(_("Give the token a name."))
    scopes = sorted(set(scopes or []))
    if not scopes or any(s not in ApiToken.Scope.values for s in scopes):
        raise ActionError(_("Choose at least one scope: read or play."))
    if ApiToken.Scope.PLAY in scopes and ApiToken.Scope.READ not in scopes:
        scopes = sorted(scopes + [ApiToken.Scope.READ])  # playing needs to see the table
    with transaction.atomic():
        # The user's row is the lock: two tokens made at once cannot both pass the cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).exists()
        if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE:
            raise ActionError(_("You have %(n)s active tokens: revoke one first.") % {"n": MAX_ACTIVE})
        raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
        token = ApiToken.objects.create(user=user, name=name, prefix=raw[:10],
                                        digest=digest_of(raw), scopes=scopes)
    return token, raw


def check_revoke_token(*, user, token_id: int) -> ApiToken:
    """Revoke one of `user`'s tokens; it stops working at once."""
    token = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).first()
    if token is None:
        raise ActionError(_("There is no such token."))
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    return token


def token_for(raw: str | None) -> ApiToken | None:
    """The active token `raw` stands for (with its user), or None."""
    if not raw or not raw.startswith(TOKEN_PREFIX) or len(raw) > 200:
        return None
    token = (ApiToken.objects.select_related("user")
             .filter(digest=digest_of(raw), revoked_at__isnull=True).first())
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def tokens_of(user) -> list[ApiToken]:
    """The user's active tokens, newest first."""
    return list(ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at"))
