"""Problem details (RFC 9457): every refusal of the API is `application/problem+json`.

`code` names the problem for programs (documented in docs/api.md); `title` and
`detail` are sentences for people, in the request's language (English unless
Accept-Language asks for another the site speaks).
"""

from __future__ import annotations

import json

from django.http import HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine import IllegalMove
from games.tables import errors as table_errors

CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "tag:pyramid-tables,2026:problem:"

TITLES = {
    "bad_request": gettext_lazy("The request could not be used"),
    "unauthorized": gettext_lazy("A valid API token is needed"),
    "forbidden": gettext_lazy("This token may not do that"),
    "not_found": gettext_lazy("Not found"),
    "illegal_move": gettext_lazy("The rules do not allow that move"),
    "stale_move": gettext_lazy("Someone moved first"),
    "not_your_seat": gettext_lazy("Not your seat"),
    "not_your_decision": gettext_lazy("Not your decision"),
    "table_closed": gettext_lazy("The table is not running"),
    "not_finished": gettext_lazy("The game is not finished"),
    "refused": gettext_lazy("Refused"),
    "rate_limited": gettext_lazy("Too many requests"),
    "busy": gettext_lazy("The site is busy"),
}


class Problem(Exception):
    """Raise to answer with a problem document; nothing was changed."""

    def __init__(self, status: int, code: str, detail: str = "", *, errors: list | None = None,
                 retry_after: int | None = None):
        self.status = status
        self.code = code
        self.detail = str(detail or TITLES.get(code, ""))
        self.errors = errors
        self.retry_after = retry_after
        super().__init__(self.detail)


def problem_response(status: int, code: str, detail: str = "", *, errors: list | None = None,
                     retry_after: int | None = None) -> HttpResponse:
    body = {"type": TYPE_BASE + code, "title": str(TITLES.get(code, _("Refused"))),
            "status": status, "detail": str(detail or TITLES.get(code, "")), "code": code}
    if errors is not None:
        body["errors"] = errors
    response = HttpResponse(json.dumps(body), status=status, content_type=CONTENT_TYPE)
    if retry_after is not None:
        response["Retry-After"] = str(max(1, int(retry_after)))
    return response


def from_problem(exc: Problem) -> HttpResponse:
    return problem_response(exc.status, exc.code, exc.detail, errors=exc.errors,
                            retry_after=exc.retry_after)


ACTION_CODES = (
    (table_errors.StaleMove, "stale_move"),
    (table_errors.NotYourSeat, "not_your_seat"),
    (table_errors.NotYourDecision, "not_your_decision"),
    (table_errors.TableClosed, "table_closed"),
)


def from_refusal(exc: Exception) -> Problem:
    """The problem for a refusal of the write path: the pages' own sentences and codes."""
    from games.tables.views import error_text

    if isinstance(exc, IllegalMove):
        return Problem(400, "illegal_move", error_text(exc))
    for cls, code in ACTION_CODES:
        if isinstance(exc, cls):
            return Problem(exc.status, code, error_text(exc))
    return Problem(getattr(exc, "status", 400), "refused", error_text(exc))
