"""The API's typed shapes (django-ninja / pydantic): inputs are validated by them."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from ninja import Field, Schema
from pydantic import StringConstraints

# Ids and seqs fit PostgreSQL's columns: larger numbers are refused as bad input.
MAX_ID = 2**62
MAX_SEQ = 2**31 - 1
KEY_PATTERN = r"^[A-Za-z0-9_.:-]{8,64}$"
NAME_PATTERN = r"^[^\x00-\x1f]{1,150}$"


class ProblemOut(Schema):
    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: list[dict[str, Any]] | None = None


class ChoiceOut(Schema):
    value: Any
    label: str


class OptionOut(Schema):
    key: str
    label: str
    kind: str
    default: Any
    choices: list[ChoiceOut]
    help: str


class BotLevelOut(Schema):
    level: str
    label: str
    description: str


class GameOut(Schema):
    slug: str
    name: str
    min_players: int
    max_players: int
    options: list[OptionOut]
    bot_levels: list[BotLevelOut]
    rules_version: int


class MeOut(Schema):
    id: int
    username: str
    name: str
    bot_account: bool
    scopes: list[str]


class SeatOut(Schema):
    position: int
    name: str
    username: str | None = Field(None, description="The seat's account; null for a site bot "
                                                     "or a free seat.")
    bot_account: bool = Field(description="The seat is played by a bot account (through the API).")
    site_bot: str | None = Field(None, description="The level of the site's bot playing it.")
    free: bool
    you: bool
    to_move: bool
    resigned: bool
    deadline: datetime | None = None


class TableSummaryOut(Schema):
    id: int
    game: str
    game_name: str
    status: str
    players: int
    seq: int
    private: bool
    rated: bool
    your_seat: int | None
    your_turn: bool
    to_move: list[int]
    seats: list[SeatOut]
    created_at: datetime
    last_event_at: datetime
    url: str


class TableOut(TableSummaryOut):
    started_at: datetime | None = None
    finished_at: datetime | None = None
    outcome: dict[str, Any] | None = None
    view: dict[str, Any] | None = Field(
        None, description="rules.view(state, your seat) — the spectator's view without a "
                          "seat; null before the start. Exactly what the table page is drawn from.")


class MyTablesOut(Schema):
    waiting: list[TableSummaryOut] = Field(description="Running tables waiting on you.")
    running: list[TableSummaryOut]
    open: list[TableSummaryOut] = Field(description="Your tables that have not started.")
    finished: list[TableSummaryOut]


class LegalMoveOut(Schema):
    move: dict[str, Any]
    label: str


class MovesOut(Schema):
    table: int
    seq: int
    seat: int | None
    moves: list[LegalMoveOut]


class MoveIn(Schema):
    move: dict[str, Any] = Field(description="One entry of the table's legal moves.")
    based_on: int = Field(ge=0, le=MAX_SEQ, description="The table's seq you decided from.")
    key: str = Field(pattern=KEY_PATTERN, description="Your idempotency key of this submission: "
                     "a retry with the same key writes nothing twice.")


class MoveOut(Schema):
    table: int
    seq: int
    recorded_earlier: bool = Field(description="This key's move was recorded by an earlier call.")
    status: str
    to_move: list[int]


class EventOut(Schema):
    seq: int
    kind: str
    seat: int | None
    at: datetime
    log: list[dict[str, Any]] = Field(description="The game's log entries this event wrote, as "
                                      "your seat's view shows them.")
    move: dict[str, Any] | None = Field(None, description="The move itself, for your own "
                                        "seat's moves only.")


class EventsOut(Schema):
    table: int
    since: int
    seq: int
    events: list[EventOut]
    more: bool = Field(description="More events follow: ask again from the last seq.")


class NewTableIn(Schema):
    game: str = Field(max_length=40)
    players: int = Field(ge=1, le=12)
    bots: dict[Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}$")],
               Annotated[str, StringConstraints(max_length=20)]] = Field(default_factory=dict, description="Seat position (1 and up) → "
                                 "site bot level, e.g. {\"1\": \"fast\"}.")
    options: dict[str, Any] = Field(default_factory=dict)
    private: bool = False
    invitees: list[Annotated[str, StringConstraints(pattern=NAME_PATTERN)]] = Field(
        default_factory=list, max_length=10, description="Usernames to invite.")
    rated: bool = False


class RecordSeatOut(Schema):
    position: int
    name: str
    username: str | None
    bot: str | None
    taken_over: bool


class RecordEventOut(Schema):
    seq: int
    kind: str
    seat: int | None
    data: Any
    actor: str | None
    at: str


class RecordOut(Schema):
    """The record of a finished table: the same document as the page's record.json download
    (games/history/records.py), which `manage.py import_record` reads back."""
    format: str
    format_version: int
    game: str
    rules_version: int
    options: dict[str, Any]
    players: int
    seed: int
    rated: bool
    time_control: dict[str, Any]
    timeout_policy: str
    started_at: str | None
    finished_at: str | None
    seats: list[RecordSeatOut]
    events: list[RecordEventOut]
    outcome: Any
    result: Any
    final_state_sha256: str | None
