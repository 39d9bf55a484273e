"""Per-user rate limits of chat, with django-ratelimit (fixed windows in the shared cache).

`RATELIMIT_ENABLE` (off when DISABLE_RATE_LIMITS is set, as in the test settings)
switches every limit off; tests that check limits turn it on explicitly.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django_ratelimit.core import is_ratelimited

log = logging.getLogger(__name__)

DEFAULT_RATES = {
    "chat.post": ("10/m", "120/h"),
    "chat.report": ("10/h",),
    "chat.notes": ("60/m",),
}


def rates(group: str) -> tuple[str, ...]:
    return tuple(getattr(settings, "CHAT_RATE_LIMITS", {}).get(group, DEFAULT_RATES[group]))


def limited(request, group: str) -> bool:
    """Count this request against the user's limits of `group`; True when one is exceeded."""
    for rate in rates(group):
        try:
            if is_ratelimited(request, group=f"{group}:{rate}", key="user", rate=rate,
                              increment=True):
                return True
        except Exception:  # noqa: BLE001 - a cache outage must not stop the chat
            log.warning("rate limit check %s failed; letting the request through", group,
                        exc_info=True)
            return False
    return False
