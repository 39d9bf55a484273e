"""Rate limits per token (django-ratelimit's counters in the shared cache).

Every call counts against API_RATE; writes also against API_WRITE_RATE. Over
either, the call is refused with 429 and Retry-After before anything is done.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from .problems import Problem

READS = "api:calls"
WRITES = "api:writes"


def _token_key(group, request) -> str:
    return f"token-{request.auth.pk}"


def check(request, *, write: bool) -> None:
    """Count this call of the request's token; raise a 429 problem when over a limit."""
    limits = [(READS, settings.API_RATE)]
    if write:
        limits.append((WRITES, settings.API_WRITE_RATE))
    for group, rate in limits:
        usage = get_usage(request, group=group, key=_token_key, rate=rate, increment=True)
        if usage is not None and usage["should_limit"]:
            raise Problem(429, "rate_limited",
                          _("This token made too many calls. Wait %(n)s seconds and try again.")
                          % {"n": max(1, int(usage["time_left"]))},
                          retry_after=max(1, int(usage["time_left"])))
