"""Per-account limits on what one account makes others receive (tables, invitations).

django-ratelimit keeps the counters in the shared cache; the rates are settings
(TABLE_CREATE_RATE, INVITE_RATE). Only what was really made is counted: a
refused form costs nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

TABLES = "tables:create"
INVITATIONS = "tables:invite"


def _usage(request, group: str, rate: str, *, increment: bool) -> dict | None:
    """django-ratelimit's count of this account's use of `group` (None: limits are off)."""
    return get_usage(request, group=group, key="user", rate=rate, increment=increment)


def _left(request, group: str, rate: str) -> int | None:
    usage = _usage(request, group, rate, increment=False)
    if usage is None:  # limits are off
        return None
    return usage["limit"] - usage["count"]


def refuse_table(request, *, invitees: int = 0) -> str | None:
    """Why this account may not open another table now, or None."""
    left = _left(request, TABLES, settings.TABLE_CREATE_RATE)
    if left is not None and left <= 0:
        return _("You have opened a lot of tables in the last hour. Please wait a while "
                 "before opening another one.")
    return refuse_invitations(request, invitees) if invitees else None


def refuse_invitations(request, count: int) -> str | None:
    """Why this account may not send `count` more invitations now, or None."""
    left = _left(request, INVITATIONS, settings.INVITE_RATE)
    if left is not None and left < count:
        return _("You have sent a lot of invitations in the last hour. Please wait a while "
                 "before inviting more players.")
    return None


def count_table(request, *, invitees: int = 0) -> None:
    _usage(request, TABLES, settings.TABLE_CREATE_RATE, increment=True)
    count_invitations(request, invitees)


def count_invitations(request, count: int) -> None:
    for _i in range(count):
        _usage(request, INVITATIONS, settings.INVITE_RATE, increment=True)
