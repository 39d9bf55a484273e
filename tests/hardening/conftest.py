"""Throttles are off in the test settings (DISABLE_RATE_LIMITS=1): these turn them on."""

from __future__ import annotations

import pytest
from django.core.cache import cache


def clear_throttles():
    """Forget every counter of this test run (only this run's keys: on Redis the cache
    clears its own prefix, config/cache.py)."""
    cache.clear()


@pytest.fixture
def throttles(settings):
    """The production throttles, on, with fresh counters."""
    settings.ACCOUNT_RATE_LIMITS = getattr(settings, "LOGIN_RATE_LIMITS", {})
    settings.RATELIMIT_ENABLE = True
    clear_throttles()
    yield settings
    clear_throttles()
