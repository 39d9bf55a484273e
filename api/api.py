"""The public API, version 1 (django-ninja): `/api/v1/`, schema at `/api/v1/openapi.json`.

Views are thin: they authenticate the token (api/auth.py), read through
api/selectors.py and write through games/tables/actions.py, the same door and
the same answers as the site's pages. Refusals are problem details (api/problems.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import DataError
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Path, Query, Router, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.openapi.docs import Swagger

from games.engine import IllegalMove
from games.tables import actions, presence
from games.tables.errors import ActionError

from . import auth, selectors
from .problems import CONTENT_TYPE, Problem, from_problem, from_refusal, problem_response
from .schemas import (MAX_ID, MAX_SEQ, EventsOut, GameOut, MeOut, MoveIn, MoveOut, MovesOut,
                      MyTablesOut, NewTableIn, ProblemOut, RecordOut, TableOut, TableSummaryOut)

DESCRIPTION = """The public API of Pyramid Tables: the games, your tables, views, legal moves,
moves, events and a live stream. Authenticate with a personal token from your profile page:
`Authorization: Bearer <token>` (scopes `read` and `play`). Errors are problem details
(RFC 9457, `application/problem+json`) with a `code`. See docs/api.md."""


class Api(NinjaAPI):
    """NinjaAPI whose error answers are documented as problem details, plus the stream."""

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        schema = super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params)
        for operations in schema["paths"].values():
            for operation in operations.values():
                for status, response in operation.get("responses", {}).items():
                    content = response.get("content", {})
                    if int(status) >= 400 and "application/json" in content:
                        content[CONTENT_TYPE] = content.pop("application/json")
        from .stream import openapi_path

        schema["paths"][f"{path_prefix or '/api/v1/'}stream"] = openapi_path()
        return schema


api = Api(title="Pyramid Tables API", version="1", description=DESCRIPTION,
          urls_namespace="api-v1", docs=Swagger(settings={"persistAuthorization": True}),
          docs_url="/docs", openapi_url="/openapi.json")


@api.exception_handler(Problem)
def _problem(request, exc: Problem):
    response = from_problem(exc)
    if exc.status == 401:
        response["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, exc):
    return _problem(request, Problem(401, "unauthorized", _(
        "Send a personal API token: Authorization: Bearer <token>. "
        "Tokens are made on your profile page.")))


@api.exception_handler(ValidationError)
def _invalid(request, exc: ValidationError):
    errors = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")),
               "type": str(e.get("type", ""))} for e in exc.errors]
    return problem_response(400, "bad_request", _("Some input does not fit the schema; "
                                                 "nothing was changed."), errors=errors)


@api.exception_handler(Http404)
def _not_found(request, exc):
    return problem_response(404, "not_found", _("Not found."))


@api.exception_handler(HttpError)
def _http_error(request, exc: HttpError):
    code = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
            429: "rate_limited"}.get(exc.status_code, "refused")
    return problem_response(exc.status_code, code, str(exc))


@api.exception_handler(DataError)
def _data_error(request, exc):
    # A value PostgreSQL cannot store or compare (nothing was written: the transaction rolled back).
    return problem_response(400, "bad_request", _("Some input could not be used; nothing was changed."))


ERRORS = {400: ProblemOut, 401: ProblemOut, 403: ProblemOut, 404: ProblemOut, 429: ProblemOut}
WRITE_ERRORS = {**ERRORS, 409: ProblemOut}
TableId = Path(..., ge=1, le=MAX_ID)


def _refused(exc: Exception):
    raise from_refusal(exc) from None


# -- reads ------------------------------------------------------------------------------

@api.get("/games", response={200: list[GameOut], **ERRORS}, auth=auth.read, tags=["games"])
def list_games(request):
    """The games: slugs, names, player counts, options, bot levels and rules versions."""
    return selectors.games()


@api.get("/me", response={200: MeOut, **ERRORS}, auth=auth.read, tags=["account"])
def me(request):
    """The token's account and scopes."""
    user = request.auth.user
    return {"id": user.pk, "username": user.username, "name": str(user.name),
            "bot_account": user.is_bot_account, "scopes": request.auth.scopes}


tables = Router(tags=["tables"])


@tables.get("/mine", response={200: MyTablesOut, **ERRORS}, auth=auth.read)
def my_tables(request):
    """Your tables: waiting on you, running, not started yet, finished."""
    return selectors.my_tables(request.auth.user)


@tables.get("/open", response={200: list[TableSummaryOut], **ERRORS}, auth=auth.read)
def open_tables(request):
    """Open tables you may join: public ones and those you were invited to."""
    return selectors.open_tables(request.auth.user)


@tables.get("/{table_id}", response={200: TableOut, **ERRORS}, auth=auth.read)
def table(request, table_id: int = TableId):
    """One table: seats, status, whose turn, deadlines, seq and your seat's view."""
    found = selectors.visible_table(table_id, request.auth.user)
    presence.mark_present(table_id=found.pk, user=request.auth.user)  # as a page load does
    return selectors.detail(found, request.auth.user)


