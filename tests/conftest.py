"""Shared fixtures: verified users, tables of the test game, service checks."""

from __future__ import annotations

import os

import pytest
from django.conf import settings


def _close_pool_before_dropping_the_test_database():
    """Django drops the test database with the pool's connections still open in it
    ("being accessed by other users"): close the pool first, and the connection of the
    thread where async tests ran their database code (`sync_to_async` outside any
    `async_to_sync` runs it on one shared thread, whose connection is checked out of the
    pool, and a pool closes only the connections it holds): without that, a run whose
    last test was such a test left its database behind."""
    import asyncio
    import threading

    from asgiref.sync import sync_to_async
    from django.db import connections
    from django.db.backends.base.creation import BaseDatabaseCreation

    original = BaseDatabaseCreation.destroy_test_db
    if getattr(original, "closes_pool", False):
        return

    def destroy_test_db(self, *args, **kwargs):
        close_pool = getattr(self.connection, "close_pool", None)
        if close_pool is not None:
            # from a thread of its own: the browser tests' Playwright keeps a loop running here
            closer = threading.Thread(target=asyncio.run, args=(sync_to_async(connections.close_all)(),))
            closer.start()
            closer.join()
            self.connection.close()
            close_pool()
        return original(self, *args, **kwargs)

    destroy_test_db.closes_pool = True
    BaseDatabaseCreation.destroy_test_db = destroy_test_db


_close_pool_before_dropping_the_test_database()


def pytest_collection_modifyitems(config, items):
    # Browser tests keep an event loop running: they go last (and scripts/test.sh
    # runs them in their own pytest process). The long ones (marked slow) go first, so
    # that on several workers (scripts/test.sh: --dist worksteal) none is left running
    # alone at the end while the other workers wait.
    items.sort(key=lambda item: (1 if item.get_closest_marker("browser") else 0,
                                 0 if item.get_closest_marker("slow") else 1))


def uses_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"].endswith("postgresql")


def uses_redis() -> bool:
    return bool(settings.REDIS_URL)


@pytest.fixture(scope="session", autouse=True)
def _flush_channel_layer():
    """Killed runs leave stale group members in Redis: start clean."""
    if uses_redis():
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        prefix = os.environ.get("CHANNELS_PREFIX", "asgi")
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
    yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer():
    """Each test gets its own channel-layer object, as it gets its own event loop.

    channels-redis keeps receive state on the layer object (a receive lock, buffers, the
    count of receivers and per-channel cleanup locks, all bound to the loop that used
    them) and supports one event loop at a time; a web process has one loop for its
    life, a test run one per test. State a test left there (a receive or backup cleanup
    cancelled as its loop closed) could leave a later test's sockets deaf: a suspected
    cause of one unexplained push timeout in CI (2026-12-07), never reproduced."""
    from channels.layers import channel_layers

    channel_layers.backends = {}
    yield


@pytest.fixture(autouse=True)
def _default_language_and_time_zone():
    """Each test starts in the site's default language and time zone. A request of a
    user with a language (accounts.middleware) activates it in the thread, as Django's
    LocaleMiddleware does, and nothing deactivates it: a later test on the same worker
    then drew its lines in Spanish (seen with pytest-xdist, where the order differs)."""
    from django.utils import timezone, translation

    translation.activate(settings.LANGUAGE_CODE)
    timezone.deactivate()
    yield
    translation.activate(settings.LANGUAGE_CODE)
    timezone.deactivate()


@pytest.fixture
def make_user(db):
    """A factory of users with a verified e-mail address."""
    from allauth.account.models import EmailAddress

    from accounts.models import User

    def make(username: str, **extra) -> User:
        user = User.objects.create_user(username, f"{username}@example.org", "a-Strong-pass-123",
                                        **extra)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    return make


@pytest.fixture
def two_players(make_user):
    return make_user("ana"), make_user("bo")


@pytest.fixture
def running_table(two_players):
    """A running 2-player High Card table between ana and bo.

    Ana opened it ten minutes ago and left its page; bo takes the last seat now.
    """
    from datetime import timedelta

    import time_machine
    from django.utils import timezone

    from games.tables import actions

    ana, bo = two_players
    with time_machine.travel(timezone.now() - timedelta(minutes=10)):
        table = actions.check_create_table(creator=ana, game="high-card", players=2)
    actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    return table


def seat_user(table, position):
    return table.seats.get(position=position).user
