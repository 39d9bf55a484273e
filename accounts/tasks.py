"""Account housekeeping on the beat."""

from __future__ import annotations

from importlib import import_module

from celery import shared_task
from django.conf import settings


@shared_task
def clear_expired_sessions() -> None:
    """Delete the sessions past their expiry (Django's `clearsessions`): signed-in
    sessions last SESSION_COOKIE_AGE from the player's last day, and every sign-in
    or sign-up attempt makes one, so without this the table only grows."""
    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