@tables.get("/{table_id}/moves", response={200: MovesOut, **ERRORS}, auth=auth.read)
def legal_moves(request, table_id: int = TableId):
    """The legal moves of your seat now, each with the page's label (empty if none is owed)."""
    return selectors.legal_moves(selectors.visible_table(table_id, request.auth.user),
                                 request.auth.user)


@tables.get("/{table_id}/events", response={200: EventsOut, **ERRORS}, auth=auth.read)
def events(request, table_id: int = TableId,
           since: int = Query(0, ge=0, le=MAX_SEQ, description="Events after this seq.")):
    """The table's events after `since`, each with the log entries your seat saw it write."""
    return selectors.events_since(selectors.visible_table(table_id, request.auth.user),
                                  request.auth.user, since)


@tables.get("/{table_id}/record", response={200: RecordOut, **WRITE_ERRORS}, auth=auth.read)
def record(request, table_id: int = TableId):
    """The record of a finished table (seats, every event, outcome, result), the same
    document as the table page's record download; `not_finished` for a table in play."""
    from games.history import records
    from games.tables.models import Table

    found = selectors.visible_table(table_id, request.auth.user)
    if found.status != Table.Status.FINISHED:
        raise Problem(409, "not_finished", _("Only a finished game has a record."))
    return records.export(found)


# -- writes -----------------------------------------------------------------------------

@tables.post("/{table_id}/moves", response={200: MoveOut, **WRITE_ERRORS}, auth=auth.play)
def post_move(request, payload: MoveIn, table_id: int = TableId):
    """Make a move from version `based_on`, with your idempotency `key`.

    The answers are the pages': `illegal_move`, `stale_move` (someone moved first),
    `not_your_seat`, `not_your_decision`; a retry with the same key is answered with
    `recorded_earlier: true` and writes nothing.
    """
    user = request.auth.user
    table = selectors.visible_table(table_id, user)
    seat = actions.seat_of(table, user)
    if seat is None:
        raise Problem(403, "not_your_seat", _("You do not have a seat at this table."))
    try:
        done = actions.check_submit_move(table_id=table.pk, seat=seat.position,
                                         move=payload.move, based_on=payload.based_on,
                                         actor=user, key=payload.key)
    except (ActionError, IllegalMove) as exc:
        _refused(exc)
    done.refresh_from_db()
    return {"table": done.pk, "seq": done.seq, "recorded_earlier": done.recorded_earlier,
            "status": done.status, "to_move": list(done.to_move or [])}


@tables.post("", response={201: TableOut, **WRITE_ERRORS}, auth=auth.play)
def create_table(request, payload: NewTableIn):
    """Open a table; you take the first seat, site bots the seats you give them."""
    from games.tables import limits as table_limits

    limited = table_limits.refuse_table(request, invitees=len(payload.invitees))
    if limited:
        raise Problem(429, "rate_limited", limited, retry_after=3600)
    try:
        table = actions.check_create_table(
            creator=request.auth.user, game=payload.game, players=payload.players,
            bots={int(k): v for k, v in payload.bots.items()}, options=payload.options,
            is_private=payload.private, invitees=payload.invitees, rated=payload.rated)
    except (ActionError, IllegalMove) as exc:
        _refused(exc)
    table_limits.count_table(request, invitees=table.invitations.count())
    table.refresh_from_db()
    return Status(201, selectors.detail(table, request.auth.user))


def _table_action(request, table_id: int, action):
    user = request.auth.user
    table = selectors.visible_table(table_id, user)
    try:
        action(table, user)
    except (ActionError, IllegalMove) as exc:
        _refused(exc)
    table.refresh_from_db()
    return selectors.detail(table, user)


@tables.post("/{table_id}/join", response={200: TableOut, **WRITE_ERRORS}, auth=auth.play)
def join(request, table_id: int = TableId):
    """Take a free seat at an open table."""
    return _table_action(request, table_id, lambda t, u: actions.check_join_table(
        table_id=t.pk, user=u))


@tables.post("/{table_id}/leave", response={200: TableOut, **WRITE_ERRORS}, auth=auth.play)
def leave(request, table_id: int = TableId):
    """Give up your seat before the start (the creator cannot: the table would be empty)."""
    return _table_action(request, table_id, lambda t, u: actions.check_leave_table(
        table_id=t.pk, user=u))


@tables.post("/{table_id}/resign", response={200: TableOut, **WRITE_ERRORS}, auth=auth.play)
def resign(request, table_id: int = TableId):
    """Leave a running game; the game's rules say whether the others play on."""
    return _table_action(request, table_id, lambda t, u: actions.check_resign(
        table_id=t.pk, user=u))


api.add_router("/tables", tables)
