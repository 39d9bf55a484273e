"""psycopg's pool across fork(): a child process must never use its parent's connections.

Celery's prefork workers and test servers fork a process that may already hold
an open pool. Its sockets belong to the parent's sessions: the child forgets the
pool (Django opens a fresh one at its first query) and keeps the inherited
objects referenced, so that garbage collection never sends a Terminate message
to PostgreSQL on a socket the parent still uses.
"""

from __future__ import annotations

import os

_inherited: list = []


def _forget_inherited_pools() -> None:
    try:
        from django.db import connections
        from django.db.backends.postgresql.base import DatabaseWrapper
    except Exception:  # noqa: BLE001 - no PostgreSQL backend, nothing to forget
        return
    pools = getattr(DatabaseWrapper, "_connection_pools", None)
    if pools:
        _inherited.append(dict(pools))
        pools.clear()
    for conn in connections.all(initialized_only=True):
        if getattr(conn, "connection", None) is not None:
            _inherited.append(conn.connection)
            conn.connection = None


os.register_at_fork(after_in_child=_forget_inherited_pools)
