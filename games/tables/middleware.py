"""HTTP middleware of the tables app: an exhausted database pool answers 503, never 500."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

try:  # psycopg's pool is only there with PostgreSQL
    from psycopg_pool import PoolTimeout
except ImportError:  # pragma: no cover - SQLite installs without the pool
    PoolTimeout = None


def is_pool_timeout(exc: BaseException | None) -> bool:
    """Whether `exc` (or what it wraps: Django re-raises driver errors) is a pool timeout."""
    seen = 0
    while exc is not None and seen < 5:
        if PoolTimeout is not None and isinstance(exc, PoolTimeout):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def busy_response() -> HttpResponse:
    """503 with Retry-After: the request changed nothing and may simply be sent again."""
    response = HttpResponse(_("The site is busy right now. Please try again in a moment."),
                            status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(getattr(settings, "DB_POOL_RETRY_AFTER", 2))
    return response


class PoolGuardMiddleware:
    """Take the request's database connection first, so waiting for the pool happens here.

    With psycopg's pool a request waits up to the pool's `timeout` for a free
    connection. If none comes, nothing has been read or written yet: answer 503
    with Retry-After. A timeout later in the view (a reconnect) is caught too.
    """

    def __init__(self, get_response):
        self.get_response = get_response
        self.pooled = bool(connection.settings_dict.get("OPTIONS", {}).get("pool"))

    def __call__(self, request):
        if self.pooled:
            try:
                connection.ensure_connection()
            except DatabaseError as exc:
                if not is_pool_timeout(exc):
                    raise
                log.warning("database pool exhausted: 503 for %s %s", request.method, request.path)
                return busy_response()
        return self.get_response(request)

    def process_exception(self, request, exception):
        if is_pool_timeout(exception):
            log.warning("database pool exhausted in view: 503 for %s", request.path)
            return busy_response()
        return None
