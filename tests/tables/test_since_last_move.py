""""What happened since your last move", for every game (issue 9).

One game-independent rule: a turn mail lists, from the recipient's own view,
every line of the table's log written after the recipient's last decision,
whoever wrote it: the human opponent, a bot, the game itself (turns, chance).
The expected lines are read off the recipient's own table page (its log, as
it stood right after their move and as it stands now), so the mail says no
more and no less than the page; a real SMTP server receives the mails.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
import time_machine

from games.engine import get_rules
from games.tables import actions, selectors
from games.tables.models import Table
from games.tables.plugins import game_config
from games.tables.replay import current_state
from games.tables.since import since_last_move
from tests.tables.test_notify import body, smtp, smtp_port  # noqa: F401 - fixtures

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = ["high-card", "powerhouse", "flaming-pyramids", "gizmos"]


def page_log(table: Table, user) -> tuple[int, list[str]]:
    """(index of the first entry shown, the log lines) of `user`'s own table page."""
    viewer = selectors.viewer_for(table, user)
    tv = selectors.table_view_for(table, viewer)
    return int((tv.view or {}).get("log_first") or 0), [line["text"] for line in tv.log]


def log_end(table: Table, user) -> int:
    first, lines = page_log(table, user)
    return first + len(lines)


def move_for(user, table_id: int, when: datetime) -> None:
    """`user` makes the first legal move of their seat (bots answer in-process)."""
    table = Table.objects.get(pk=table_id)
    seat = table.seats.get(user=user).position
    legal = get_rules(table.game).legal_moves(current_state(table), seat)
    with time_machine.travel(when, tick=False):
        actions.check_submit_move(table_id=table_id, seat=seat, move=legal[0],
                                  based_on=table.seq, actor=user)


def moved_since(table: Table, seq: int) -> set[int]:
    return set(table.events.filter(kind="move", seq__gt=seq).values_list("seat", flat=True))


@pytest.mark.parametrize("game", GAMES)
def test_turn_mail_lists_every_line_since_the_players_last_move(game, smtp, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    level = game_config(game).bot_levels[0]
    clock = datetime(2027, 3, 1, 9, 0, tzinfo=dt_timezone.utc)
    with time_machine.travel(clock, tick=False):
        table = actions.check_create_table(creator=ana, game=game, players=3, bots={2: level})
    clock += timedelta(hours=1)
    with time_machine.travel(clock, tick=False):
        actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    seat_of = {s.user_id: s.position for s in table.seats.all() if s.user_id}
    bot_seat = table.seats.exclude(bot_level="").get().position
    mark = None  # ana's page log end right after her last move
    anchor = 0
    checked = 0
    for _ in range(300):
        table.refresh_from_db()
        if table.status != Table.Status.RUNNING or checked >= 2:
            break
        owing = table.to_move
        clock += timedelta(hours=1)
        if seat_of[ana.pk] in owing:
            others = moved_since(table, anchor)
            if mark is not None and {seat_of[bo.pk], bot_seat} <= others:
                first, lines = page_log(table, ana)
                expected = lines[max(0, mark - first):]
                got = since_last_move(table, ana)
                assert got == expected, (game, got, expected)
                names = {row["name"] for row in selectors.seat_rows(
                    table, selectors.Viewer(user=ana, seat=seat_of[ana.pk]))}
                bot_name = next(n for n in names if n not in (ana.name, bo.name))
                assert any(bo.name in line for line in got), (game, got)
                assert any(bot_name in line for line in got), (game, got)
                # The mail went out when the table began to wait on her: it lists the
                # lines up to then (a prefix of today's), with every move made before it.
                seat = table.seats.get(user=ana)
                assert seat.turn_mailed_at and seat.turn_mailed_at >= seat.owes_since, game
                mail_lines = mail_since(body([m for m in smtp.to(ana)
                                              if "Your turn" in m["Subject"]][-1]))
                assert mail_lines and mail_lines == expected[:len(mail_lines)], (
                    game, mail_lines, expected)
                for who, name in ((seat_of[bo.pk], bo.name), (bot_seat, bot_name)):
                    if table.events.filter(kind="move", seat=who, seq__gt=anchor,
                                           created_at__lte=seat.owes_since).exists():
                        assert any(name in line for line in mail_lines), (game, name, mail_lines)
                checked += 1
            move_for(ana, table.pk, clock)
            table.refresh_from_db()
            anchor = table.events.filter(kind="move", seat=seat_of[ana.pk]).order_by(
                "-seq").values_list("seq", flat=True).first()
            mark = log_end(table, ana) if moved_since(table, anchor) == set() else None
            if mark is None:  # a bot answered inside her move's commit: read the page then
                mark = _log_end_at(table, ana, anchor)
        elif seat_of[bo.pk] in owing:
            move_for(bo, table.pk, clock)
    assert checked >= 1, f"{game}: never reached a turn after both opponents moved"


def mail_since(text: str) -> list[str]:
    """The lines under "Since your last move:" in a plain-text turn mail."""
    lines = text.replace("\r\n", "\n").split("\n")
    if "Since your last move:" not in lines:
        return []
    out = []
    for line in lines[lines.index("Since your last move:") + 1:]:
        if not line.startswith("  - "):
            break
        out.append(line[4:])
    return out


def _log_end_at(table: Table, user, seq: int) -> int:
    """The recipient's page log end as it stood after event `seq` (replayed)."""
    from games.tables.replay import fold

    state = fold(table, table.events.filter(seq__lte=seq).order_by("seq"))
    view = get_rules(table.game).view(state, table.seats.get(user=user).position)
    return int(view.get("log_first") or 0) + len(view.get("log", []))


def test_a_secret_draw_of_an_opponent_is_told_without_the_card(smtp, make_user):
    """High Card: the opponent's draw appears as "drew a card", never which."""
    ana, bo = make_user("ana"), make_user("bo")
    with time_machine.travel(datetime(2027, 3, 1, 9, 0, tzinfo=dt_timezone.utc), tick=False):
        table = actions.check_create_table(creator=ana, game="high-card", players=2)
    with time_machine.travel(datetime(2027, 3, 1, 10, 0, tzinfo=dt_timezone.utc), tick=False):
        actions.check_join_table(table_id=table.pk, user=bo)
    table.refresh_from_db()
    first = table.seats.get(position=0).user
    other = bo if first == ana else ana
    state = current_state(table)
    draw = next(m for m in get_rules("high-card").legal_moves(state, 0) if m["type"] == "draw")
    with time_machine.travel(datetime(2027, 3, 1, 11, 0, tzinfo=dt_timezone.utc), tick=False):
        actions.check_submit_move(table_id=table.pk, seat=0, move=draw, based_on=table.seq,
                                  actor=first)
    table.refresh_from_db()
    lines = since_last_move(table, other)
    assert any(f"{first.name} drew a card." == line for line in lines), lines
    assert not any("You drew" in line for line in lines)
    drawn = current_state(table)["log"][-1]
    assert drawn["kind"] == "draw"
    mine = since_last_move(table, first)
    assert mine == [], "the mover's own move is not news to them"
